package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	zmcp "github.com/zaxy/zaxy/mcp"
)

// mcpSlowCypher is a memory_cypher call that runs far longer than the test: a cross product of
// three 3,000-row UNWINDs, ended by the client going away.
const mcpSlowCypher = `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"memory_cypher","arguments":{"space":"team-a","query":"UNWIND range(1,3000) AS x UNWIND range(1,3000) AS y UNWIND range(1,3000) AS z RETURN count(z)","timeout_ms":30000}}}`

// TestHTTP_MCPToolCallsShareTheirTokensBudgetsAndPoolShare: each MCP tool call is an API
// request of the token that made it, under the same in-flight budgets and fair share of the
// pool. A token's four slow memory_cypher calls (its analytics budget) run two at a time
// (half of an analytics pool of 4), its fifth analytics call is refused with
// too_many_requests, and another token's memory_facts is answered while all four are in
// flight.
func TestHTTP_MCPToolCallsShareTheirTokensBudgetsAndPoolShare(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, true)
	pool := e.db.AppPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	for _, space := range []string{"team-a", "team-b"} {
		_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{
			{Type: "fact.asserted", Data: json.RawMessage(`{"subject":"Alice","predicate":"works at","object":"Acme"}`)}}})
		require.NoError(t, err)
		e.project(t, space)
	}
	acfg, err := pgxpool.ParseConfig(e.db.AppURL)
	require.NoError(t, err)
	acfg.MaxConns = 4
	analytics, err := pgxpool.NewWithConfig(ctx, acfg)
	require.NoError(t, err)
	t.Cleanup(analytics.Close)
	// A tool call is not cancelled when its client goes away (the SDK serves it apart from the
	// HTTP request): the slow calls end at the request deadline, which is shortened so that
	// the test does not wait the default 30 s for them.
	apiHandler := apitest.NewHandler(t, api.Config{RequestTimeout: 15 * time.Second}, api.Services{Pool: pool, Store: store, Auth: e.tokens, Analytics: analytics}, nil)
	h, err := zmcp.NewHTTPHandler(zmcp.HTTPConfig{Config: zmcp.Config{Profile: zmcp.ProfileFull}}, zmcp.Services{API: apiHandler, Auth: e.tokens}, nil)
	require.NoError(t, err)
	srv := httptest.NewServer(zmcp.Mount(apiHandler, h))
	t.Cleanup(srv.Close)
	readA, readB := e.token(t, auth.ScopeRead, "team-a"), e.token(t, auth.ScopeRead, "team-b")
	watch := e.db.AdminPool(t)
	running := func() int {
		var n int
		require.NoError(t, watch.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND state = 'active' AND query LIKE '%zaxy_cypher.%' AND pid <> pg_backend_pid()`).Scan(&n))
		return n
	}

	// team-a's whole analytics budget of slow calls. A call refused by the budget (while the
	// probe below held a slot) is made again; any other answer ends it.
	slowCtx, cancel := context.WithCancel(ctx)
	var slow sync.WaitGroup
	var returned atomic.Int64
	for i := range api.DefaultMaxAnalyticsInFlight {
		slow.Go(func() {
			for slowCtx.Err() == nil {
				req, _ := http.NewRequestWithContext(slowCtx, http.MethodPost, srv.URL+"/mcp", strings.NewReader(fmt.Sprintf(mcpSlowCypher, i+1)))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Authorization", "Bearer "+readA)
				if resp, err := http.DefaultClient.Do(req); err == nil {
					body, _ := io.ReadAll(io.LimitReader(resp.Body, 500))
					resp.Body.Close()
					if strings.Contains(string(body), "too_many_requests") {
						time.Sleep(10 * time.Millisecond)
						continue
					}
					if slowCtx.Err() == nil && !strings.Contains(string(body), "pool_busy") && !strings.Contains(string(body), "timeout") {
						// A slow call should only end at its deadline; say why it did not.
						t.Logf("a slow memory_cypher call ended early: %d %s", resp.StatusCode, body)
					}
				}
				returned.Add(1)
				return
			}
		})
	}
	t.Cleanup(func() {
		cancel()
		slow.Wait()
		require.Eventually(t, func() bool { return running() == 0 }, 40*time.Second, 20*time.Millisecond)
	})
	require.Eventually(t, func() bool { return running() >= 2 }, 30*time.Second, 5*time.Millisecond,
		"team-a's slow calls never reached the database")
	// Two are admitted and the other two wait at the gate, all four within the analytics
	// budget: a fifth analytics call is refused at once. (A probe made before all four were
	// in flight waits at the gate: it is given up and made again.)
	require.Eventually(t, func() bool {
		ctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/mcp",
			strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"memory_facts","arguments":{"space":"team-a"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+readA)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return err == nil && strings.Contains(string(body), "too_many_requests")
	}, 30*time.Second, 20*time.Millisecond, "a fifth analytics call of team-a's token was not refused")

	status, body := postVersion(t, srv.URL+"/mcp", readB, "", `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"memory_facts","arguments":{"space":"team-b"}}}`)
	require.Equal(t, http.StatusOK, status, body)
	require.NotContains(t, body, `"isError":true`, "another token's read is answered while team-a's calls run")
	require.Contains(t, body, "Acme")

	require.Zero(t, returned.Load(), "team-a's four calls were all still in flight")
	require.Equal(t, 2, running(), "team-a ran on its share of the analytics pool (2 of 4), its other calls waiting at the gate")
}
