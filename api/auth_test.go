package api_test

import (
	"context"
	"io"
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
	"github.com/zaxy/zaxy/testcontainers/fixture"
	"github.com/zaxy/zaxy/validation"
)

func TestHTTP_AuthTokensReachOnlyTheirSpacesAndScopes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	tokens := auth.NewStore(pool)
	store := eventloom.NewStore(pool, nil, nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Auth: tokens}, nil))
	t.Cleanup(srv.Close)

	_, readA, err := tokens.Create(ctx, []string{"a"}, auth.ScopeRead, "reader")
	require.NoError(t, err)
	_, writeA, err := tokens.Create(ctx, []string{"a"}, auth.ScopeWrite, "")
	require.NoError(t, err)
	admin, adminAll, err := tokens.Create(ctx, []string{auth.AllSpaces}, auth.ScopeAdmin, "ops")
	require.NoError(t, err)
	fixture.Append(t, store, "secret", eventloom.NewEvent{Type: "note", Content: "x"})

	do := func(method, path, token, body string) (int, string, http.Header) {
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(b), resp.Header
	}
	note := `{"type":"note","content":"hi"}`

	status, body, hdr := do("POST", "/v1/spaces/a/events", "", note)
	require.Equal(t, 401, status, body)
	require.Contains(t, body, `"unauthorized"`)
	require.Contains(t, hdr.Get("WWW-Authenticate"), "Bearer")
	status, _, _ = do("POST", "/v1/spaces/a/events", "zx_000000000000_forged", note)
	require.Equal(t, 401, status)

	status, body, _ = do("POST", "/v1/spaces/a/events", readA, note)
	require.Equal(t, 403, status, "a read token cannot append: %s", body)
	status, _, _ = do("POST", "/v1/spaces/a/events", writeA, note)
	require.Equal(t, 201, status)
	status, _, _ = do("GET", "/v1/spaces/a/events", readA, "")
	require.Equal(t, 200, status)
	status, _, _ = do("POST", "/v1/spaces/a/checkout", readA, `{"query":"hi"}`)
	require.Equal(t, 200, status, "checkout reads")

	// Other spaces: the same answer whether they exist or not.
	s1, existing, _ := do("GET", "/v1/spaces/secret/events", writeA, "")
	s2, missing, _ := do("GET", "/v1/spaces/nothing-here/events", writeA, "")
	require.Equal(t, 403, s1)
	require.Equal(t, 403, s2)
	require.Equal(t, existing, missing)
	require.NotContains(t, existing, "secret")

	status, _, _ = do("GET", "/v1/spaces/secret/events", adminAll, "")
	require.Equal(t, 200, status, "an all-spaces token reaches every space")
	status, _, _ = do("GET", "/v1/openapi.json", "", "")
	require.Equal(t, 200, status, "the API's description needs no token")
	status, _, _ = do("GET", "/v1/openapi.json", readA, "")
	require.Equal(t, 200, status)
	status, _, _ = do("GET", "/healthz", "", "")
	require.Equal(t, 200, status, "health stays open")
	status, _, _ = do("GET", "/metrics", "", "")
	require.Equal(t, 401, status, "metrics need a token")
	status, body, _ = do("GET", "/metrics", writeA, "")
	require.Equal(t, 403, status, "aggregate lag and job counts cover other spaces: %s", body)
	status, body, _ = do("GET", "/metrics", adminAll, "")
	require.Equal(t, 200, status)
	require.Contains(t, body, "zaxy_projection_lag_events")

	require.NoError(t, tokens.Revoke(ctx, admin.ID))
	status, _, _ = do("GET", "/v1/spaces/secret/events", adminAll, "")
	require.Equal(t, 401, status, "a revoked token is refused")
	require.ErrorIs(t, tokens.Revoke(ctx, "000000000000"), auth.ErrNotFound)

	// Only hashes are stored.
	var n int
	require.NoError(t, db.AdminPool(t).QueryRow(ctx, `SELECT count(*) FROM api_tokens WHERE position(convert_to($1, 'UTF8') in hash) > 0`, readA).Scan(&n))
	require.Zero(t, n)
	_, _, err = tokens.Create(ctx, []string{"a"}, "superuser", "")
	require.ErrorIs(t, err, validation.ErrInvalid)
	_, _, err = tokens.Create(ctx, []string{"Bad Space"}, auth.ScopeRead, "")
	require.ErrorIs(t, err, validation.ErrInvalid)
}
