package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// Every response says nosniff, whatever its route and status: answers, errors the handlers
// write, and the errors the middleware writes before any handler runs (401, 403, 404, 405,
// 400 for a bad space id).
func TestHTTP_EveryResponseSaysNoSniff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	tokens := auth.NewStore(pool)
	store := eventloom.NewStore(pool, nil, nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Auth: tokens}, nil))
	t.Cleanup(srv.Close)
	_, read, err := tokens.Create(ctx, []string{"a"}, auth.ScopeRead, "reader")
	require.NoError(t, err)
	_, write, err := tokens.Create(ctx, []string{"a"}, auth.ScopeWrite, "writer")
	require.NoError(t, err)

	for _, c := range []struct {
		method, path, token, body string
		status                    int
	}{
		{"GET", "/healthz", "", "", 200},
		{"GET", "/readyz", "", "", 200},
		{"POST", "/v1/spaces/a/events", write, `{"type":"note","content":"hi"}`, 201},
		{"GET", "/v1/spaces/a/events", read, "", 200},
		{"POST", "/v1/spaces/a/checkout", read, `{"query":"hi"}`, 200},
		{"GET", "/v1/openapi.json", read, "", 200},
		{"POST", "/v1/spaces/a/events", "", `{"type":"note","content":"hi"}`, 401},
		{"POST", "/v1/spaces/a/events", read, `{"type":"note","content":"hi"}`, 403},
		{"GET", "/v1/spaces/b/events", read, "", 403},
		{"POST", "/v1/spaces/a/events", write, `{"type":""}`, 400},
		{"POST", "/v1/spaces/a/checkout", read, `{"query":"hi"`, 400},
		{"GET", "/v1/spaces/a/nothing-here", read, "", 404},
		{"GET", "/nothing-here", "", "", 404},
		{"DELETE", "/v1/spaces/a/events", write, "", 405},
		{"GET", "/metrics", read, "", 403},
	} {
		req, err := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
		require.NoError(t, err)
		if c.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, c.status, resp.StatusCode, "%s %s", c.method, c.path)
		require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"), "%s %s (%d)", c.method, c.path, c.status)
	}
}
