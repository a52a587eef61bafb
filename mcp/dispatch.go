package mcp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/strictjson"
	"github.com/zaxy/zaxy/validation"
)

// internalOrigin is the made-up origin of the requests tool calls become; they never leave
// the process.
const internalOrigin = "http://zaxy-mcp.internal"

// request builds the HTTP request a call of t with arguments raw stands for: space and the
// path arguments fill the route, idempotency_key becomes the Idempotency-Key header, and the
// other arguments become the JSON body (POST) or the query string (GET) exactly as given, for
// the API to validate. Arguments that are not in the schema are refused here, GET included
// (where the API would ignore them), so that a misspelt argument is never silently dropped.
func request(ctx context.Context, t *tool, schema *jsonschema.Schema, raw json.RawMessage) (*http.Request, error) {
	args := map[string]json.RawMessage{}
	if trimmed := bytes.TrimSpace(raw); len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
		// The strict rules refuse duplicate keys (which decoding into a map would drop),
		// invalid UTF-8, lone surrogates, NUL and out-of-range numbers.
		fields, err := strictjson.DecodeObject(trimmed)
		var se *strictjson.Error
		switch {
		case errors.As(err, &se):
			return nil, &validation.Error{Field: cmp.Or(se.Path, "arguments"), Message: se.Message}
		case err != nil:
			return nil, &validation.Error{Field: "arguments", Message: "must be a JSON object"}
		}
		args = fields
	}
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if _, ok := schema.Properties[name]; !ok {
			return nil, &validation.Error{Field: name, Message: knownArgs(schema)}
		}
	}
	space, err := take(args, "space")
	if err != nil {
		return nil, err
	}
	if err := eventloom.ValidateSpaceID(space); err != nil {
		return nil, err
	}
	path := "/v1/spaces/" + space + t.route
	for param, arg := range t.pathArgs {
		v, err := takePath(args, arg)
		if err != nil {
			return nil, err
		}
		if v == "" {
			return nil, &validation.Error{Field: arg, Message: "is required"}
		}
		path = strings.Replace(path, "{"+param+"}", url.PathEscape(v), 1)
	}
	key, err := take(args, "idempotency_key")
	if err != nil {
		return nil, err
	}
	var body io.Reader = http.NoBody
	query := ""
	switch {
	case t.eventType != "":
		b, err := eventBody(t, args)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	case t.method == http.MethodGet:
		if query, err = queryString(args); err != nil {
			return nil, err
		}
	default:
		b, err := json.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("encode arguments: %w", err)
		}
		body = bytes.NewReader(b)
	}
	target := internalOrigin + path
	if query != "" {
		target += "?" + query
	}
	r, err := http.NewRequestWithContext(ctx, t.method, target, body)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	if t.method == http.MethodPost {
		r.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		r.Header.Set("Idempotency-Key", key)
	}
	r.Header.Set("User-Agent", "zaxy-mcp/"+t.name)
	return r, nil
}

// take removes the string argument name from args and returns it ("" when absent or null).
func take(args map[string]json.RawMessage, name string) (string, error) {
	raw, ok := args[name]
	delete(args, name)
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", &validation.Error{Field: name, Message: "must be a string"}
	}
	return s, nil
}

// takePath is take for an argument that fills a path parameter: it may also be an integer (a
// proposal's seq), which travels as its decimal.
func takePath(args map[string]json.RawMessage, name string) (string, error) {
	var n int64
	if raw, ok := args[name]; ok && json.Unmarshal(raw, &n) == nil {
		delete(args, name)
		return strconv.FormatInt(n, 10), nil
	}
	return take(args, name)
}

// eventBody is the one event a call of an event tool appends: its type, the envelope
// arguments, and the rest as its data, values as given.
func eventBody(t *tool, args map[string]json.RawMessage) ([]byte, error) {
	ev := map[string]json.RawMessage{}
	data := map[string]json.RawMessage{}
	fields := jsonNames(t.dataType)
	for name, v := range args {
		if slices.Contains(fields, name) {
			data[name] = v
		} else {
			ev[name] = v
		}
	}
	var err error
	if ev["type"], err = json.Marshal(t.eventType); err != nil {
		return nil, err
	}
	if ev["data"], err = json.Marshal(data); err != nil {
		return nil, fmt.Errorf("encode arguments: %w", err)
	}
	return json.Marshal(ev)
}

// queryString encodes arguments as a query string: strings as they are, numbers as written,
// booleans as true or false.
func queryString(args map[string]json.RawMessage) (string, error) {
	q := url.Values{}
	for name, raw := range args {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return "", &validation.Error{Field: name, Message: "is not valid JSON"}
		}
		switch v := v.(type) {
		case nil:
		case string:
			q.Set(name, v)
		case json.Number:
			q.Set(name, v.String())
		case bool:
			q.Set(name, strconv.FormatBool(v))
		default:
			return "", &validation.Error{Field: name, Message: "must be a string, a number or a boolean"}
		}
	}
	return q.Encode(), nil
}

// recorder is the http.ResponseWriter a tool call's request is served into.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}

// jsonNames lists the JSON names of a struct type's fields.
func jsonNames(t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}
