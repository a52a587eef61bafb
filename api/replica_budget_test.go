package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/replica"
)

// TestReplica_AReadOnTheStandbyCountsAgainstItsCallersBudgetAndShare: a caller cannot get
// past its in-flight budget or its fair share of the pool by having its reads served by a
// standby. Two slow Cypher calls of tenant A run on the standby (none on the primary); then
// A's next analytics read is refused as it would be with both on the primary (429 over its
// analytics budget; 503 pool_busy when they hold its whole share, here from another instance
// sharing the budgets in the database), while tenant B's is served by the standby at once.
func TestReplica_AReadOnTheStandbyCountsAgainstItsCallersBudgetAndShare(t *testing.T) {
	t.Parallel()
	e := newReplicaEnv(t, 0)
	ctx := context.Background()
	readA, readB := twoTenants(t, e.db)
	e.standby.WaitReplay(t, currentLSN(t, e))
	open := func(dbURL string, conns int32) *pgxpool.Pool {
		pc, err := pgxpool.ParseConfig(dbURL)
		require.NoError(t, err)
		pc.MaxConns = conns
		pgexec.Configure(pc)
		pool, err := pgxpool.NewWithConfig(ctx, pc)
		require.NoError(t, err)
		t.Cleanup(pool.Close)
		return pool
	}
	// A standby pool with room for both tenants' reads and the health loop's.
	set := replica.NewSet(e.pool, []*replica.Standby{{Name: "standby", Pool: open(e.standbyDB.AppURL, 8)}},
		replica.Config{Wait: 200 * time.Millisecond, MaxLag: time.Minute, HealthInterval: 50 * time.Millisecond})
	loopCtx, stopLoop := context.WithCancel(ctx)
	loopDone := make(chan struct{})
	go func() { set.Run(loopCtx); close(loopDone) }()
	t.Cleanup(func() { stopLoop(); <-loopDone })
	waitFor(t, "the standby to be measured up", func() bool { return set.Standbys()[0].Up() })
	start := func(name string, cfg api.Config, analyticsConns int32, shared bool) string {
		svc := api.Services{Pool: open(e.db.AppURL, 16), Analytics: open(e.db.AppURL, analyticsConns), Replicas: set}
		svc.Auth = auth.NewStore(svc.Pool)
		if shared {
			b, err := api.OpenSharedBudgets(ctx, withAppName(t, e.db.AppURL, name+"-budget"), 0, nil)
			require.NoError(t, err)
			t.Cleanup(b.Close)
			svc.SharedBudgets = b
		}
		srv := httptest.NewServer(apitest.NewHandler(t, cfg, svc, nil))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	onPrimary, onStandby := e.db.AdminPool(t), e.standbyDB.AdminPool(t)
	// slowOnStandby starts A's two slow Cypher calls through url and waits until the standby
	// runs both; it returns a stop that cancels them and waits until they have left.
	slowOnStandby := func(t *testing.T, url string) (stop func(), done <-chan struct{}) {
		slowCtx, cancel := context.WithCancel(ctx)
		done = startSlow(slowCtx, t, url, "tenant-a", readA, 2, onStandby)
		require.Zero(t, runningSlowQueries(t, onPrimary), "the slow calls run on the standby, not the primary")
		return func() {
			cancel()
			<-done
			require.Eventually(t, func() bool { return runningSlowQueries(t, onStandby) == 0 }, time.Minute, 20*time.Millisecond)
		}, done
	}

	t.Run("in-flight budget", func(t *testing.T) {
		// An analytics pool of 8: A's share (4) is above its analytics budget (2).
		url := start("budget", api.Config{MaxAnalyticsInFlight: 2}, 8, false)
		stop, done := slowOnStandby(t, url)
		defer stop()
		status, hdr, out := call(ctx, t, url, http.MethodGet, "/v1/spaces/tenant-a/facts", readA, "")
		require.Equal(t, http.StatusTooManyRequests, status, "A's two calls on the standby fill its analytics budget: %v", out)
		require.Equal(t, "analytics", out["error"].(map[string]any)["details"].(map[string]any)["budget"])
		require.Empty(t, hdr.Get(replica.ReadFromHeader), "refused before it was routed")
		status, hdr, out = call(ctx, t, url, http.MethodGet, "/v1/spaces/tenant-b/facts", readB, "")
		require.Equal(t, http.StatusOK, status, out)
		require.Equal(t, replica.FromReplica, hdr.Get(replica.ReadFromHeader))
		require.True(t, stillRunning(done))
	})

	t.Run("fair share", func(t *testing.T) {
		// An analytics pool of 4: A's share is 2, shared by both instances in the database.
		one := start("one", api.Config{}, 4, true)
		two := start("two", api.Config{RequestTimeout: 3 * time.Second}, 4, true)
		stop, done := slowOnStandby(t, one)
		defer stop()
		status, hdr, out := call(ctx, t, two, http.MethodGet, "/v1/spaces/tenant-a/facts", readA, "")
		require.Equal(t, http.StatusServiceUnavailable, status, "A's two calls on the standby hold its whole share: %v", out)
		e := out["error"].(map[string]any)
		require.Equal(t, "pool_busy", e["code"])
		require.Equal(t, "analytics", e["details"].(map[string]any)["pool"])
		require.Empty(t, hdr.Get(replica.ReadFromHeader), "refused before it was routed")
		require.Equal(t, 2, runningSlowQueries(t, onStandby), "no third query of A ran on the standby")
		require.Zero(t, runningSlowQueries(t, onPrimary), "nor on the primary")
		status, hdr, out = call(ctx, t, two, http.MethodGet, "/v1/spaces/tenant-b/facts", readB, "")
		require.Equal(t, http.StatusOK, status, out)
		require.Equal(t, replica.FromReplica, hdr.Get(replica.ReadFromHeader))
		require.True(t, stillRunning(done))
	})
}
