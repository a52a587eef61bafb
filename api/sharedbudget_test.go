package api_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/testcontainers"
)

// instance is one service instance on a shared database, as `zaxy serve` builds it: pools of
// its own, its own handler, and (when shared) lease connections of its own named name.
type instance struct {
	url  string
	pool *pgxpool.Pool
}

// withAppName returns dbURL naming its sessions name (application_name).
func withAppName(t *testing.T, dbURL, name string) string {
	u, err := url.Parse(dbURL)
	require.NoError(t, err)
	q := u.Query()
	q.Set("application_name", name)
	u.RawQuery = q.Encode()
	return u.String()
}

// startInstance starts an instance of cfg on db, with an analytics pool of analyticsConns, the
// tokens in the database checked when auth is on, and the budgets shared when shared is set.
func startInstance(t *testing.T, db *testcontainers.Database, name string, cfg api.Config, analyticsConns int32, authOn, shared bool) *instance {
	t.Helper()
	ctx := context.Background()
	open := func(conns int32) *pgxpool.Pool {
		pc, err := pgxpool.ParseConfig(db.AppURL)
		require.NoError(t, err)
		pc.MaxConns = conns
		pgexec.Configure(pc)
		pool, err := pgxpool.NewWithConfig(ctx, pc)
		require.NoError(t, err)
		t.Cleanup(pool.Close)
		return pool
	}
	svc := api.Services{Pool: open(16), Analytics: open(analyticsConns)}
	if authOn {
		svc.Auth = auth.NewStore(svc.Pool)
	}
	if shared {
		b, err := api.OpenSharedBudgets(ctx, withAppName(t, db.AppURL, name+"-budget"), 0, nil)
		require.NoError(t, err)
		t.Cleanup(b.Close)
		svc.SharedBudgets = b
	}
	srv := httptest.NewServer(apitest.NewHandler(t, cfg, svc, nil))
	t.Cleanup(srv.Close)
	return &instance{url: srv.URL, pool: svc.Pool}
}

// twoTenants seeds spaces tenant-a and tenant-b with a graph each and returns a read token
// for each.
func twoTenants(t *testing.T, db *testcontainers.Database) (readA, readB string) {
	t.Helper()
	ctx := context.Background()
	pool := db.AppPool(t)
	seedGraphs(t, pool, "tenant-a", "tenant-b")
	tokens := auth.NewStore(pool)
	_, readA, err := tokens.Create(ctx, []string{"tenant-a"}, auth.ScopeRead, "")
	require.NoError(t, err)
	_, readB, err = tokens.Create(ctx, []string{"tenant-b"}, auth.ScopeRead, "")
	require.NoError(t, err)
	return readA, readB
}

// A caller's analytics budget is one budget across instances: with two slow calls in flight
// on one instance, a third on the other is refused with 429, another tenant's is served, and
// the budget is free again once the slow calls end.
func TestHTTP_SharedBudgets_InFlightBudgetHoldsAcrossInstances(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	readA, readB := twoTenants(t, db)
	cfg := api.Config{MaxAnalyticsInFlight: 2}
	// An analytics pool of 8: a caller's fair share (4) is above its analytics budget.
	one := startInstance(t, db, "one", cfg, 8, true, true)
	two := startInstance(t, db, "two", cfg, 8, true, true)

	slowCtx, cancel := context.WithCancel(ctx)
	watch := db.AdminPool(t)
	done := startSlow(slowCtx, t, one.url, "tenant-a", readA, 2, watch)
	t.Cleanup(func() { cancel(); <-done })

	status, hdr, out := call(ctx, t, two.url, "GET", "/v1/spaces/tenant-a/facts", readA, "")
	require.Equal(t, http.StatusTooManyRequests, status, "the other instance counts A's calls on the first: %v", out)
	require.Equal(t, "5", hdr.Get("Retry-After"))
	require.Equal(t, "analytics", out["error"].(map[string]any)["details"].(map[string]any)["budget"])
	status, _, out = call(ctx, t, two.url, "GET", "/v1/spaces/tenant-b/facts", readB, "")
	require.Equal(t, http.StatusOK, status, out)
	status, _, out = call(ctx, t, two.url, "GET", "/v1/spaces/tenant-a/events?limit=1", readA, "")
	require.Equal(t, http.StatusOK, status, "A's requests budget (32) still has room: %v", out)
	require.True(t, stillRunning(done))

	// The client gives up at once; the first instance's handlers end when they notice.
	cancel()
	<-done
	require.Eventually(t, func() bool {
		status, _, _ := call(ctx, t, two.url, "GET", "/v1/spaces/tenant-a/facts", readA, "")
		return status == http.StatusOK
	}, 30*time.Second, 50*time.Millisecond, "A's budget is free again once its calls ended")
}

// A caller's fair share of a pool is one share across instances: holding its whole share of
// the analytics pool (2 of 4) on one instance, it waits on the other until its deadline (503
// pool_busy), while another tenant enters there at once. When the first instance dies (its
// sessions end, as when its process is killed), the share it held is free on the other.
func TestHTTP_SharedBudgets_FairShareHoldsAcrossInstancesAndADeadInstanceGivesItBack(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	readA, readB := twoTenants(t, db)
	cfg := api.Config{RequestTimeout: 3 * time.Second}
	one := startInstance(t, db, "one", api.Config{}, 4, true, true)
	two := startInstance(t, db, "two", cfg, 4, true, true)

	slowCtx, cancel := context.WithCancel(ctx)
	watch := db.AdminPool(t)
	done := startSlow(slowCtx, t, one.url, "tenant-a", readA, 2, watch)
	t.Cleanup(func() { cancel(); <-done })

	status, hdr, out := call(ctx, t, two.url, "GET", "/v1/spaces/tenant-a/facts", readA, "")
	require.Equal(t, http.StatusServiceUnavailable, status, "A already holds its share on the first instance: %v", out)
	require.Equal(t, "1", hdr.Get("Retry-After"))
	e := out["error"].(map[string]any)
	require.Equal(t, "pool_busy", e["code"])
	require.Equal(t, "analytics", e["details"].(map[string]any)["pool"])
	require.Equal(t, 2, runningSlowQueries(t, watch), "no third query of A ran")
	status, _, out = call(ctx, t, two.url, "GET", "/v1/spaces/tenant-b/facts", readB, "")
	require.Equal(t, http.StatusOK, status, out)
	require.True(t, stillRunning(done))

	// The first instance's budget sessions die.
	var killed int
	require.NoError(t, watch.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE application_name = 'one-budget' AND datname = current_database()`).Scan(&killed))
	require.Positive(t, killed)
	require.Eventually(t, func() bool {
		status, _, _ := call(ctx, t, two.url, "GET", "/v1/spaces/tenant-a/facts", readA, "")
		return status == http.StatusOK
	}, 30*time.Second, 50*time.Millisecond, "the share the dead sessions held was never given back")
}

// Without shared budgets each instance keeps its own: what the tests above refuse, a second
// instance serves. This is what a deployment of one instance has always done.
func TestHTTP_SharedBudgets_OffEachInstanceCountsItsOwn(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	readA, _ := twoTenants(t, db)
	cfg := api.Config{MaxAnalyticsInFlight: 2}
	one := startInstance(t, db, "one", cfg, 8, true, false)
	two := startInstance(t, db, "two", cfg, 8, true, false)
	slowCtx, cancel := context.WithCancel(ctx)
	done := startSlow(slowCtx, t, one.url, "tenant-a", readA, 2, db.AdminPool(t))
	t.Cleanup(func() { cancel(); <-done })
	status, _, out := call(ctx, t, two.url, "GET", "/v1/spaces/tenant-a/facts", readA, "")
	require.Equal(t, http.StatusOK, status, out)
	status, _, out = call(ctx, t, one.url, "GET", "/v1/spaces/tenant-a/facts", readA, "")
	require.Equal(t, http.StatusTooManyRequests, status, out)
}

// A token revoked through one instance is refused by another on its next request: no
// instance caches tokens, each request reads the token's row.
func TestHTTP_ATokenRevokedOnOneInstanceIsRefusedByAnother(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	readA, _ := twoTenants(t, db)
	one := startInstance(t, db, "one", api.Config{}, 4, true, true)
	two := startInstance(t, db, "two", api.Config{}, 4, true, true)
	for _, in := range []*instance{one, two} {
		status, _, out := call(ctx, t, in.url, "GET", "/v1/spaces/tenant-a/events?limit=1", readA, "")
		require.Equal(t, http.StatusOK, status, out)
	}
	id, ok := auth.TokenID(readA)
	require.True(t, ok)
	require.NoError(t, auth.NewStore(one.pool).Revoke(ctx, id))
	revokedAt := time.Now()
	status, _, out := call(ctx, t, two.url, "GET", "/v1/spaces/tenant-a/events?limit=1", readA, "")
	require.Equal(t, http.StatusUnauthorized, status, out)
	t.Logf("refused by the other instance %s after the revocation committed", time.Since(revokedAt))
	status, _, out = call(ctx, t, one.url, "GET", "/v1/spaces/tenant-a/events?limit=1", readA, "")
	require.Equal(t, http.StatusUnauthorized, status, out)
}

// BenchmarkHTTP_SharedBudgets is the cost shared budgets add to a request: a one-event replay
// (requests budget and hot-path share, two takes and two releases) on one instance, with the
// budgets per process and shared.
func BenchmarkHTTP_SharedBudgets(b *testing.B) {
	db := testcontainers.NewDatabase(b)
	pool := db.AppPool(b)
	_, err := eventloom.NewStore(pool, nil, nil).Append(context.Background(), &eventloom.AppendParams{SpaceID: "tenant-a",
		Events: []eventloom.NewEvent{{Type: "message", Content: "hello", Data: []byte(`{"role":"user"}`)}}})
	require.NoError(b, err)
	for _, shared := range []bool{false, true} {
		name := map[bool]string{false: "per-process", true: "shared"}[shared]
		b.Run(name, func(b *testing.B) {
			svc := api.Services{Pool: pool}
			if shared {
				budgets, err := api.OpenSharedBudgets(context.Background(), db.AppURL, 0, nil)
				require.NoError(b, err)
				defer budgets.Close()
				svc.SharedBudgets = budgets
			}
			srv := httptest.NewServer(apitest.NewHandler(b, api.Config{}, svc, nil))
			defer srv.Close()
			get := func() {
				resp, err := http.Get(srv.URL + "/v1/spaces/tenant-a/events?limit=1")
				if err != nil || resp.StatusCode != http.StatusOK {
					b.Fatal(err, resp)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			b.Run("serial", func(b *testing.B) {
				for b.Loop() {
					get()
				}
			})
			b.Run("parallel-8", func(b *testing.B) {
				b.SetParallelism(4)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						get()
					}
				})
			})
		})
	}
}

// The fairness of one instance holds across two with shared budgets: the attacker sends its
// whole analytics budget of slow Cypher to each instance (half of it answered 429, since the
// budget is one), it never runs more slow queries than its one share of the analytics pool,
// and the victim's facts on the second instance stay within the bound of compareP95.
func TestHTTP_FairShare_AcrossInstancesSlowAnalyticsOfOneTokenLeaveAnotherSpacesFactsFast(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	seedGraphs(t, pool, "attacker", "victim")
	tokens := auth.NewStore(pool)
	_, attacker, err := tokens.Create(ctx, []string{"attacker"}, auth.ScopeRead, "")
	require.NoError(t, err)
	_, victim, err := tokens.Create(ctx, []string{"victim"}, auth.ScopeRead, "")
	require.NoError(t, err)
	watch := db.AdminPool(t)
	one := startInstance(t, db, "one", api.Config{}, 4, true, true)
	two := startInstance(t, db, "two", api.Config{}, 4, true, true)
	envs := []*fairEnv{
		{url: one.url, attacker: attacker, victim: victim, watch: watch, pool: one.pool},
		{url: two.url, attacker: attacker, victim: victim, watch: watch, pool: two.pool},
	}
	compareP95(t, func() func() {
		var attacks []*attack
		for _, e := range envs {
			attacks = append(attacks, e.startAttack(t, api.DefaultMaxAnalyticsInFlight, "POST", "/v1/spaces/attacker/cypher", slowCypher, http.StatusOK))
		}
		require.Eventually(t, func() bool { return runningSlowQueries(t, watch) >= 2 }, 30*time.Second, 5*time.Millisecond,
			"the attacker's slow queries never reached the database")
		// Its share of an analytics pool (2 of 4) is one share: never 2 on each instance.
		require.Never(t, func() bool { return runningSlowQueries(t, watch) > 2 }, 500*time.Millisecond, 10*time.Millisecond,
			"the attacker ran more slow queries than its one share of the analytics pool")
		started := time.Now()
		return func() {
			for _, a := range attacks {
				a.stop()
			}
			stopping := time.Now()
			require.Eventually(t, func() bool { return runningSlowQueries(t, watch) == 0 }, 30*time.Second, 5*time.Millisecond)
			t.Logf("round: attack %v, stop %v", stopping.Sub(started), time.Since(stopping))
		}
	}, func(n int) []time.Duration {
		return envs[1].timeVictim(t, n, "GET", "/v1/spaces/victim/facts", "", http.StatusOK)
	})
}
