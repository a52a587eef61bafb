package api_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/placement"
	"github.com/zaxy/zaxy/testcontainers"
)

// An append to a space frozen by a move answers 503 space_moving with Retry-After, and
// nothing is appended; reads of the space go on.
func TestHTTP_AnAppendToAMovingSpaceIsRefusedWithRetryAfter(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, out := e.do(t, "POST", "/v1/spaces/frozen/events", `{"type":"message","content":"before","data":{"role":"user"}}`)
	require.Equal(t, 201, status, out)
	_, err := e.db.AdminPool(t).Exec(context.Background(), `SELECT zaxy_space_freeze('frozen', 'b')`)
	require.NoError(t, err)

	status, out = e.do(t, "POST", "/v1/spaces/frozen/events", `{"type":"message","content":"during","data":{"role":"user"}}`)
	require.Equal(t, 503, status, out)
	require.Equal(t, "space_moving", out["error"].(map[string]any)["code"])
	require.Contains(t, out["error"].(map[string]any)["message"], "being moved to cluster b")
	resp, err := http.Post(e.url+"/v1/spaces/frozen/events", "application/json",
		strings.NewReader(`{"type":"message","content":"during","data":{"role":"user"}}`))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, "1", resp.Header.Get("Retry-After"))
	require.Equal(t, 1, e.count(t), "nothing appended while frozen")

	status, out = e.do(t, "GET", "/v1/spaces/frozen/events", "")
	require.Equal(t, 200, status, out)
	require.Len(t, out["events"], 1)
	// A checkout answers, its surfacing unrecorded and said so.
	status, out = e.do(t, "POST", "/v1/spaces/frozen/checkout", `{"query":"before","max_tokens":200,"session_id":"s"}`)
	require.Equal(t, 200, status, out)
	require.Contains(t, fmt.Sprint(out["warnings"]), "surfacing_not_recorded")
	status, out = e.do(t, "POST", "/v1/spaces/frozen/actions/retrieve-failure-prior", `{"tools":["go vet"],"session_id":"agent-1"}`)
	require.Equal(t, 200, status, out)
	require.Nil(t, out["record"], "unrecorded while the space moves")
	require.Equal(t, 1, e.count(t))
}

// The cluster router: a new space goes where the rule says (here: b, the only cluster with
// weight), its events land in b's database only, a request whose token does not reach the
// space places nothing, the listing merges the clusters, and a pinned space is served by its
// cluster.
func TestClusterRouter_PlacesByTheRuleAndRoutesEverySpaceToItsCluster(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	homeDB, bDB := testcontainers.NewDatabase(t), testcontainers.NewDatabase(t)
	homePool, bPool := homeDB.AppPool(t), bDB.AppPool(t)
	tokens := auth.NewStore(homePool)
	handler := func(pool *pgxpool.Pool) http.Handler {
		client, err := jobs.NewInsertOnlyClient(pool, nil)
		require.NoError(t, err)
		store := eventloom.NewStore(pool, jobs.NewOutbox(client), nil)
		return apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Auth: tokens}, nil)
	}
	clusters := []placement.Cluster{{Name: "home", URL: homeDB.AppURL, Weight: 0}, {Name: "b", URL: bDB.AppURL, Weight: 1}}
	dir := placement.NewDirectory(homePool, clusters)
	router, err := api.NewClusterRouter(api.Clusters{Directory: dir, Home: "home", Auth: tokens,
		Handlers: map[string]http.Handler{"home": handler(homePool), "b": handler(bPool)}})
	require.NoError(t, err)
	srv := httptest.NewServer(router)
	t.Cleanup(srv.Close)
	e := &env{url: srv.URL, db: homeDB}
	_, all, err := tokens.Create(ctx, []string{auth.AllSpaces}, auth.ScopeWrite, "test")
	require.NoError(t, err)
	_, narrow, err := tokens.Create(ctx, []string{"mine"}, auth.ScopeWrite, "test")
	require.NoError(t, err)
	bearer := func(tok string) []string { return []string{"Authorization", "Bearer " + tok} }

	// A token that does not reach the space: 403 from the home cluster, nothing placed.
	status, out := e.do(t, "POST", "/v1/spaces/theirs/events", `{"type":"message","content":"x","data":{"role":"user"}}`, bearer(narrow)...)
	require.Equal(t, 403, status, out)
	status, _ = e.do(t, "GET", "/v1/spaces/theirs/events", "")
	require.Equal(t, 401, status)
	_, placed, err := dir.Lookup(ctx, "theirs")
	require.NoError(t, err)
	require.False(t, placed, "a request no token allowed placed a space")

	// A new space goes to b: its event is in b's database, not home's.
	status, out = e.do(t, "POST", "/v1/spaces/mine/events", `{"type":"message","content":"on b","data":{"role":"user"}}`, bearer(narrow)...)
	require.Equal(t, 201, status, out)
	p, placed, err := dir.Lookup(ctx, "mine")
	require.NoError(t, err)
	require.True(t, placed)
	require.Equal(t, "b", p.Cluster)
	var onB, onHome int
	require.NoError(t, bPool.QueryRow(ctx, `SELECT count(*) FROM events WHERE space_id = 'mine'`).Scan(&onB))
	require.NoError(t, homePool.QueryRow(ctx, `SELECT count(*) FROM events WHERE space_id = 'mine'`).Scan(&onHome))
	require.Equal(t, [2]int{1, 0}, [2]int{onB, onHome})

	// A space pinned to home is served by home.
	_, err = dir.Place(ctx, "pinned", "home", true)
	require.NoError(t, err)
	status, out = e.do(t, "POST", "/v1/spaces/pinned/events", `{"type":"message","content":"on home","data":{"role":"user"}}`, bearer(all)...)
	require.Equal(t, 201, status, out)
	require.NoError(t, homePool.QueryRow(ctx, `SELECT count(*) FROM events WHERE space_id = 'pinned'`).Scan(&onHome))
	require.Equal(t, 1, onHome)
	status, out = e.do(t, "GET", "/v1/spaces/pinned/events", "", bearer(all)...)
	require.Equal(t, 200, status, out)
	require.Len(t, out["events"], 1)

	// The listing: both spaces once each, from their clusters.
	status, out = e.do(t, "GET", "/v1/spaces", "", bearer(all)...)
	require.Equal(t, 200, status, out)
	var ids []string
	for _, sp := range out["spaces"].([]any) {
		ids = append(ids, sp.(map[string]any)["space_id"].(string))
	}
	require.Equal(t, []string{"mine", "pinned"}, ids)
	status, out = e.do(t, "GET", "/v1/spaces", "", bearer(narrow)...)
	require.Equal(t, 200, status, out)
	require.Len(t, out["spaces"], 1)

	// /metrics: every cluster's series under its label, the process's once; a narrow token is
	// refused as on one cluster.
	req, err := http.NewRequest("GET", srv.URL+"/metrics", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+all)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, 200, resp.StatusCode, string(body))
	text := string(body)
	require.Contains(t, text, `zaxy_events_appended_total{cluster="b"} 1`)
	require.Contains(t, text, `zaxy_events_appended_total{cluster="home"} 1`)
	require.Equal(t, 1, strings.Count(text, "\ngo_goroutines "), text)
	req.Header.Set("Authorization", "Bearer "+narrow)
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 403, resp.StatusCode)
}
