package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/testcontainers"
)

// connMeter counts a pool's acquired connections through its PrepareConn and AfterRelease
// hooks: how many are held now, the most held at once and the connection-time spent since
// reset.
type connMeter struct {
	mu        sync.Mutex
	held, top int
	since     time.Time // of the last change of held
	connTime  time.Duration
}

func (m *connMeter) change(d int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	m.connTime += time.Duration(m.held) * now.Sub(m.since)
	m.held += d
	m.since = now
	m.top = max(m.top, m.held)
}

// reset starts a new measurement (nothing is held).
func (m *connMeter) reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.top, m.connTime, m.since = 0, 0, time.Now()
}

func (m *connMeter) read() (held, top int, connTime time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.held, m.top, m.connTime + time.Duration(m.held)*time.Since(m.since)
}

// TestHTTP_AFanoutRequestHoldsAtMostItsWeightInConnections measures, on a space of 3,000
// events, the most hot-path connections one request of each fanout route (checkout and the
// routes built on it) holds at once, alone on an idle server: that is what api counts such a
// request as in its caller's fair share (docs/security.md, Bounded work). The test fails when
// a route holds more, so that a lane added to checkout cannot take more of the pool than the
// gate lets its caller have.
func TestHTTP_AFanoutRequestHoldsAtMostItsWeightInConnections(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	cfg, err := pgxpool.ParseConfig(db.AppURL)
	require.NoError(t, err)
	cfg.MaxConns = 16
	pgexec.Configure(cfg)
	meter := &connMeter{since: time.Now()}
	cfg.PrepareConn = func(context.Context, *pgx.Conn) (bool, error) { meter.change(1); return true, nil }
	cfg.AfterRelease = func(*pgx.Conn) bool { meter.change(-1); return true }
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	seedBusySpace(t, pool, "busy", 3000)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: eventloom.NewStore(pool, nil, nil)}, nil))
	t.Cleanup(srv.Close)

	routes := []struct{ path, body string }{
		{"/checkout", `{"query":"where does Alice work","session_id":"s1"}`},
		{"/query", `{"query":"where does Alice work","session_id":"s1"}`},
		{"/context/assemble", `{"query":"where does Alice work","session_id":"s1"}`},
		{"/context/after-turn", `{"session_id":"s1","query":"where does Alice work","events":[{"type":"message","content":"Alice asks where the team meets","data":{"role":"user"}}]}`},
		{"/handoff", `{"session_id":"s1","tail_events":20}`},
		{"/weave", `{"goal":"find where Alice works","reasoning_phase":"act"}`},
		{"/prospective", `{"goal":"find where Alice works","reasoning_phase":"act"}`},
		{"/subagents/helper-1/cleanup", `{"outcome":"success","summary":"Alice works at Acme 3"}`},
		{"/sessions/s1/resume", ``},
	}
	tops := map[string]int{}
	for _, rt := range routes {
		top, sum, wall := 0, time.Duration(0), time.Duration(0)
		for range 5 {
			// Wait until the previous request's work (a surfaced record's enqueue after the
			// answer) has given its connections back.
			require.Eventually(t, func() bool { held, _, _ := meter.read(); return held == 0 }, 30*time.Second, time.Millisecond)
			meter.reset()
			start := time.Now()
			resp, err := http.Post(srv.URL+"/v1/spaces/busy"+rt.path, "application/json", strings.NewReader(rt.body))
			require.NoError(t, err)
			took := time.Since(start)
			resp.Body.Close()
			require.Less(t, resp.StatusCode, 300, rt.path)
			require.Eventually(t, func() bool { held, _, _ := meter.read(); return held == 0 }, 30*time.Second, time.Millisecond)
			_, n, ct := meter.read()
			top, sum, wall = max(top, n), sum+ct, wall+took
		}
		t.Logf("%-28s at most %d connections at once, %.1f on average over the request", rt.path, top, float64(sum)/float64(wall))
		tops[rt.path] = top
	}
	for path, top := range tops {
		require.LessOrEqual(t, top, api.FanoutConns, "%s holds more connections at once than its caller's share counts it for", path)
	}
}
