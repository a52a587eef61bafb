package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
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
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// The two-tenant fairness tests run one tenant (the attacker) at its whole in-flight budget
// against a server whose pools are sized as zaxy serve's defaults (16 hot-path, 4 analytics
// connections), and time another tenant's (the victim's) requests, one at a time.
//
// Their assertion is a ratio of p95s, as the service promises (docs/security.md, Bounded
// work): the victim's p95 while the attacker runs stays within 3x its idle p95. To hold on a
// loaded machine, both p95s come from the same run, interleaved: fairRounds rounds each time
// fairSamples idle requests, then starts the attack, waits until it is under way and times
// fairSamples loaded requests, then stops it. Whatever else the machine runs slows both
// alike. The bound also has an absolute floor, idle p95 + 50 ms: a 2 ms idle read is not
// failed for taking 7 ms while the attacker's queries share the CPU, which no connection
// pool can apportion. What the test guards against is the victim waiting for a connection
// behind the attacker's work: seconds before the fair share, far past either bound.
const (
	fairRounds  = 4
	fairSamples = 15
	fairFloor   = 50 * time.Millisecond
	// fairAttempts is how many runs in a row must fail before the test does.
	fairAttempts = 3
)

// fairEnv is a server with the default pool sizes and auth on, and a token per tenant.
type fairEnv struct {
	url              string
	attacker, victim string // bearer tokens
	watch            *pgxpool.Pool
	pool             *pgxpool.Pool // the hot-path pool
}

func newFairEnv(t *testing.T, attackerScope string) *fairEnv {
	t.Helper()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	open := func(conns int32) *pgxpool.Pool {
		cfg, err := pgxpool.ParseConfig(db.AppURL)
		require.NoError(t, err)
		cfg.MaxConns = conns
		pgexec.Configure(cfg)
		pool, err := pgxpool.NewWithConfig(ctx, cfg)
		require.NoError(t, err)
		t.Cleanup(pool.Close)
		return pool
	}
	pool, analytics := open(16), open(4)
	seedGraphs(t, pool, "attacker", "victim")
	tokens := auth.NewStore(pool)
	_, attacker, err := tokens.Create(ctx, []string{"attacker"}, attackerScope, "")
	require.NoError(t, err)
	_, victim, err := tokens.Create(ctx, []string{"victim"}, auth.ScopeWrite, "")
	require.NoError(t, err)
	store := eventloom.NewStore(pool, nil, nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Auth: tokens, Analytics: analytics}, nil))
	t.Cleanup(srv.Close)
	return &fairEnv{url: srv.URL, attacker: attacker, victim: victim, watch: db.AdminPool(t), pool: pool}
}

// do sends one request as token (none when "") and returns its status and body.
func (e *fairEnv) do(ctx context.Context, method, path, token, body string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, method, e.url+path, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// attack runs n goroutines sending the attacker's request again and again until stopped, and
// counts those that completed with want (one refused by the budget is sent again).
type attack struct {
	cancel context.CancelFunc
	done   sync.WaitGroup
	ok     atomic.Int64
}

func (e *fairEnv) startAttack(t *testing.T, n int, method, path, body string, want int) *attack {
	ctx, cancel := context.WithCancel(context.Background())
	a := &attack{cancel: cancel}
	for range n {
		a.done.Go(func() {
			for ctx.Err() == nil {
				status, b, err := e.do(ctx, method, path, e.attacker, body)
				switch {
				case ctx.Err() != nil:
				case err != nil:
					t.Errorf("attacker: %v", err)
					return
				case status == http.StatusTooManyRequests:
					// The previous round's requests, given up by their client, are still
					// leaving the server: their budget is free a moment later.
					time.Sleep(10 * time.Millisecond)
				case status != want:
					t.Errorf("attacker: %d %s", status, b)
					return
				default:
					a.ok.Add(1)
				}
			}
		})
	}
	t.Cleanup(a.stop)
	return a
}

func (a *attack) stop() { a.cancel(); a.done.Wait() }

// p95 is the 95th percentile of ds (nearest rank).
func p95(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*95 + 99) / 100
	return s[max(i-1, 0)]
}

// victimPatience is how long the test waits for one victim request before failing: far past
// any bound, far short of the request deadline a starved request would wait for.
const victimPatience = 10 * time.Second

// timeVictim times n of the victim's requests, one after the other, each expected to answer
// want.
func (e *fairEnv) timeVictim(t *testing.T, n int, method, path, body string, want int) []time.Duration {
	t.Helper()
	var out []time.Duration
	for range n {
		ctx, cancel := context.WithTimeout(context.Background(), victimPatience)
		start := time.Now()
		status, b, err := e.do(ctx, method, path, e.victim, body)
		took := time.Since(start)
		cancel()
		require.NoError(t, err, "the victim's request did not finish in %v", victimPatience)
		require.Equal(t, want, status, b)
		out = append(out, took)
	}
	return out
}

// compareP95 runs the interleaved rounds: start begins the attack and returns once it is
// under way, stop ends it; victim times the victim's requests. A run fails when the loaded p95
// passes max(3x idle p95, idle p95 + fairFloor); the test fails when fairAttempts runs in a row
// do. A victim queued behind the attacker fails every run by far (3.2 to 5.4 times the bound
// with the fair gate off, docs/security.md); a burst of other work on a loaded machine that
// lands in one run's loaded half only is not a failure of fairness.
func compareP95(t *testing.T, start func() func(), victim func(n int) []time.Duration) {
	t.Helper()
	victim(3) // warm up: connections, plans
	var idleP, loadedP, bound time.Duration
	for attempt := 1; attempt <= fairAttempts; attempt++ {
		var idle, loaded []time.Duration
		for range fairRounds {
			idle = append(idle, victim(fairSamples)...)
			stop := start()
			loaded = append(loaded, victim(fairSamples)...)
			stop()
		}
		idleP, loadedP = p95(idle), p95(loaded)
		bound = max(3*idleP, idleP+fairFloor)
		t.Logf("run %d: victim p95 idle %v, under attack %v (bound %v; %d samples each)", attempt, idleP, loadedP, bound, len(idle))
		if loadedP <= bound {
			return
		}
	}
	require.LessOrEqual(t, loadedP, bound, "the attacker's load slowed the other tenant past its bound in %d runs: idle p95 %v, loaded p95 %v", fairAttempts, idleP, loadedP)
}

func TestHTTP_FairShare_SlowAnalyticsOfOneTokenLeaveAnotherSpacesFactsFast(t *testing.T) {
	e := newFairEnv(t, auth.ScopeRead)
	compareP95(t, func() func() {
		// The attacker's whole analytics budget (4) of slow Cypher, which alone would take the
		// whole analytics pool (4).
		a := e.startAttack(t, api.DefaultMaxAnalyticsInFlight, "POST", "/v1/spaces/attacker/cypher", slowCypher, http.StatusOK)
		require.Eventually(t, func() bool { return runningSlowQueries(t, e.watch) >= 2 }, 30*time.Second, 5*time.Millisecond,
			"the attacker's slow queries never reached the database")
		return func() {
			a.stop()
			require.Eventually(t, func() bool { return runningSlowQueries(t, e.watch) == 0 }, 30*time.Second, 5*time.Millisecond)
		}
	}, func(n int) []time.Duration {
		return e.timeVictim(t, n, "GET", "/v1/spaces/victim/facts", "", http.StatusOK)
	})
}

// TestHTTP_FairShare_CheckoutsOfOneTokenLeaveAnotherSpacesAppendsFast: the attacker's space
// holds 3,000 projected events, so that each of its checkouts does real work in every lane
// (tens of milliseconds, up to 9 hot-path connections at once). Its 32 checkouts at once
// would take the whole hot-path pool, and the victim's appends would wait in line for a
// connection behind their lanes: without the fair gate the victim's loaded p95 was 3 to 5
// times the bound (230 ms against 71 ms, 242 against 71, 389 against 72, at load 8 to 11).
func TestHTTP_FairShare_CheckoutsOfOneTokenLeaveAnotherSpacesAppendsFast(t *testing.T) {
	e := newFairEnv(t, auth.ScopeRead)
	seedBusySpace(t, e.pool, "attacker", 3000)
	seq := 0
	compareP95(t, func() func() {
		// The attacker's whole in-flight budget (32) of checkouts, one after another.
		a := e.startAttack(t, api.DefaultMaxInFlight, "POST", "/v1/spaces/attacker/checkout", `{"query":"where does Alice work"}`, http.StatusOK)
		base := a.ok.Load()
		require.Eventually(t, func() bool { return a.ok.Load() >= base+api.DefaultMaxInFlight }, 60*time.Second, 5*time.Millisecond,
			"the attacker's checkouts made no progress")
		return a.stop
	}, func(n int) []time.Duration {
		var out []time.Duration
		for range n {
			seq++
			out = append(out, e.timeVictim(t, 1, "POST", "/v1/spaces/victim/events", fmt.Sprintf(`{"type":"note","content":"victim note %d"}`, seq), http.StatusCreated)...)
		}
		return out
	})
}

// seedBusySpace appends n events to space (conversation turns across sessions naming a few
// people and companies, and facts about them) in batches and projects them, so that a
// checkout of "where does Alice work" has thousands of candidates in every lane.
func seedBusySpace(t *testing.T, pool *pgxpool.Pool, space string, n int) {
	t.Helper()
	store := eventloom.NewStore(pool, nil, nil)
	people := []string{"Alice", "Bob", "Carol", "Dana", "Erik", "Farah", "Goran", "Hana"}
	var batch []eventloom.NewEvent
	for i := range n {
		who, where := people[i%len(people)], fmt.Sprintf("Acme %d", i%40)
		if i%4 == 3 {
			batch = append(batch, eventloom.NewEvent{Type: "fact.asserted",
				Data: json.RawMessage(fmt.Sprintf(`{"subject":%q,"predicate":"works at","object":%q}`, who, where))})
		} else {
			batch = append(batch, eventloom.NewEvent{Type: "message", SessionID: fmt.Sprintf("s%d", i%60),
				Content: fmt.Sprintf("Turn %d: %s said Alice works with %s at %s on the project %d, and where the team meets next week.", i, who, people[(i+3)%len(people)], where, i%97),
				Data:    json.RawMessage(`{"role":"user"}`)})
		}
		if len(batch) == 1000 || i == n-1 {
			fixture.Append(t, store, space, batch...)
			batch = nil
		}
	}
	fixture.Project(t, pool, space)
}

// TestHTTP_FairShareWithAuthOffIsPerSpace: with auth off each space is a caller. One space's
// whole analytics budget of slow Cypher (4) gets half of the analytics pool (2 of 4
// connections), its other two calls wait at the gate, and another space's GET /facts is
// answered on the connections left while all four are in flight. Without the gate the four
// took the whole pool and the other space's read waited for one of them to end.
func TestHTTP_FairShareWithAuthOffIsPerSpace(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	seedGraphs(t, pool, "space-a", "space-b")
	acfg, err := pgxpool.ParseConfig(db.AppURL)
	require.NoError(t, err)
	acfg.MaxConns = 4
	analytics, err := pgxpool.NewWithConfig(ctx, acfg)
	require.NoError(t, err)
	t.Cleanup(analytics.Close)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: eventloom.NewStore(pool, nil, nil), Analytics: analytics}, nil))
	t.Cleanup(srv.Close)
	e := &fairEnv{url: srv.URL} // no tokens: auth is off
	watch := db.AdminPool(t)

	// space-a's whole analytics budget of slow calls. A call refused by the budget (while the
	// probe below held a slot) is sent again; any other answer ends it.
	slowCtx, cancel := context.WithCancel(ctx)
	var slow sync.WaitGroup
	var returned atomic.Int64
	for range api.DefaultMaxAnalyticsInFlight {
		slow.Go(func() {
			for slowCtx.Err() == nil {
				req, _ := http.NewRequestWithContext(slowCtx, "POST", srv.URL+"/v1/spaces/space-a/cypher", strings.NewReader(slowCypher))
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err == nil {
					resp.Body.Close()
					if resp.StatusCode == http.StatusTooManyRequests {
						time.Sleep(10 * time.Millisecond)
						continue
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
		require.Eventually(t, func() bool { return runningSlowQueries(t, watch) == 0 }, 30*time.Second, 20*time.Millisecond)
	})
	require.Eventually(t, func() bool { return runningSlowQueries(t, watch) >= 2 }, 30*time.Second, 5*time.Millisecond,
		"space-a's slow calls never reached the database")
	// All four are in flight once one more analytics call of space-a is refused at once. (A
	// probe sent before that waits at the gate: it is given up and sent again.)
	require.Eventually(t, func() bool {
		probe, stop := context.WithTimeout(ctx, time.Second)
		defer stop()
		status, _, err := e.do(probe, "GET", "/v1/spaces/space-a/facts", "", "")
		return err == nil && status == http.StatusTooManyRequests
	}, 30*time.Second, 10*time.Millisecond, "space-a's four calls never were in flight together")

	// space-b's read is answered on the connections left.
	patient, stop := context.WithTimeout(ctx, victimPatience)
	defer stop()
	status, body, err := e.do(patient, "GET", "/v1/spaces/space-b/facts", "", "")
	require.NoError(t, err, "space-b's read waited for space-a's slow calls")
	require.Equal(t, http.StatusOK, status, body)

	require.Zero(t, returned.Load(), "space-a's four calls were all still in flight")
	require.Eventually(t, func() bool { return runningSlowQueries(t, watch) == 2 }, 30*time.Second, 10*time.Millisecond,
		"space-a runs on its share of the pool (2 of 4), its other calls waiting at the gate")
}
