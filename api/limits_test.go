package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// slowCypher runs for far longer than any test: a cross product of three 3,000-row UNWINDs,
// small in memory, cut short by the client going away.
const slowCypher = `{"query":"UNWIND range(1,3000) AS x UNWIND range(1,3000) AS y UNWIND range(1,3000) AS z RETURN count(z)","timeout_ms":30000}`

// call sends one request and returns its status, headers and decoded body.
func call(ctx context.Context, t *testing.T, url, method, path, token, body string) (int, http.Header, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url+path, strings.NewReader(body))
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out), string(b))
	return resp.StatusCode, resp.Header, out
}

// seedGraphs appends a fact to each space and projects it, so that each has an AGE graph.
func seedGraphs(t *testing.T, pool *pgxpool.Pool, spaces ...string) {
	t.Helper()
	ctx := context.Background()
	store := eventloom.NewStore(pool, nil, nil)
	p, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	for _, sp := range spaces {
		_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: sp, Events: []eventloom.NewEvent{
			{Type: "fact.asserted", Data: json.RawMessage(`{"subject":"Alice","predicate":"works at","object":"Acme"}`)}}})
		require.NoError(t, err)
		_, err = p.ProjectSpace(ctx, sp)
		require.NoError(t, err)
	}
}

// runningSlowQueries counts the Cypher statements active in the test's database: each runs
// through its graph's runner function, called as "zaxy_cypher"."<graph>"(...) with the query as
// a parameter (matched quoted: the lookup of the runner and the statement's comment name
// zaxy_cypher.<graph> too, and are not a running query).
func runningSlowQueries(t *testing.T, pool *pgxpool.Pool) int {
	var n int
	require.NoError(t, pool.QueryRow(context.Background(),
		`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE '%"zaxy_cypher".%' AND pid <> pg_backend_pid()`).Scan(&n))
	return n
}

// startSlow starts n slow Cypher calls as token on space and returns a channel closed when all
// have returned, after waiting until the database runs all n.
func startSlow(ctx context.Context, t *testing.T, url, space, token string, n int, watch *pgxpool.Pool) <-chan struct{} {
	t.Helper()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(ctx, "POST", url+"/v1/spaces/"+space+"/cypher", strings.NewReader(slowCypher))
			req.Header.Set("Content-Type", "application/json")
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			if resp, err := http.DefaultClient.Do(req); err == nil {
				if ctx.Err() == nil {
					// A slow call should only end when the test cancels it; say why it did not.
					body, _ := io.ReadAll(io.LimitReader(resp.Body, 500))
					t.Logf("a slow Cypher call ended early: %d %s", resp.StatusCode, body)
				}
				resp.Body.Close()
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	require.Eventually(t, func() bool { return runningSlowQueries(t, watch) == n }, 20*time.Second, 20*time.Millisecond,
		"the slow Cypher calls never all reached the database")
	return done
}

func stillRunning(done <-chan struct{}) bool {
	select {
	case <-done:
		return false
	default:
		return true
	}
}

func TestHTTP_AnalyticsBudgetPerTokenAnswers429AndOtherTenantsStillRead(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	seedGraphs(t, pool, "tenant-a", "tenant-b")
	acfg, err := pgxpool.ParseConfig(db.AppURL)
	require.NoError(t, err)
	acfg.MaxConns = 4 // a caller's fair share is 2, its analytics budget below
	analytics, err := pgxpool.NewWithConfig(ctx, acfg)
	require.NoError(t, err)
	t.Cleanup(analytics.Close)

	tokens := auth.NewStore(pool)
	_, readA, err := tokens.Create(ctx, []string{"tenant-a"}, auth.ScopeRead, "")
	require.NoError(t, err)
	_, readB, err := tokens.Create(ctx, []string{"tenant-b"}, auth.ScopeRead, "")
	require.NoError(t, err)
	store := eventloom.NewStore(pool, nil, nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{MaxAnalyticsInFlight: 2}, api.Services{Pool: pool, Store: store, Auth: tokens, Analytics: analytics}, nil))
	t.Cleanup(srv.Close)

	slowCtx, cancel := context.WithCancel(ctx)
	watch := db.AdminPool(t) // sees every backend's query, whatever role Cypher runs as
	done := startSlow(slowCtx, t, srv.URL, "tenant-a", readA, 2, watch)
	t.Cleanup(func() { cancel(); <-done })

	// (i) One more analytics call from A: refused at once, with Retry-After.
	status, hdr, out := call(ctx, t, srv.URL, "GET", "/v1/spaces/tenant-a/facts", readA, "")
	require.Equal(t, http.StatusTooManyRequests, status, out)
	require.Equal(t, "5", hdr.Get("Retry-After"))
	e := out["error"].(map[string]any)
	require.Equal(t, "too_many_requests", e["code"])
	require.Equal(t, "analytics", e["details"].(map[string]any)["budget"])
	require.True(t, stillRunning(done), "the 429 came while A's slow calls were in flight")
	// No other spelling of an analytics route runs past the budget.
	status, _, out = call(ctx, t, srv.URL, "POST", "/v1/spaces/tenant-a/%63ypher", readA, slowCypher)
	require.Contains(t, []int{http.StatusTooManyRequests, http.StatusNotFound}, status, out)

	// (ii) B's one-row read, and A's own hot-path read, complete while A's slow calls still run.
	status, _, out = call(ctx, t, srv.URL, "GET", "/v1/spaces/tenant-b/events?limit=1", readB, "")
	require.Equal(t, http.StatusOK, status, out)
	require.Len(t, out["events"], 1)
	status, _, out = call(ctx, t, srv.URL, "GET", "/v1/spaces/tenant-a/events?limit=1", readA, "")
	require.Equal(t, http.StatusOK, status, "the analytics budget leaves the hot path alone: %v", out)
	require.True(t, stillRunning(done), "A's slow calls were still in flight when B's read returned")
	// The calls still running hold the analytics pool's connections, not the hot path's (the
	// 429 above proves both were admitted; a call the database ended early is logged).
	// A call admitted a moment ago may not have reached pg_stat_activity yet: wait until what
	// the database shows running matches the connections the analytics pool lent out.
	require.Eventually(t, func() bool {
		running := runningSlowQueries(t, watch)
		return running >= 1 && int32(running) == analytics.Stat().AcquiredConns()
	}, 10*time.Second, 20*time.Millisecond, "A's slow calls hold the analytics pool's connections, not the hot path's")

	// Once A's calls end, A's budget is free again.
	cancel()
	<-done
	require.Eventually(t, func() bool { return runningSlowQueries(t, watch) == 0 }, 20*time.Second, 20*time.Millisecond)
	// The server gives a slot back when its handler returns, which may be a moment after the
	// client saw its call end: A is refused only until then, and never with another status.
	require.Eventually(t, func() bool {
		status, _, out = call(ctx, t, srv.URL, "GET", "/v1/spaces/tenant-a/facts", readA, "")
		require.Contains(t, []int{http.StatusOK, http.StatusTooManyRequests}, status, out)
		return status == http.StatusOK
	}, 20*time.Second, 20*time.Millisecond, "A's budget is free once its calls end: %v", out)
}

func TestHTTP_InFlightBudgetWithAuthOffIsPerSpace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	seedGraphs(t, pool, "space-a", "space-b")
	store := eventloom.NewStore(pool, nil, nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{MaxInFlight: 1}, api.Services{Pool: pool, Store: store}, nil))
	t.Cleanup(srv.Close)

	slowCtx, cancel := context.WithCancel(ctx)
	done := startSlow(slowCtx, t, srv.URL, "space-a", "", 1, db.AdminPool(t))
	t.Cleanup(func() { cancel(); <-done })

	status, hdr, out := call(ctx, t, srv.URL, "GET", "/v1/spaces/space-a/events?limit=1", "", "")
	require.Equal(t, http.StatusTooManyRequests, status, out)
	require.Equal(t, "1", hdr.Get("Retry-After"))
	require.Equal(t, "requests", out["error"].(map[string]any)["details"].(map[string]any)["budget"])
	status, _, out = call(ctx, t, srv.URL, "GET", "/v1/spaces/space-b/events?limit=1", "", "")
	require.Equal(t, http.StatusOK, status, out)
	require.True(t, stillRunning(done))
}

func TestAnalyticsRoute(t *testing.T) {
	for _, tc := range []struct {
		method, path string
		want         bool
	}{
		{"POST", "/v1/spaces/a/cypher", true},
		{"GET", "/v1/spaces/a/facts", true},
		{"GET", "/v1/spaces/a/entities/Alice", true},
		{"GET", "/v1/spaces/a/index", true},
		{"GET", "/v1/spaces/a/timeline", true},
		{"GET", "/v1/spaces/a/items/ev:1", true},
		{"GET", "/v1/spaces/a/verify", true},
		{"GET", "/v1/spaces/a/events", false},
		{"POST", "/v1/spaces/a/events", false},
		{"POST", "/v1/spaces/a/checkout", false},
		{"POST", "/v1/spaces/a/query", false},
		{"GET", "/v1/spaces/a/projection", false},
		{"GET", "/v1/spaces/a/cypher", false},
		{"GET", "/metrics", false},
	} {
		require.Equal(t, tc.want, api.AnalyticsRoute(tc.method, tc.path), fmt.Sprint(tc.method, " ", tc.path))
	}
}

// capEnv serves the API with a response cap of limit bytes.
func capEnv(t *testing.T, limit int64) (string, *eventloom.Store) {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{MaxResponseBytes: limit}, api.Services{Pool: pool, Store: store}, nil))
	t.Cleanup(srv.Close)
	return srv.URL, store
}

// readAllPages follows next_after_seq from the start and returns every seq read and the
// number of pages, checking that each page fits in limit bytes.
func readAllPages(t *testing.T, url, query string, limit int) ([]int64, int) {
	t.Helper()
	var seqs []int64
	after, pages := int64(0), 0
	for {
		resp, err := http.Get(fmt.Sprintf("%s/v1/spaces/big/events?after_seq=%d%s", url, after, query))
		require.NoError(t, err)
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode, string(b))
		require.LessOrEqual(t, len(b), limit, "page %d passes the cap", pages)
		var page eventloom.ReplayPage
		require.NoError(t, json.Unmarshal(b, &page))
		require.NotEmpty(t, page.Events)
		pages++
		for _, ev := range page.Events {
			seqs = append(seqs, ev.Seq)
		}
		if page.NextAfterSeq == 0 {
			return seqs, pages
		}
		require.Equal(t, page.Events[len(page.Events)-1].Seq, page.NextAfterSeq, "the cursor continues after the last event sent")
		after = page.NextAfterSeq
		require.Less(t, pages, 100)
	}
}

func TestHTTP_ReplayPagesStopBeforeTheResponseCapAndContinue(t *testing.T) {
	t.Parallel()
	const limit = 64 << 10
	url, store := capEnv(t, limit)
	var events []eventloom.NewEvent
	for i := range 10 {
		events = append(events, eventloom.NewEvent{Type: "note", SessionID: "plain", Content: fmt.Sprintf("%02d %s", i, strings.Repeat("x", 20<<10))})
	}
	// Control characters take six bytes each in JSON: 4 KiB stored, 24 KiB sent.
	for i := range 10 {
		events = append(events, eventloom.NewEvent{Type: "note", SessionID: "escaped", Content: fmt.Sprintf("%02d %s", i, strings.Repeat("\x01", 4<<10))})
	}
	fixture.Append(t, store, "big", events...)

	seqs, pages := readAllPages(t, url, "", limit)
	want := make([]int64, 20)
	for i := range want {
		want[i] = int64(i + 1)
	}
	require.Equal(t, want, seqs, "following the cursor reads every event once, in order")
	require.GreaterOrEqual(t, pages, 8, "20 events of 20-24 KiB cannot fit 64 KiB pages in fewer than 8")

	seqs, _ = readAllPages(t, url, "&session_id=escaped&limit=1000", limit)
	require.Equal(t, want[10:], seqs, "a session's events, paged past the cap by their encoded size")
	seqs, _ = readAllPages(t, url, "&until_seq=5", limit)
	require.Equal(t, want[:5], seqs, "until_seq still ends the replay")
}

func TestHTTP_ResponsesPastTheCapAre413(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const limit = 16 << 10
	url, store := capEnv(t, limit)
	fixture.Append(t, store, "big",
		eventloom.NewEvent{Type: "note", Content: "small note about giraffes"},
		eventloom.NewEvent{Type: "note", Content: "giraffes " + strings.Repeat("y", 20<<10)},
	)
	var many []eventloom.NewEvent
	for i := range 30 {
		many = append(many, eventloom.NewEvent{Type: "note", Content: fmt.Sprintf("zebras %d %s", i, strings.Repeat("z", 2000))})
	}
	fixture.Append(t, store, "herd", many...)

	// Replay: the first page ends before the event that cannot fit; that event alone is a 413
	// naming its seq.
	status, _, out := call(ctx, t, url, "GET", "/v1/spaces/big/events", "", "")
	require.Equal(t, http.StatusOK, status, out)
	require.Len(t, out["events"], 1)
	require.EqualValues(t, 1, out["next_after_seq"])
	status, _, out = call(ctx, t, url, "GET", "/v1/spaces/big/events?after_seq=1", "", "")
	require.Equal(t, http.StatusRequestEntityTooLarge, status, out)
	e := out["error"].(map[string]any)
	require.Equal(t, "response_too_large", e["code"])
	require.EqualValues(t, 2, e["details"].(map[string]any)["seq"])
	require.EqualValues(t, limit, e["details"].(map[string]any)["limit_bytes"])

	// Routes without a cursor: the whole response is replaced by the 413.
	for _, tc := range []struct{ method, path, body string }{
		{"GET", "/v1/spaces/big/items/ev:2", ""},
		{"POST", "/v1/spaces/herd/query", `{"query":"zebras"}`},
	} {
		status, _, out := call(ctx, t, url, tc.method, tc.path, "", tc.body)
		require.Equal(t, http.StatusRequestEntityTooLarge, status, "%s %s: %v", tc.method, tc.path, out)
		require.Equal(t, "response_too_large", out["error"].(map[string]any)["code"])
	}
	// An append is never answered 413 after it committed: its receipts pass the cap unchanged.
	var sb strings.Builder
	sb.WriteString(`{"events":[`)
	for i := range 300 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"type":"note","content":"receipt %d"}`, i)
	}
	sb.WriteString("]}")
	req, err := http.NewRequest("POST", url+"/v1/spaces/receipts/events", strings.NewReader(sb.String()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, resp.StatusCode, string(b))
	require.Greater(t, len(b), limit, "the receipts are larger than the cap")

	// What fits is untouched.
	status, _, out = call(ctx, t, url, "GET", "/v1/spaces/big/items/ev:1", "", "")
	require.Equal(t, http.StatusOK, status, out)
	status, _, out = call(ctx, t, url, "POST", "/v1/spaces/herd/query", "", `{"query":"zebras","limit":1}`)
	require.Equal(t, http.StatusOK, status, out)
}
