package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	zmcp "github.com/zaxy/zaxy/mcp"
)

var coreTools = []string{"context_assemble", "memory_append", "memory_capabilities", "memory_checkout",
	"memory_feedback", "memory_feeling_of_knowing", "memory_invalidate", "memory_query"}

// adminOnlyOperations are HTTP operations deliberately without an MCP tool: erasure needs the
// admin scope and is an operator's act, never an agent's (docs/mcp.md).
var adminOnlyOperations = []string{"POST /v1/spaces/{space}/erasures"}

// apiOperations are the operations of the HTTP API under /v1/spaces/{space}, read from the
// OpenAPI document it serves, as "METHOD path", less adminOnlyOperations.
func apiOperations(t *testing.T, e *env) []string {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/v1/openapi.json", nil)
	if e.tokens != nil {
		req.Header.Set("Authorization", "Bearer "+e.token(t, "read", "x"))
	}
	e.api.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &doc))
	var ops []string
	for path, methods := range doc.Paths {
		if !strings.HasPrefix(path, "/v1/spaces/{space}") {
			continue // health, readiness, metrics and the document itself are not memory operations
		}
		for method := range methods {
			op := strings.ToUpper(method) + " " + path
			if method != "parameters" && !slices.Contains(adminOnlyOperations, op) {
				ops = append(ops, op)
			}
		}
	}
	slices.Sort(ops)
	require.GreaterOrEqual(t, len(ops), 19)
	return ops
}

// capabilities calls memory_capabilities and returns its tools.
func capabilities(t *testing.T, cs *sdk.ClientSession) (profile string, tools []zmcp.Capability) {
	t.Helper()
	res := call(t, cs, "memory_capabilities", nil)
	require.False(t, res.IsError, text(res))
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var c zmcp.Capabilities
	require.NoError(t, json.Unmarshal(b, &c))
	require.Contains(t, text(res), "Switch profile")
	return c.Profile, c.Tools
}

func TestProfiles_CoreListsTheAgentToolsAndFullEveryOperation_OverBothTransports(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	srv := e.serveHTTP(t)
	ops := apiOperations(t, e)
	sessions := map[string]map[string]*sdk.ClientSession{
		"stdio": {
			"core": connectStdio(t, e.api, zmcp.Config{}),
			"full": connectStdio(t, e.api, zmcp.Config{Profile: zmcp.ProfileFull}),
		},
		"http": {
			"core": connectHTTP(t, srv.URL+"/mcp", ""),
			"full": connectHTTP(t, srv.URL+"/mcp?profile=full", ""),
		},
	}
	for transport, byProfile := range sessions {
		core := toolNames(t, byProfile["core"])
		slices.Sort(core)
		require.Equal(t, coreTools, core, transport)
		require.LessOrEqual(t, len(core), 8)

		listed, err := byProfile["core"].ListTools(context.Background(), nil)
		require.NoError(t, err)
		for _, tl := range listed.Tools {
			if tl.Name == "memory_checkout" {
				require.True(t, strings.HasPrefix(tl.Description, "Call this first"), tl.Description)
			}
		}

		full := toolNames(t, byProfile["full"])
		profile, caps := capabilities(t, byProfile["full"])
		require.Equal(t, "full", profile)
		var covered []string
		for _, c := range caps {
			require.Contains(t, full, c.Name, "%s: full lists every tool", transport)
			require.True(t, c.Listed)
			if c.HTTP != "" && !slices.Contains(covered, c.HTTP) {
				covered = append(covered, c.HTTP)
			}
		}
		require.Len(t, full, len(caps))
		slices.Sort(covered)
		require.Equal(t, ops, covered, "%s: every HTTP operation has a tool in full, and no tool calls anything else", transport)

		// Core's memory_capabilities describes the whole surface too, and how to switch.
		profile, caps = capabilities(t, byProfile["core"])
		require.Equal(t, "core", profile)
		require.Len(t, caps, len(full))
		for _, c := range caps {
			require.Equal(t, slices.Contains(coreTools, c.Name), c.Listed, c.Name)
		}
	}
}

func TestHTTP_UnknownProfileIsABadRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	srv := e.serveHTTP(t)
	resp, err := http.Post(srv.URL+"/mcp?profile=everything", "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)
	var body struct {
		Error struct{ Code, Message string }
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	require.Equal(t, "invalid_request", body.Error.Code)
	require.Contains(t, body.Error.Message, "profile")
	_, err = zmcp.NewServer(zmcp.Config{Profile: "everything"}, zmcp.Services{API: e.api}, nil)
	require.Error(t, err)
}
