package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

func TestHTTP_SpacesListsOnlyWhatTheTokenReaches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	tokens := auth.NewStore(pool)
	store := eventloom.NewStore(pool, nil, nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Auth: tokens}, nil))
	t.Cleanup(srv.Close)
	for _, sp := range []string{"a", "secret"} {
		_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: sp, Events: []eventloom.NewEvent{
			{Type: "message", Content: "hello", Data: json.RawMessage(`{"role":"user"}`)},
			{Type: "proposal.created", Actor: "agent", Data: json.RawMessage(`{"kind":"skill","evidence":[1]}`)},
		}})
		require.NoError(t, err)
	}
	fixture.Project(t, pool, "a")
	_, readA, err := tokens.Create(ctx, []string{"a", "fresh"}, auth.ScopeRead, "")
	require.NoError(t, err)
	_, readAll, err := tokens.Create(ctx, []string{auth.AllSpaces}, auth.ScopeRead, "")
	require.NoError(t, err)

	get := func(path, token string) (int, map[string]any) {
		req, err := http.NewRequest("GET", srv.URL+path, nil)
		require.NoError(t, err)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		var out map[string]any
		require.NoError(t, json.Unmarshal(b, &out), string(b))
		return resp.StatusCode, out
	}
	status, _ := get("/v1/spaces", "")
	require.Equal(t, 401, status)

	status, out := get("/v1/spaces", readA)
	require.Equal(t, 200, status, out)
	require.Equal(t, false, out["all_spaces"])
	spaces := out["spaces"].([]any)
	require.Len(t, spaces, 2, "a and the granted space with no events; never secret")
	a, fresh := spaces[0].(map[string]any), spaces[1].(map[string]any)
	require.Equal(t, "a", a["space_id"])
	require.EqualValues(t, 2, a["head_seq"])
	require.EqualValues(t, 0, a["lag"])
	require.EqualValues(t, 1, a["pending_proposals"])
	require.Equal(t, "fresh", fresh["space_id"])
	require.EqualValues(t, 0, fresh["head_seq"])

	status, out = get("/v1/spaces", readAll)
	require.Equal(t, 200, status, out)
	require.Equal(t, true, out["all_spaces"])
	spaces = out["spaces"].([]any)
	require.Len(t, spaces, 2)
	secret := spaces[1].(map[string]any)
	require.Equal(t, "secret", secret["space_id"])
	require.EqualValues(t, 2, secret["lag"], "not projected yet")
	require.EqualValues(t, 0, secret["pending_proposals"], "proposals count once projected")

	status, out = get("/v1/spaces/a/salience", readA)
	require.Equal(t, 200, status, out)
	require.Equal(t, false, out["materialised"])
	require.Len(t, out["buckets"], 10)
	_, err = projection.DecaySalience(ctx, pool, "a", time.Now())
	require.NoError(t, err)
	status, out = get("/v1/spaces/a/salience", readA)
	require.Equal(t, 200, status, out)
	require.Equal(t, true, out["materialised"])
	var items float64
	for _, n := range out["buckets"].([]any) {
		items += n.(float64)
	}
	require.Positive(t, items)
	status, _ = get("/v1/spaces/secret/salience", readA)
	require.Equal(t, 403, status)
}
