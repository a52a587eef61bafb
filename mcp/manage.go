package mcp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zaxy/zaxy/internal/strictjson"
	"github.com/zaxy/zaxy/validation"
)

// manageTool is the operation-enum tool: one definition that runs every tool the compact
// profile does not list, so an agent on compact keeps every capability without paying for
// each definition in every turn.
const manageTool = "memory_manage"

// manageInput is memory_manage's arguments: the tool to run and its own arguments.
type manageInput struct {
	spaceArg
	Operation string          `json:"operation"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// manageOperations are the tools memory_manage runs: every tool with an HTTP operation that
// the compact profile does not list, in listing order.
func manageOperations() []string {
	var ops []string
	for _, t := range tools {
		if t.method != "" && !t.listed(ProfileCompact) {
			ops = append(ops, t.name)
		}
	}
	return ops
}

// toolNamed is the tool called name, or nil.
func toolNamed(name string) *tool {
	for _, t := range tools {
		if t.name == name {
			return t
		}
	}
	return nil
}

// manageHandler serves memory_manage: it reads operation and arguments, puts space among the
// arguments and serves the call as the named tool's own (its schema, request and result).
func manageHandler(cfg Config, svc Services, all map[string]*jsonschema.Schema, sess *session) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		t, args, err := manageCall(req.Params.Arguments, all[manageTool])
		if err != nil {
			return failure(err), nil
		}
		inner := *req
		params := *req.Params
		params.Name, params.Arguments = t.name, args
		inner.Params = &params
		return handler(cfg, svc, t, all[t.name], sess)(ctx, &inner)
	}
}

// manageCall is the tool a memory_manage call names and the arguments it is called with:
// arguments' own, plus space.
func manageCall(raw json.RawMessage, schema *jsonschema.Schema) (*tool, json.RawMessage, error) {
	fields := map[string]json.RawMessage{}
	if trimmed := bytes.TrimSpace(raw); len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
		var err error
		fields, err = strictjson.DecodeObject(trimmed)
		var se *strictjson.Error
		switch {
		case errors.As(err, &se):
			return nil, nil, &validation.Error{Field: cmp.Or(se.Path, "arguments"), Message: se.Message}
		case err != nil:
			return nil, nil, &validation.Error{Field: "arguments", Message: "must be a JSON object"}
		}
	}
	for name := range fields {
		if _, ok := schema.Properties[name]; !ok {
			return nil, nil, &validation.Error{Field: name, Message: knownArgs(schema)}
		}
	}
	op, err := take(fields, "operation")
	if err != nil {
		return nil, nil, err
	}
	ops := manageOperations()
	if !slices.Contains(ops, op) {
		return nil, nil, &validation.Error{Field: "operation", Message: "must be one of " + strings.Join(ops, ", ") + ", got " + strings.TrimSpace(op)}
	}
	args := map[string]json.RawMessage{}
	if a, ok := fields["arguments"]; ok && !bytes.Equal(bytes.TrimSpace(a), []byte("null")) {
		if args, err = strictjson.DecodeObject(a); err != nil {
			return nil, nil, &validation.Error{Field: "arguments", Message: "must be a JSON object of " + op + "'s arguments"}
		}
		if _, ok := args["space"]; ok {
			return nil, nil, &validation.Error{Field: "arguments.space", Message: "give space beside operation, not among its arguments"}
		}
	}
	if s, ok := fields["space"]; ok {
		args["space"] = s
	}
	b, err := json.Marshal(args)
	if err != nil {
		return nil, nil, err
	}
	return toolNamed(op), b, nil
}
