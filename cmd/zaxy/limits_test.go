package main

import (
	"context"
	"io"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/testcontainers"
)

func TestServeConfig_PoolsLimitsAndJobTiming(t *testing.T) {
	t.Parallel()
	env := func(kv ...string) func(string) string {
		m := map[string]string{"ZAXY_DATABASE_URL": "postgres://x"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	c, err := readConfig(env())
	require.NoError(t, err)
	require.Equal(t, poolSizes{hot: 0, analytics: defaultAnalyticsConns, worker: 10 + workerConnsExtra}, c.pools)
	require.Equal(t, api.DefaultMaxInFlight, c.http.MaxInFlight)
	require.Equal(t, api.DefaultMaxAnalyticsInFlight, c.http.MaxAnalyticsInFlight)
	require.EqualValues(t, api.DefaultMaxResponseBytes, c.http.MaxResponseBytes)
	require.Equal(t, jobs.DefaultJobTimeout, c.jobTimeout)
	require.Equal(t, jobs.DefaultRescueStuckJobsAfter, c.rescueAfter)

	c, err = readConfig(env("ZAXY_WORKERS", "3", "ZAXY_DB_POOL_CONNS", "30", "ZAXY_DB_ANALYTICS_CONNS", "6",
		"ZAXY_MAX_IN_FLIGHT", "8", "ZAXY_MAX_ANALYTICS_IN_FLIGHT", "2", "ZAXY_MAX_RESPONSE_BYTES", "2097152",
		"ZAXY_JOB_TIMEOUT", "2m", "ZAXY_RESCUE_STUCK_JOBS_AFTER", "3m"))
	require.NoError(t, err)
	require.Equal(t, poolSizes{hot: 30, analytics: 6, worker: 7}, c.pools)
	require.Equal(t, 8, c.http.MaxInFlight)
	require.Equal(t, 2, c.http.MaxAnalyticsInFlight)
	require.EqualValues(t, 2<<20, c.http.MaxResponseBytes)
	require.Equal(t, 2*time.Minute, c.jobTimeout)
	require.Equal(t, 3*time.Minute, c.rescueAfter)

	for _, tc := range []struct{ name, value, want string }{
		{"ZAXY_DB_ANALYTICS_CONNS", "0", "ZAXY_DB_ANALYTICS_CONNS"},
		{"ZAXY_DB_WORKER_CONNS", "1", "ZAXY_DB_WORKER_CONNS"},
		{"ZAXY_MAX_IN_FLIGHT", "-1", "ZAXY_MAX_IN_FLIGHT"},
		{"ZAXY_MAX_ANALYTICS_IN_FLIGHT", "x", "ZAXY_MAX_ANALYTICS_IN_FLIGHT"},
		{"ZAXY_MAX_ANALYTICS_IN_FLIGHT", "33", "at most ZAXY_MAX_IN_FLIGHT"},
		{"ZAXY_MAX_RESPONSE_BYTES", "1048575", "ZAXY_MAX_RESPONSE_BYTES"},
		{"ZAXY_JOB_TIMEOUT", "soon", "ZAXY_JOB_TIMEOUT"},
		{"ZAXY_RESCUE_STUCK_JOBS_AFTER", "1m", "ZAXY_RESCUE_STUCK_JOBS_AFTER"},
	} {
		_, err := readConfig(env(tc.name, tc.value))
		require.ErrorContains(t, err, tc.want, "%s=%s", tc.name, tc.value)
	}
}

// zaxy serve keeps its three pools apart: River's connections, the hot path's and the
// analytics routes' each carry their pool's application_name.
func TestServe_OpensSeparatePools(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	bin := buildZaxy(t)
	cmd, url := startServer(t, bin, db.AppURL)
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })

	for _, path := range []string{"/v1/spaces/pools/events?limit=1", "/v1/spaces/pools/index"} {
		resp, err := http.Get(url + path)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	pool := db.AdminPool(t)
	names := func() map[string]bool {
		rows, err := pool.Query(context.Background(), `SELECT DISTINCT application_name FROM pg_stat_activity WHERE datname = current_database()`)
		require.NoError(t, err)
		defer rows.Close()
		got := map[string]bool{}
		for rows.Next() {
			var n string
			require.NoError(t, rows.Scan(&n))
			got[n] = true
		}
		return got
	}
	require.Eventually(t, func() bool {
		got := names()
		return got["zaxy-hot"] && got["zaxy-analytics"] && got["zaxy-worker"]
	}, 2*time.Minute, 50*time.Millisecond, "pools seen: %v", names())
}
