package api_test

import (
	"context"
	"encoding/json"
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
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/testcontainers"
)

// replicaEnv is an API served on a real primary and a real standby of it (testcontainers
// clusters), the standby behind a replica.Set whose health loop runs for the test.
type replicaEnv struct {
	url     string
	primary *testcontainers.Cluster
	standby *testcontainers.Standby
	set     *replica.Set
	pool    *pgxpool.Pool
	// db is the test's database on the primary; standbyDB the same database on the standby.
	db, standbyDB *testcontainers.Database
}

func newReplicaEnv(t testing.TB, delay time.Duration) *replicaEnv {
	t.Helper()
	primary := testcontainers.StartCluster(t, "rywprimary")
	db := primary.NewDatabase(t)
	pool := db.AppPool(t)
	standby := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{ApplyDelay: delay})
	standbyDB := standby.Database(db)
	rpool := standbyDB.AppPool(t)
	set := replica.NewSet(pool, []*replica.Standby{{Name: "standby", Pool: rpool}},
		replica.Config{Wait: 200 * time.Millisecond, MaxLag: time.Minute, HealthInterval: 50 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { set.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: eventloom.NewStore(pool, nil, nil), Replicas: set}, nil))
	t.Cleanup(srv.Close)
	waitFor(t, "the standby to be measured up", func() bool { return set.Standbys()[0].Up() })
	return &replicaEnv{url: srv.URL, primary: primary, standby: standby, set: set, pool: pool, db: db, standbyDB: standbyDB}
}

// waitFor polls cond until it holds, failing the test after two minutes.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// call makes one request and returns its status, headers and body.
func (e *replicaEnv) call(t testing.TB, method, path, body string, header ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, e.url+path, strings.NewReader(body))
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, string(b)
}

// TestReplica_ReadYourWrites: behind a standby that applies each commit 2 s late, a write
// answers a Zaxy-Consistency token, in the header and as its body's consistency field; a read sending it back sees the write (from the primary
// after the bounded wait while the standby lags, from the standby once it has replayed the
// token); a read without the token is served by the standby; a malformed token is a 400
// naming the header; /metrics counts each kind of read, the waits and the fallbacks.
func TestReplica_ReadYourWrites(t *testing.T) {
	t.Parallel()
	const delay = 2 * time.Second
	e := newReplicaEnv(t, delay)

	// An event the standby has replayed, so the space exists there.
	status, h, body := e.call(t, http.MethodPost, "/v1/spaces/ryw/events", `{"type":"note","content":"first"}`)
	require.Equal(t, http.StatusCreated, status, body)
	first := h.Get(replica.Header)
	tok, err := replica.ParseToken(first)
	require.NoError(t, err, "a write answers a token")
	e.standby.WaitReplay(t, tok.LSN.String())

	status, h, body = e.call(t, http.MethodPost, "/v1/spaces/ryw/events", `{"type":"fact.asserted","content":"second","data":{"subject":"Alice","predicate":"knows","object":"Bob"}}`)
	wrote := time.Now()
	require.Equal(t, http.StatusCreated, status, body)
	var answer struct {
		Consistency string `json:"consistency"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &answer))
	require.Equal(t, h.Get(replica.Header), answer.Consistency, "the append's body carries the header's token")
	token := answer.Consistency
	second, err := replica.ParseToken(token)
	require.NoError(t, err)
	require.Greater(t, second.LSN, tok.LSN)

	status, h, body = e.call(t, http.MethodGet, "/v1/spaces/ryw/events", "", replica.Header, token)
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, `"second"`, "a read with the token sees the write")
	if time.Since(wrote) < delay*3/4 {
		require.Equal(t, replica.FromPrimary, h.Get(replica.ReadFromHeader), "the standby cannot have applied the write yet")
		st := e.set.Stats()
		require.EqualValues(t, 1, st.Waits)
		require.EqualValues(t, 1, st.Fallbacks)
	}

	status, h, _ = e.call(t, http.MethodGet, "/v1/spaces/ryw/events", "")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, replica.FromReplica, h.Get(replica.ReadFromHeader), "a read without a token goes to the healthy standby")

	// The space's graph, projected on the primary, for the Cypher read.
	proj, err := projection.New(t.Context(), e.pool, projection.Config{})
	require.NoError(t, err)
	_, err = proj.ProjectSpace(t.Context(), "ryw")
	require.NoError(t, err)
	e.standby.CatchUp(t)
	for _, path := range []string{"/v1/spaces/ryw/events", "/v1/spaces/ryw/timeline", "/v1/spaces/ryw/index", "/v1/spaces/ryw/facts", "/v1/spaces/ryw/verify"} {
		status, h, body = e.call(t, http.MethodGet, path, "", replica.Header, token)
		require.Equal(t, http.StatusOK, status, path+": "+body)
		require.Equal(t, replica.FromReplica, h.Get(replica.ReadFromHeader), path+": the standby has replayed the token")
	}
	status, h, body = e.call(t, http.MethodGet, "/v1/spaces/ryw/events", "", replica.Header, token)
	require.Contains(t, body, `"second"`)
	status, h, body = e.call(t, http.MethodPost, "/v1/spaces/ryw/cypher", `{"query":"MATCH (n) RETURN count(n)"}`, replica.Header, token)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, replica.FromReplica, h.Get(replica.ReadFromHeader), "Cypher runs on the standby")

	status, h, body = e.call(t, http.MethodGet, "/v1/spaces/ryw/events?limit=0", "")
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Equal(t, replica.FromReplica, h.Get(replica.ReadFromHeader), "an error answer says where the read ran too")

	for _, bad := range []string{"0/16B3F20", "lsn:", "lsn:0/xyz", "lsn:0/16B3F20x", "lsn:0/0", "lsn:123456789/0"} {
		status, _, body = e.call(t, http.MethodGet, "/v1/spaces/ryw/events", "", replica.Header, bad)
		require.Equal(t, http.StatusBadRequest, status, bad)
		var out struct {
			Error struct {
				Details map[string]any `json:"details"`
			} `json:"error"`
		}
		require.NoError(t, json.Unmarshal([]byte(body), &out))
		require.Equal(t, replica.Header, out.Error.Details["field"], bad)
	}

	status, _, body = e.call(t, http.MethodGet, "/metrics", "")
	require.Equal(t, http.StatusOK, status)
	for _, series := range []string{`zaxy_reads_total{from="primary"}`, `zaxy_reads_total{from="replica"}`, "zaxy_read_waits_total", "zaxy_read_fallbacks_total", `zaxy_standby_lag_seconds{standby="standby"}`} {
		require.Contains(t, body, series)
	}
}

// TestReplica_StandbyStoppedMidLoad: readers and a writer keep going while the standby is
// stopped and started again; every request succeeds, reads fall back to the primary while it
// is down and return to it once it is back.
func TestReplica_StandbyStoppedMidLoad(t *testing.T) {
	t.Parallel()
	e := newReplicaEnv(t, 0)
	status, h, body := e.call(t, http.MethodPost, "/v1/spaces/load/events", `{"type":"note","content":"seed"}`)
	require.Equal(t, http.StatusCreated, status, body)
	tok, err := replica.ParseToken(h.Get(replica.Header))
	require.NoError(t, err)
	e.standby.WaitReplay(t, tok.LSN.String())

	var primaryReads, replicaReads atomic.Int64
	var failures []string
	var mu sync.Mutex
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				method, path, body := http.MethodGet, "/v1/spaces/load/events?limit=5", ""
				if i == 0 {
					method, path, body = http.MethodPost, "/v1/spaces/load/events", `{"type":"note","content":"more"}`
				}
				status, h, out := e.call(t, method, path, body)
				if status >= 300 {
					mu.Lock()
					failures = append(failures, method+" "+path+": "+out)
					mu.Unlock()
				}
				switch h.Get(replica.ReadFromHeader) {
				case replica.FromPrimary:
					primaryReads.Add(1)
				case replica.FromReplica:
					replicaReads.Add(1)
				}
			}
		})
	}
	waitFor(t, "reads from the standby", func() bool { return replicaReads.Load() >= 20 })
	e.standby.Stop(t)
	before := primaryReads.Load()
	waitFor(t, "reads to fall back to the primary", func() bool { return primaryReads.Load() >= before+50 })
	require.False(t, e.set.Standbys()[0].Up(), "the stopped standby is marked down")
	e.standby.Start(t)
	back := replicaReads.Load()
	waitFor(t, "reads to return to the standby", func() bool { return replicaReads.Load() >= back+20 })
	close(stop)
	wg.Wait()
	require.Empty(t, failures, "no request fails while the standby stops and starts")
}

// BenchmarkReplica_Read is one replay read of a small space over HTTP: without standbys (as a
// single cluster serves it), and with one standby, sending a token the last measurement covers
// (served by the standby: the consistency check without a round trip) or a token no standby has
// reached (the primary after the wait is skipped: ZAXY_REPLICA_WAIT is 1 ns here, so this is the
// cost of one poll and the fallback).
func BenchmarkReplica_Read(b *testing.B) {
	e := newReplicaEnv(b, 0)
	status, h, body := e.call(b, http.MethodPost, "/v1/spaces/bench/events", `{"type":"note","content":"x"}`)
	require.Equal(b, http.StatusCreated, status, body)
	token := h.Get(replica.Header)
	tok, err := replica.ParseToken(token)
	require.NoError(b, err)
	e.standby.WaitReplay(b, tok.LSN.String())
	waitFor(b, "the measurement to cover the token", func() bool { return e.set.Standbys()[0].Replay() >= tok.LSN })
	single := httptest.NewServer(apitest.NewHandler(b, api.Config{}, api.Services{Pool: e.pool, Store: eventloom.NewStore(e.pool, nil, nil)}, nil))
	b.Cleanup(single.Close)
	noWait := replica.NewSet(e.pool, e.set.Standbys(), replica.Config{Wait: time.Nanosecond, MaxLag: time.Minute})
	fallback := httptest.NewServer(apitest.NewHandler(b, api.Config{}, api.Services{Pool: e.pool, Store: eventloom.NewStore(e.pool, nil, nil), Replicas: noWait}, nil))
	b.Cleanup(fallback.Close)
	ahead := replica.Token{LSN: tok.LSN + 1<<30}.String()
	run := func(b *testing.B, url, token, from string) {
		req, err := http.NewRequest(http.MethodGet, url+"/v1/spaces/bench/events?limit=1", nil)
		require.NoError(b, err)
		if token != "" {
			req.Header.Set(replica.Header, token)
		}
		for b.Loop() {
			resp, err := http.DefaultClient.Do(req)
			require.NoError(b, err)
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || resp.Header.Get(replica.ReadFromHeader) != from {
				b.Fatalf("status %d from %q", resp.StatusCode, resp.Header.Get(replica.ReadFromHeader))
			}
		}
	}
	b.Run("single-cluster", func(b *testing.B) { run(b, single.URL, "", replica.FromPrimary) })
	b.Run("replica-covered-token", func(b *testing.B) { run(b, e.url, token, replica.FromReplica) })
	b.Run("replica-no-token", func(b *testing.B) { run(b, e.url, "", replica.FromReplica) })
	b.Run("primary-after-one-poll", func(b *testing.B) { run(b, fallback.URL, ahead, replica.FromPrimary) })
}

// TestReplica_CheckoutRanksOnTheStandbyAndRecordsOnThePrimary: with the token of an append the
// projector has not reached, a checkout served by the standby finds the append through the
// verbatim lane's read of the not-yet-projected tail there, and records what it surfaced on the
// primary (the standby is read-only).
func TestReplica_CheckoutRanksOnTheStandbyAndRecordsOnThePrimary(t *testing.T) {
	t.Parallel()
	e := newReplicaEnv(t, 0)
	status, h, body := e.call(t, http.MethodPost, "/v1/spaces/co/events", `{"type":"note","content":"the registry timeout is 45 seconds zanzibar"}`)
	require.Equal(t, http.StatusCreated, status, body)
	token := h.Get(replica.Header)
	tok, err := replica.ParseToken(token)
	require.NoError(t, err)
	e.standby.WaitReplay(t, tok.LSN.String())
	waitFor(t, "the measurement to cover the token", func() bool { return e.set.Standbys()[0].Replay() >= tok.LSN })

	status, h, body = e.call(t, http.MethodPost, "/v1/spaces/co/checkout", `{"query":"registry timeout zanzibar","max_tokens":500}`, replica.Header, token)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, replica.FromReplica, h.Get(replica.ReadFromHeader))
	require.Contains(t, body, "zanzibar", "the unprojected append reaches the packet through the standby's tail")
	var recorded int
	require.NoError(t, e.pool.QueryRow(t.Context(), `SELECT count(*) FROM events WHERE space_id = 'co' AND type = 'checkout.surfaced'`).Scan(&recorded))
	require.Equal(t, 1, recorded, "the surfacing is recorded on the primary")

	status, h, body = e.call(t, http.MethodPost, "/v1/spaces/co/query", `{"query":"registry timeout zanzibar"}`, replica.Header, token)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, replica.FromReplica, h.Get(replica.ReadFromHeader))
	require.Contains(t, body, "zanzibar")
}
