package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/replica"
)

// TestOpenAPI_DescribesEveryRouteAndNoOther fails when a route exists without a described
// operation in api/openapi.json, or the document describes a route that does not exist.
func TestOpenAPI_DescribesEveryRouteAndNoOther(t *testing.T) {
	h := routeHandler(t, nil)
	var routes []string
	require.NoError(t, chi.Walk(h.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		routes = append(routes, strings.ToLower(method)+" "+strings.TrimSuffix(route, "/"))
		return nil
	}))
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(openAPI, &doc))
	require.Equal(t, "3.1.0", doc.OpenAPI)
	var described []string
	operationIDs := map[string]string{}
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			if method == "parameters" {
				continue
			}
			var op struct {
				Summary, Description string
				OperationID          string `json:"operationId"`
			}
			require.NoError(t, json.Unmarshal(raw, &op))
			require.NotEmpty(t, op.Description, "%s %s has no description", method, path)
			require.NotEmpty(t, op.Summary, "%s %s has no summary", method, path)
			// The Go client (package client) has one method per operationId.
			require.NotEmpty(t, op.OperationID, "%s %s has no operationId", method, path)
			require.Empty(t, operationIDs[op.OperationID], "%s %s repeats the operationId of %s", method, path, operationIDs[op.OperationID])
			operationIDs[op.OperationID] = method + " " + path
			described = append(described, method+" "+path)
		}
	}
	sort.Strings(routes)
	sort.Strings(described)
	require.Equal(t, routes, described)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/openapi.json", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "application/json", rec.Header().Get("Content-Type"))
	require.JSONEq(t, string(openAPI), rec.Body.String())
}

// TestOpenAPI_SecurityMatchesTheServer fails when the document says an operation is open
// (security: []) and the server asks for a token, or the reverse.
func TestOpenAPI_SecurityMatchesTheServer(t *testing.T) {
	// Without a bearer token the store answers 401 before it would touch the database.
	h := routeHandler(t, auth.NewStore(nil))
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(openAPI, &doc))
	placeholder := regexp.MustCompile(`\{[^}]+\}`)
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			if method == "parameters" {
				continue
			}
			var op struct {
				Security *[]map[string][]string `json:"security"`
			}
			require.NoError(t, json.Unmarshal(raw, &op))
			open := op.Security != nil && len(*op.Security) == 0
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(strings.ToUpper(method), placeholder.ReplaceAllString(path, "x"), strings.NewReader("{}"))
			func() {
				defer func() { _ = recover() }() // an open route may need the database this test has not got
				h.ServeHTTP(rec, req)
			}()
			if open {
				require.NotEqual(t, http.StatusUnauthorized, rec.Code, "%s %s is documented as open", method, path)
			} else {
				require.Equal(t, http.StatusUnauthorized, rec.Code, "%s %s is documented as needing a token", method, path)
			}
		}
	}
}

// TestOpenAPI_DescribesTheConsistencyHeaders fails when the document and the routes disagree on
// read-your-writes: every route that may run on a standby takes the Zaxy-Consistency request
// header and answers Zaxy-Read-From, every write answers Zaxy-Consistency on success, and no
// other route claims either.
func TestOpenAPI_DescribesTheConsistencyHeaders(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(openAPI, &doc))
	for i := range spaceRoutes {
		rt := &spaceRoutes[i]
		raw, ok := doc.Paths[spacePrefix+rt.pattern][strings.ToLower(rt.method)]
		require.True(t, ok, "%s %s is not described", rt.method, rt.pattern)
		var op struct {
			Parameters []struct {
				Ref string `json:"$ref"`
			} `json:"parameters"`
			Responses map[string]struct {
				Headers map[string]json.RawMessage `json:"headers"`
			} `json:"responses"`
		}
		require.NoError(t, json.Unmarshal(raw, &op))
		takesToken := false
		for _, p := range op.Parameters {
			takesToken = takesToken || p.Ref == "#/components/parameters/ZaxyConsistency"
		}
		write := rt.scope != auth.ScopeRead
		require.Equal(t, rt.onReplica(), takesToken, "%s %s: the Zaxy-Consistency request header", rt.method, rt.pattern)
		successes := 0
		for code, resp := range op.Responses {
			if code[0] != '2' {
				continue
			}
			successes++
			_, readFrom := resp.Headers[replica.ReadFromHeader]
			_, token := resp.Headers[replica.Header]
			require.Equal(t, rt.onReplica(), readFrom, "%s %s %s: the Zaxy-Read-From header", rt.method, rt.pattern, code)
			require.Equal(t, write, token, "%s %s %s: the Zaxy-Consistency header", rt.method, rt.pattern, code)
		}
		require.NotZero(t, successes, "%s %s describes no success", rt.method, rt.pattern)
	}
}
