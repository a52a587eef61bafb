package api

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api/internal/openapigen"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/replica"
)

// updateOpenAPI makes TestOpenAPI_IsGenerated write api/openapi.json instead of comparing it
// (go generate ./api runs it so).
var updateOpenAPI = flag.Bool("update-openapi", false, "write api/openapi.json from the routes and types")

// operation is what api/openapi.json says of one route beyond what the route table knows.
type operation struct {
	id, summary, description string
	// params are parameters written by hand (path parameters other than space, query
	// parameters with their constraints), a JSON array of OpenAPI parameter objects.
	params string
	// query is a struct whose fields are the route's query parameters (decodeQuery).
	query any
	// body is the request body's Go type (a zero value, or oneOf's); nil: the route takes none.
	body         any
	bodyOptional bool
	// idempotent: the route honours the Idempotency-Key header; replayed: a repeat answers 200
	// with the first answer.
	idempotent, replayed bool
	// open: no token is asked for.
	open bool
	// status is the success status; success describes it.
	status  int
	success string
	// result is the success body's Go type; nil: not a JSON object of ours.
	result any
	// errors are the 4XX statuses beyond those every route of its kind can answer: 404 for a
	// route that reads or acts on one thing by id, 409 for a write that can conflict, 422 for
	// work that can be refused (a Cypher timeout, nothing to fit).
	errors []int
}

// oneOfTypes is a body that is one of several types.
type oneOfTypes []any

func oneOf(vs ...any) oneOfTypes { return vs }

// routeFacts is what the server's tables say of a route: whether it needs a token, takes the
// Zaxy-Consistency header and answers Zaxy-Read-From (a routed read), writes (answers
// Zaxy-Consistency), and is held to the response cap.
type routeFacts struct {
	method, path                 string
	token, routed, write, capped bool
}

// allRoutes are the API's routes as the server declares them: spaceRoutes and the routes
// outside a space (NewHandler).
func allRoutes() []routeFacts {
	out := []routeFacts{
		{method: http.MethodGet, path: "/healthz"},
		{method: http.MethodGet, path: "/readyz"},
		{method: http.MethodGet, path: "/v1/openapi.json"},
		{method: http.MethodGet, path: "/v1/spaces", token: true, capped: true},
		{method: http.MethodGet, path: "/metrics", token: true},
	}
	for i := range spaceRoutes {
		rt := &spaceRoutes[i]
		out = append(out, routeFacts{method: rt.method, path: spacePrefix + rt.pattern, token: true,
			routed: rt.onReplica(), write: rt.scope != auth.ScopeRead, capped: rt.capped()})
	}
	return out
}

// openAPIServers, openAPILicense and openAPIStatic are the parts of the document no Go type
// describes.
const openAPIStatic = `{
  "info": {
    "title": "Zaxy",
    "version": "1",
    "description": "Postgres-native long-term memory for AI agents: an append-only, hash-chained event log per space (the Eventloom), projections rebuilt from it, and cited, token-budgeted checkouts. Every failure has the body {\"error\":{\"code\",\"message\",\"details\"}} (ErrorBody); docs/api.md lists the codes. A read of a space with no events answers as for an empty space, never space_not_found (docs/api.md, Spaces).",
    "license": {"name": "Proprietary", "url": "https://github.com/zaxy/zaxy"}
  },
  "servers": [
    {"url": "http://127.0.0.1:8080", "description": "zaxy serve on its default address (ZAXY_ADDR); point a client at yours with ZAXY_URL."}
  ],
  "parameters": {
    "ZaxyConsistency": {
      "name": "Zaxy-Consistency", "in": "header", "required": false,
      "description": "Read-your-writes (docs/scaling.md): the latest consistency token a write answered (its Zaxy-Consistency header or its body's consistency field), sent back unchanged. The read runs on a standby that has replayed it, or, after waiting at most ZAXY_REPLICA_WAIT, on the primary; it never misses that write. Without it a read may run on a standby up to ZAXY_REPLICA_MAX_LAG behind. Accepted on every route; a malformed token is refused with 400 invalid_request, details.field Zaxy-Consistency.",
      "schema": {"$ref": "#/components/schemas/ConsistencyToken"}
    },
    "IdempotencyKey": {
      "name": "Idempotency-Key", "in": "header", "required": false,
      "description": "Makes a retry append nothing twice: the same key with the same body answers 200 with the first append's receipts instead of appending again; the same key with another body is 409 idempotency_conflict. 1-255 printable ASCII characters.",
      "schema": {"type": "string", "minLength": 1, "maxLength": 255}
    },
    "Space": {
      "name": "space", "in": "path", "required": true,
      "description": "The memory space: 1-64 characters of [a-z0-9._-] starting with a letter or digit. A space exists from its first append; reads of a space with no events answer empty.",
      "schema": {"type": "string", "pattern": "^[a-z0-9][a-z0-9._-]{0,63}$"}
    }
  },
  "headers": {
    "ZaxyConsistency": {
      "description": "Only with standbys configured (ZAXY_REPLICA_URLS): the consistency token of this write, the primary's WAL position after it committed. Send the latest one received back in the Zaxy-Consistency request header. A JSON object answer repeats it as its consistency field.",
      "schema": {"$ref": "#/components/schemas/ConsistencyToken"}
    },
    "ZaxyReadFrom": {
      "description": "Where the read ran: primary, or replica (a standby). Answered on errors too; always primary without standbys configured.",
      "schema": {"type": "string", "enum": ["primary", "replica"]}
    },
    "RetryAfter": {
      "description": "Seconds to wait before retrying.",
      "schema": {"type": "integer"}
    }
  },
  "schemas": {
    "ConsistencyToken": {
      "type": "string",
      "pattern": "^lsn:([a-z][a-z0-9_-]{0,31}:)?[0-9A-Fa-f]{1,8}/[0-9A-Fa-f]{1,8}$",
      "description": "A consistency token (opaque to clients; not lsn:0/0). Every write answers one, with standbys configured, in its Zaxy-Consistency header and, when its answer is a JSON object, as that object's consistency field; a read sends it back in the Zaxy-Consistency header."
    }
  },
  "securitySchemes": {
    "bearer": {
      "type": "http", "scheme": "bearer",
      "description": "A token from ` + "`zaxy token create`" + ` (zx_<id>_<secret>). It reaches only its spaces with its scope (read < write < admin): 401 without a valid token, 403 for a space or scope it does not have. Not checked when the server runs with ZAXY_AUTH=off (loopback only)."
    }
  }
}`

// errorResponses are the error answers the document refers to, by component name: status,
// description, and whether Retry-After comes with it.
var errorResponses = map[string]struct {
	status      int
	description string
	retryAfter  bool
}{
	"BadRequest":           {400, "400 invalid_request: a parameter, header or body field is wrong; details.field names it (e.g. events[2].data.subject). Also body_incomplete for a body shorter than its Content-Length (a body that stalls is 408 body_timeout).", false},
	"Unauthorized":         {401, "401 unauthorized: no valid bearer token (Authorization: Bearer zx_...; zaxy token create).", false},
	"Forbidden":            {403, "403 forbidden: the token does not reach this space, or lacks the scope the route needs (read < write < admin; /metrics needs a token for every space). Every route also answers 403 host_not_allowed to a Host header that is not the server's (no DNS rebinding) and cross_site_request to a browser request from another site (docs/api.md, Request boundary).", false},
	"NotFound":             {404, "404: the thing the path or body names does not exist: entity_not_found, item_not_found, proposal_not_found, policy_not_found, artifact_not_found, event_not_found; space_not_found only where earlier events are needed (a policy change, a Cypher query before the space's first projection). Reads of a space with no events answer empty instead (docs/api.md, Spaces with no events). details.field names the parameter.", false},
	"Conflict":             {409, "409: the write conflicts with the log: idempotency_conflict (the Idempotency-Key was used with another body), chain_broken, not_erasable, proposal_not_pending, policy_gate_failed, policy_changed or nothing_to_roll_back.", false},
	"BodyTooLarge":         {413, "413 body_too_large: the body passed ZAXY_MAX_BODY_BYTES (details.limit_bytes), or batch_too_large: more events than ZAXY_MAX_BATCH (details.max).", false},
	"ResponseTooLarge":     {413, "413 response_too_large: the answer would pass the response byte cap (ZAXY_MAX_RESPONSE_BYTES, 4 MiB by default) and no cursor fits. List reads (facts, entities, items, artifacts, proposals) stop reading rows at the cap. details.limit_bytes is the cap; details.field, when present, names the parameter that makes the answer smaller (limit). A route that takes a body also answers 413 body_too_large for a body past ZAXY_MAX_BODY_BYTES.", false},
	"TooManyRequests":      {429, "429 too_many_requests: the caller (its token; with auth off, the space) already has its budget of requests in flight (details.budget: requests, or analytics for Cypher, facts, entities, index, timeline, items and verify; details.limit). Never queued; retry after Retry-After seconds.", true},
	"PoolBusy":             {503, "503 pool_busy: the request's deadline passed while it waited for its caller's fair share of a connection pool (each caller holds at most half of a pool's connections; details.pool is hot-path or analytics, details.share the connections one caller may hold); request_timeout: it did not finish before its deadline; database_unavailable: the database refused or dropped the connection. Cypher and the feeling of knowing also answer 503 erasure_pending while an erasure's purge is pending in the space. Retry after Retry-After seconds.", true},
	"NotReady":             {503, "503 database_unreachable or schema_out_of_date: the server cannot serve yet.", false},
	"Unprocessable":        {422, "422: the request is well formed but cannot be done: query_timeout (a Cypher query ran past its statement timeout), nothing_to_learn (no recorded feedback to fit a policy on).", false},
	"UnsupportedMediaType": {415, "415 unsupported_media_type: the body is not sent as application/json.", false},
	"Error":                {0, "An error (docs/api.md lists the codes).", false},
}

// buildOpenAPI generates the document from allRoutes, operations and the Go types.
func buildOpenAPI(t *testing.T) []byte {
	t.Helper()
	t.Chdir("..") // the module root, where the comment reader finds the packages
	dirs := []string{"api", "client", "memoryitem", "vocab"}
	wires, err := filepath.Glob("*/*wire")
	require.NoError(t, err)
	deeper, err := filepath.Glob("*/*/*wire")
	require.NoError(t, err)
	dirs = append(append(dirs, wires...), deeper...)
	gen, err := openapigen.New("github.com/zaxy/zaxy", dirs)
	require.NoError(t, err)

	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(openAPIStatic), &doc))
	components := map[string]any{}
	for _, k := range []string{"parameters", "headers", "schemas", "securitySchemes"} {
		components[k] = doc[k]
		delete(doc, k)
	}
	errSchema, err := gen.Ref(ErrorBody{})
	require.NoError(t, err)
	responses := map[string]any{}
	for name, er := range errorResponses {
		r := map[string]any{"description": er.description,
			"content": map[string]any{"application/json": map[string]any{"schema": errSchema}}}
		if er.retryAfter {
			r["headers"] = map[string]any{"Retry-After": ref("headers", "RetryAfter")}
		}
		responses[name] = r
	}
	components["responses"] = responses

	paths := map[string]map[string]any{}
	seen := map[string]bool{}
	for _, rt := range allRoutes() {
		key := rt.method + " " + rt.path
		op, ok := operations[key]
		require.True(t, ok, "%s has no entry in operations (api/openapi_operations_test.go)", key)
		seen[key] = true
		item := paths[rt.path]
		if item == nil {
			item = map[string]any{}
			paths[rt.path] = item
		}
		o, pathParams, err := describe(gen, rt, &op)
		require.NoError(t, err, key)
		if len(pathParams) > 0 {
			item["parameters"] = pathParams
		}
		item[strings.ToLower(rt.method)] = o
	}
	for key := range operations {
		require.True(t, seen[key], "operations describes %s, which is no route", key)
	}
	closeSets(gen)
	schemas := components["schemas"].(map[string]any)
	for name, s := range gen.Components() {
		require.NotContains(t, schemas, name)
		schemas[name] = s
	}
	doc["openapi"] = "3.1.0"
	doc["security"] = []any{map[string]any{"bearer": []string{}}}
	doc["paths"] = paths
	doc["components"] = components

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(doc))
	out := buf.Bytes()
	for esc, c := range map[string]string{`\u003c`: "<", `\u003e`: ">", `\u0026`: "&"} {
		out = bytes.ReplaceAll(out, []byte(esc), []byte(c))
	}
	return out
}

// closedSets are the request fields whose values come from a closed set, with the Go values
// the server checks them against; closeSets makes them enums in every request body's schema.
var closedSets = map[string][]string{
	"purpose":           checkout.Purposes,
	"retrieval_profile": checkout.Profiles,
	"reasoning_phase":   checkout.Phases,
}

// closeSets sets the enums of closedSets (and of disable_lanes' items, checkout.Lanes) on the
// schemas of the request bodies, once every body is registered.
func closeSets(gen *openapigen.Schemas) {
	for _, op := range operations {
		bodies, ok := op.body.(oneOfTypes)
		if !ok {
			bodies = oneOfTypes{op.body}
		}
		for _, b := range bodies {
			if b == nil {
				continue
			}
			s := gen.Components()[gen.Name(b)]
			if s == nil || s.Properties == nil {
				continue
			}
			for name, vals := range closedSets {
				if p, ok := s.Properties.Get(name); ok && p.Type == "string" {
					p.Enum = enum(vals)
				}
			}
			if p, ok := s.Properties.Get("disable_lanes"); ok && p.Items != nil {
				p.Items.Enum = enum(checkout.Lanes)
			}
		}
	}
}

func enum(vals []string) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out
}

func ref(kind, name string) map[string]any {
	return map[string]any{"$ref": "#/components/" + kind + "/" + name}
}

// describe builds one operation object, and the path-level parameters of its path.
func describe(gen *openapigen.Schemas, rt routeFacts, op *operation) (map[string]any, []any, error) {
	o := map[string]any{"operationId": op.id, "summary": op.summary, "description": op.description}
	var params, pathParams []any
	if strings.HasPrefix(rt.path, spacePrefix) {
		pathParams = append(pathParams, ref("parameters", "Space"))
	}
	if op.params != "" {
		var hand []map[string]any
		if err := json.Unmarshal([]byte(op.params), &hand); err != nil {
			return nil, nil, fmt.Errorf("params: %w", err)
		}
		for _, p := range hand {
			if p["in"] == "path" {
				pathParams = append(pathParams, p)
			} else {
				params = append(params, p)
			}
		}
	}
	if rt.routed {
		params = append([]any{ref("parameters", "ZaxyConsistency")}, params...)
	}
	if op.idempotent {
		params = append(params, ref("parameters", "IdempotencyKey"))
	}
	if op.query != nil {
		qs, err := gen.QueryParameters(op.query)
		if err != nil {
			return nil, nil, err
		}
		for _, q := range qs {
			params = append(params, q)
		}
	}
	if len(params) > 0 {
		o["parameters"] = params
	}
	if op.body != nil {
		var schema any
		var err error
		if vs, ok := op.body.(oneOfTypes); ok {
			schema, err = gen.OneOf(vs...)
		} else {
			schema, err = gen.Ref(op.body)
		}
		if err != nil {
			return nil, nil, err
		}
		o["requestBody"] = map[string]any{"required": !op.bodyOptional,
			"content": map[string]any{"application/json": map[string]any{"schema": schema}}}
	}
	if op.open {
		o["security"] = []any{}
	}

	success := map[string]any{"description": op.success}
	if op.result != nil {
		schema, err := gen.Ref(op.result)
		if err != nil {
			return nil, nil, err
		}
		success["content"] = map[string]any{"application/json": map[string]any{"schema": schema}}
	} else {
		success["content"] = map[string]any{mediaOf(rt.path): map[string]any{"schema": map[string]any{}}}
	}
	headers := map[string]any{}
	if rt.routed {
		headers[replica.ReadFromHeader] = ref("headers", "ZaxyReadFrom")
	}
	if rt.write {
		headers[replica.Header] = ref("headers", "ZaxyConsistency")
	}
	if len(headers) > 0 {
		success["headers"] = headers
	}
	responses := map[string]any{fmt.Sprint(op.status): success}
	if op.replayed {
		replayed := map[string]any{"description": "A retry with the same Idempotency-Key, answered from the first append.",
			"content": success["content"], "headers": success["headers"]}
		responses["200"] = replayed
	}
	for code, name := range errorsOf(rt, op) {
		responses[fmt.Sprint(code)] = ref("responses", name)
	}
	responses["default"] = ref("responses", "Error")
	o["responses"] = responses
	return o, pathParams, nil
}

// mediaOf is the media type of a route answered by no type of ours.
func mediaOf(path string) string {
	if path == "/metrics" {
		return "text/plain"
	}
	return "application/json"
}

// errorsOf are the 4XX and 503 answers a route can give, each a component response's name:
// every route 403 (the request boundary), a token route 401, a route with a body 415; a route
// under a space 400 (the space, its parameters), 429 and 503; a capped read 413 for its answer
// (or its body), another route with a body 413 for the body; op.errors add 404, 409 and 422.
func errorsOf(rt routeFacts, op *operation) map[int]string {
	out := map[int]string{403: "Forbidden"} // host_not_allowed, cross_site_request
	if rt.token {
		out[401] = "Unauthorized"
	}
	if op.body != nil {
		out[415] = "UnsupportedMediaType"
	}
	if strings.HasPrefix(rt.path, spacePrefix) {
		out[400], out[429], out[503] = "BadRequest", "TooManyRequests", "PoolBusy"
	}
	switch {
	case rt.capped:
		out[413] = "ResponseTooLarge"
	case op.body != nil:
		out[413] = "BodyTooLarge"
	}
	if rt.path == "/readyz" {
		out[503] = "NotReady"
	}
	for _, code := range op.errors {
		out[code] = map[int]string{404: "NotFound", 409: "Conflict", 422: "Unprocessable"}[code]
	}
	return out
}

// TestOpenAPI_IsGenerated fails when api/openapi.json is not what the generator makes of the
// route table (spaceRoutes and the routes outside a space), operations and the Go types of the
// bodies and answers: a route, a field or a doc comment changed without regenerating it. Run
// go generate ./api (go test ./api -run TestOpenAPI_IsGenerated -update-openapi) to write it.
func TestOpenAPI_IsGenerated(t *testing.T) {
	got := buildOpenAPI(t)
	if *updateOpenAPI {
		require.NoError(t, os.WriteFile("api/openapi.json", got, 0o644))
		return
	}
	require.Equal(t, string(openAPI), string(got), "api/openapi.json is stale: run go generate ./api")
}

// TestOpenAPI_EveryAnswerHasASchema fails when a request body or a success answer of the
// document has no schema, or a body's schema is a bare object.
func TestOpenAPI_EveryAnswerHasASchema(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(openAPI, &doc))
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			if method == "parameters" {
				continue
			}
			var op struct {
				RequestBody *struct {
					Content map[string]struct {
						Schema map[string]any `json:"schema"`
					} `json:"content"`
				} `json:"requestBody"`
				Responses map[string]struct {
					Ref     string `json:"$ref"`
					Content map[string]struct {
						Schema map[string]any `json:"schema"`
					} `json:"content"`
				} `json:"responses"`
			}
			require.NoError(t, json.Unmarshal(raw, &op))
			if op.RequestBody != nil {
				s := op.RequestBody.Content["application/json"].Schema
				require.True(t, s["$ref"] != nil || s["oneOf"] != nil, "%s %s: the body's schema is %v", method, path, s)
			}
			for code, r := range op.Responses {
				if r.Ref != "" {
					continue
				}
				require.NotEmpty(t, r.Content, "%s %s %s has no content", method, path, code)
				if path == "/metrics" || path == "/v1/openapi.json" {
					continue
				}
				require.NotNil(t, r.Content["application/json"].Schema["$ref"], "%s %s %s: no schema", method, path, code)
			}
		}
	}
}
