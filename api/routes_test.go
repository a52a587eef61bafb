package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// routeParam is a {param} of a route pattern.
var routeParam = regexp.MustCompile(`\{[^}]+\}`)

// postReads are the operations that are POSTs only because their request is a JSON body, and
// read: a read token may call them (checkout also records what it surfaced, as every read of
// memory does). A route is added here deliberately, in review, never by default.
var postReads = map[string]bool{
	"POST /v1/spaces/{space}/checkout":         true,
	"POST /v1/spaces/{space}/query":            true,
	"POST /v1/spaces/{space}/context/assemble": true,
	"POST /v1/spaces/{space}/handoff":          true,
	"POST /v1/spaces/{space}/cypher":           true,
	// feeling-of-knowing reads the space's term and entity sketches and records nothing; its
	// query travels in a body as checkout's does (it can be 4000 characters).
	"POST /v1/spaces/{space}/feeling-of-knowing": true,
	// The reading memory actions walk latent artifacts and the log and append only the record
	// of what they surfaced (memory_action.surfaced), as checkout does; their plan, goal or
	// session travels in a body.
	"POST /v1/spaces/{space}/actions/simulate-forward":          true,
	"POST /v1/spaces/{space}/actions/reflect-backward":          true,
	"POST /v1/spaces/{space}/actions/retrieve-procedure-prior":  true,
	"POST /v1/spaces/{space}/actions/retrieve-failure-prior":    true,
	"POST /v1/spaces/{space}/actions/query-causal-neighborhood": true,
	// weave (the weave_memory action) and prospective read precomputed artifacts and the
	// lanes, as checkout does, and record only what they surfaced (a checkout.surfaced event
	// carrying the weave); their goal travels in a body as checkout's query does.
	"POST /v1/spaces/{space}/weave":       true,
	"POST /v1/spaces/{space}/prospective": true,
}

// TestRouter_EveryRouteThatIsNotAGetNeedsWriteOrAdmin walks the whole router: each route that
// is not a GET (or one of postReads) must declare write or admin scope, and a token of a lower
// scope for the very space must get 403 from it, so that a route added without a scope (or
// with read) fails here.
func TestRouter_EveryRouteThatIsNotAGetNeedsWriteOrAdmin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	tokens := auth.NewStore(pool)
	h := apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: eventloom.NewStore(pool, nil, nil), Auth: tokens}, nil)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	token := map[string]string{}
	for _, scope := range []string{auth.ScopeRead, auth.ScopeWrite, auth.ScopeAdmin} {
		_, plain, err := tokens.Create(ctx, []string{"a"}, scope, "")
		require.NoError(t, err)
		token[scope] = plain
	}
	do := func(method, path, bearer string) (int, string) {
		req, err := http.NewRequestWithContext(ctx, method, srv.URL+path, strings.NewReader("{}"))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		var body api.ErrorBody
		_ = json.Unmarshal(b, &body)
		return resp.StatusCode, body.Error.Code
	}

	routes, ok := h.(chi.Routes)
	require.True(t, ok, "NewHandler returns the chi router")
	walked, reviewRoutes := 0, 0
	err := chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		declared := api.ScopeFor(method, route)
		if (method == http.MethodGet || method == http.MethodHead) && declared != auth.ScopeWrite && declared != auth.ScopeAdmin {
			return nil // a GET declared above read is checked like the rest
		}
		if strings.Contains(route, "/proposals") {
			reviewRoutes++
		}
		walked++
		path := routeParam.ReplaceAllStringFunc(route, func(p string) string {
			if p == "{space}" {
				return "a"
			}
			return "x"
		})
		scope := api.ScopeFor(method, route)
		if postReads[method+" "+route] {
			require.Equal(t, auth.ScopeRead, scope, "%s %s", method, route)
			status, code := do(method, path, token[auth.ScopeRead])
			require.NotContains(t, []int{http.StatusUnauthorized, http.StatusForbidden}, status, "%s %s with a read token: %s", method, route, code)
			return nil
		}
		require.Contains(t, []string{auth.ScopeWrite, auth.ScopeAdmin}, scope, "%s %s must declare write or admin scope", method, route)
		below := auth.ScopeRead
		if scope == auth.ScopeAdmin {
			below = auth.ScopeWrite
		}
		for _, weaker := range []string{auth.ScopeRead, below} {
			status, code := do(method, path, token[weaker])
			require.Equal(t, http.StatusForbidden, status, "%s %s with a %s token", method, route, weaker)
			require.Equal(t, "forbidden", code, "%s %s", method, route)
		}
		status, code := do(method, path, token[scope])
		require.NotContains(t, []int{http.StatusUnauthorized, http.StatusForbidden}, status, "%s %s with a %s token: %s", method, route, scope, code)
		return nil
	})
	require.NoError(t, err)
	require.GreaterOrEqual(t, walked, 10, "the walk reached the routes under /v1/spaces/{space}")
	require.Equal(t, 3, reviewRoutes, "every review decision (accept, reject, defer) needs write or admin; the queue is read")

	// Paths under /v1/spaces/{space} that are no operation still need a token first.
	for _, tc := range []struct {
		method, path string
		status       int
		code         string
	}{
		{"GET", "/v1/spaces/a/nope", 404, "route_not_found"},
		{"DELETE", "/v1/spaces/a/events", 405, "method_not_allowed"},
	} {
		status, code := do(tc.method, tc.path, "")
		require.Equal(t, http.StatusUnauthorized, status, "%s %s without a token", tc.method, tc.path)
		require.Equal(t, "unauthorized", code)
		status, code = do(tc.method, tc.path, token[auth.ScopeRead])
		require.Equal(t, tc.status, status, "%s %s", tc.method, tc.path)
		require.Equal(t, tc.code, code)
	}
}

func TestScopeFor_ReadsTheDeclaredScope(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ method, path, want string }{
		{"POST", "/v1/spaces/{space}/events", auth.ScopeWrite},
		{"POST", "/v1/spaces/a/events", auth.ScopeWrite},
		{"GET", "/v1/spaces/a/events", auth.ScopeRead},
		{"POST", "/v1/spaces/a/erasures", auth.ScopeAdmin},
		{"POST", "/v1/spaces/a/checkout", auth.ScopeRead},
		{"POST", "/v1/spaces/{space}/subagents/{id}/cleanup", auth.ScopeWrite},
		{"POST", "/v1/spaces/a/sessions/s%2F1/resume", auth.ScopeWrite},
		{"GET", "/v1/spaces/a/items/ev:1", auth.ScopeRead},
		{"GET", "/v1/spaces/a/proposals", auth.ScopeRead},
		{"GET", "/v1/spaces/a/proposals/3", auth.ScopeRead},
		{"POST", "/v1/spaces/a/proposals/3/accept", auth.ScopeWrite},
		{"POST", "/v1/spaces/a/nope/events", ""},
		{"DELETE", "/v1/spaces/a/events", ""},
		{"GET", "/metrics", ""},
	} {
		require.Equal(t, tc.want, api.ScopeFor(tc.method, tc.path), "%s %s", tc.method, tc.path)
	}
}
