package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/testcontainers"
)

// servedProcess is a `zaxy serve` run in this test process.
type servedProcess struct {
	base   string
	stderr *lockedBuffer
	stop   func()
}

// startServe runs `zaxy serve` with env (the offline embedder, no auth, a free port added) and
// returns it once it listens; stop ends it (also at the test's end).
func startServe(t *testing.T, env map[string]string) *servedProcess {
	t.Helper()
	full := map[string]string{"ZAXY_ADDR": "127.0.0.1:0", "ZAXY_AUTH": "off", "ZAXY_EMBEDDER": "offline",
		"ZAXY_SHUTDOWN_TIMEOUT": "10s"}
	for k, v := range env {
		full[k] = v
	}
	ctx, cancel := context.WithCancel(context.Background())
	var stdout lockedBuffer
	p := &servedProcess{stderr: &lockedBuffer{}}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve"}, func(k string) string { return full[k] }, nil, &stdout, p.stderr)
	}()
	stopped := false
	p.stop = func() {
		if !stopped {
			stopped = true
			cancel()
			<-done
		}
	}
	t.Cleanup(p.stop)
	require.Eventually(t, func() bool {
		_, addr, ok := strings.Cut(stdout.String(), "zaxy serving on ")
		p.base = strings.TrimSpace(addr)
		return ok && strings.HasSuffix(stdout.String(), "\n")
	}, 2*time.Minute, 20*time.Millisecond, "serve never listened: %s", p.stderr.String())
	return p
}

// answer is an HTTP answer: its status, headers and JSON body.
type answer struct {
	status int
	header http.Header
	body   map[string]any
}

// errorCode is the answer's error code ("" when it is not an error body).
func (a answer) errorCode() string {
	e, _ := a.body["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

// call sends a request with an optional consistency token and decodes the JSON answer.
func (p *servedProcess) call(t *testing.T, method, path, body, token string) answer {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, p.base+path, r)
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set(replica.Header, token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	a := answer{status: resp.StatusCode, header: resp.Header, body: map[string]any{}}
	_ = json.Unmarshal(raw, &a.body)
	return a
}

// appendNote appends one note to space and returns the answer.
func (p *servedProcess) appendNote(t *testing.T, space, content string) answer {
	t.Helper()
	return p.call(t, http.MethodPost, "/v1/spaces/"+space+"/events", fmt.Sprintf(`{"type":"note","content":%q}`, content), "")
}

// multiHostURL is dsn with its host list replaced by 127.0.0.1 on each port, in order, and
// target_session_attrs=read-write: the URL an HA deployment without a proxy gives
// ZAXY_DATABASE_URL, so that connections go to whichever host accepts writes.
func multiHostURL(t *testing.T, dsn string, ports ...int) string {
	t.Helper()
	u, err := url.Parse(dsn)
	require.NoError(t, err)
	hosts := make([]string, len(ports))
	for i, port := range ports {
		hosts[i] = fmt.Sprintf("127.0.0.1:%d", port)
	}
	u.Host = strings.Join(hosts, ",")
	q := u.Query()
	q.Set("target_session_attrs", "read-write")
	u.RawQuery = q.Encode()
	return u.String()
}

// A primary fails and its standby is promoted (pg_promote, what Patroni or pg_auto_failover
// does). While the primary is down, a process pointed at it answers writes and /readyz with
// 503 database_unavailable / database_unreachable, and keeps serving reads from the standby,
// a read with a token issued before the failure included. Once the standby is promoted it is
// no standby any more: that process stops reading from it and its reads fail with the primary
// (503, never a stale or wrong answer). A process whose ZAXY_DATABASE_URL lists both hosts
// with target_session_attrs=read-write appends again without a restart; a process restarted
// against the promoted node appends too; the chain continues at the next seq and verifies,
// the new timeline's tokens are past every token of the old one, a token issued by the old
// primary is honoured on the new one, and River projects the space to its head there.
func TestServe_PrimaryFailsAndItsStandbyIsPromoted(t *testing.T) {
	t.Parallel()
	primary := testcontainers.StartCluster(t, "failprim")
	db := primary.NewDatabase(t)
	standby := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{})
	promoted := standby.Database(db)
	// Health measured every second (the default); a short wait keeps fallbacks quick.
	common := map[string]string{"ZAXY_REPLICA_URLS": promoted.AppURL, "ZAXY_REPLICA_WAIT": "100ms"}
	withURL := func(dsn string) map[string]string {
		env := map[string]string{"ZAXY_DATABASE_URL": dsn}
		for k, v := range common {
			env[k] = v
		}
		return env
	}
	single := startServe(t, withURL(db.AppURL))
	multi := startServe(t, withURL(multiHostURL(t, db.AppURL, primary.Port, standby.Port)))

	const space = "failover"
	var oldToken string
	for i := range 10 {
		p := single
		if i%2 == 1 {
			p = multi
		}
		a := p.appendNote(t, space, fmt.Sprintf("before the failover %d", i))
		require.Equal(t, http.StatusCreated, a.status, a.body)
		oldToken = a.header.Get(replica.Header)
	}
	old, err := replica.ParseToken(oldToken)
	require.NoError(t, err)
	before := single.call(t, http.MethodGet, "/v1/spaces/"+space+"/verify", "", oldToken)
	require.Equal(t, http.StatusOK, before.status, before.body)
	require.Equal(t, true, before.body["ok"])
	require.EqualValues(t, 10, before.body["head_seq"])
	standby.WaitReplay(t, old.LSN.String())

	// The primary fails.
	primary.Stop(t)
	for _, p := range []*servedProcess{single, multi} {
		a := p.appendNote(t, space, "while the primary is down")
		require.Equal(t, http.StatusServiceUnavailable, a.status, a.body)
		require.Equal(t, "database_unavailable", a.errorCode(), a.body)
		require.NotEmpty(t, a.header.Get("Retry-After"))
		ready := p.call(t, http.MethodGet, "/readyz", "", "")
		require.Equal(t, http.StatusServiceUnavailable, ready.status, ready.body)
		require.Equal(t, "database_unreachable", ready.errorCode(), ready.body)
		// Reads go on from the standby, with the old primary's token too: it has replayed it.
		read := p.call(t, http.MethodGet, "/v1/spaces/"+space+"/events", "", oldToken)
		require.Equal(t, http.StatusOK, read.status, read.body)
		require.Equal(t, replica.FromReplica, read.header.Get(replica.ReadFromHeader))
		require.Len(t, read.body["events"], 10)
	}

	// The HA tool promotes the standby.
	timelineStart, err := replica.ParseLSN(standby.Promote(t))
	require.NoError(t, err)
	require.GreaterOrEqual(t, timelineStart, old.LSN, "the new timeline starts past every position the standby replayed")

	// The process still pointed at the failed primary: the promoted server is no standby, so
	// once the health loop has seen it (within a second or two) reads leave it and fail with
	// the primary; writes and readiness keep failing. Nothing is answered from a wrong server.
	waitForProgress(t, "the single-host process stops reading from the promoted server", 2*time.Minute, 50*time.Millisecond,
		func() int64 { return 0 },
		func(int64) bool {
			read := single.call(t, http.MethodGet, "/v1/spaces/"+space+"/events", "", "")
			if read.status == http.StatusOK {
				require.Equal(t, replica.FromReplica, read.header.Get(replica.ReadFromHeader))
				return false
			}
			require.Equal(t, http.StatusServiceUnavailable, read.status, read.body)
			require.Equal(t, "database_unavailable", read.errorCode(), read.body)
			return true
		})
	a := single.appendNote(t, space, "to the failed primary")
	require.Equal(t, http.StatusServiceUnavailable, a.status, a.body)
	require.Equal(t, "database_unavailable", a.errorCode(), a.body)

	// The process with the multi-host URL appends again without a restart: its pool's new
	// connections skip the failed host and take the promoted one, which accepts writes.
	var newToken string
	waitForProgress(t, "the multi-host process appends on the promoted server", 2*time.Minute, 50*time.Millisecond,
		func() int64 { return 0 },
		func(int64) bool {
			a := multi.appendNote(t, space, "after the promotion, same process")
			if a.status == http.StatusCreated {
				newToken = a.header.Get(replica.Header)
				return true
			}
			require.Equal(t, http.StatusServiceUnavailable, a.status, a.body)
			require.Equal(t, "database_unavailable", a.errorCode(), a.body)
			return false
		})
	nt, err := replica.ParseToken(newToken)
	require.NoError(t, err)
	require.Greater(t, nt.LSN, old.LSN, "a token of the new timeline is past every token of the old one")
	ready := multi.call(t, http.MethodGet, "/readyz", "", "")
	require.Equal(t, http.StatusOK, ready.status, ready.body)

	// A process restarted against the promoted node (no standbys left) appends and reads.
	single.stop()
	restarted := startServe(t, map[string]string{"ZAXY_DATABASE_URL": promoted.AppURL})
	a = restarted.appendNote(t, space, "after the promotion, restarted process")
	require.Equal(t, http.StatusCreated, a.status, a.body)
	read := restarted.call(t, http.MethodGet, "/v1/spaces/"+space+"/events", "", oldToken)
	require.Equal(t, http.StatusOK, read.status, read.body)
	require.Equal(t, replica.FromPrimary, read.header.Get(replica.ReadFromHeader))
	require.Len(t, read.body["events"], 12, "the old primary's token reads every acknowledged write on the new one")
	for _, p := range []*servedProcess{multi, restarted} {
		v := p.call(t, http.MethodGet, "/v1/spaces/"+space+"/verify", "", "")
		require.Equal(t, http.StatusOK, v.status, v.body)
		require.Equal(t, true, v.body["ok"], v.body)
		require.EqualValues(t, 12, v.body["head_seq"], "the chain continues at the next seq")
	}
	events, _ := read.body["events"].([]any)
	require.Len(t, events, 12)
	require.Equal(t, before.body["head_hash"], events[9].(map[string]any)["hash"], "the old head is the new chain's prefix")

	// River on the promoted node: its jobs are rows replicated like any other, and the
	// processes on it elect a leader and project the space to its head.
	pool := promoted.AppPool(t)
	waitForProgress(t, "the space is projected on the promoted node", 2*time.Minute, 100*time.Millisecond,
		func() int64 {
			st, err := projection.Lag(context.Background(), pool, space)
			require.NoError(t, err)
			require.Len(t, st, 1)
			return st[0].ProjectedSeq
		},
		func(w int64) bool { return w == 12 })
}

// With asynchronous replication a failover loses what the promoted standby never received, and
// nothing else: the standby is stopped, three appends commit on the primary (one with an
// idempotency key), the standby comes back unable to stream (its slot is gone, as if the
// network to the primary were cut) and is promoted once the primary fails. Its timeline starts
// before the lost appends' token; its chain is the prefix the appends before them built and
// verifies; the next append takes the first lost seq with another hash (a receipt of a lost
// event no longer matches the log); and a retry of the lost append with its idempotency key
// appends it again.
func TestFailover_AsynchronousLosesTheUnsentTailAndTheChainStillVerifies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	primary := testcontainers.StartCluster(t, "asyncprim")
	db := primary.NewDatabase(t)
	standby := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{})
	old := eventloom.NewStore(db.AppPool(t), nil, nil)
	const space = "async"
	note := func(s string) []eventloom.NewEvent { return []eventloom.NewEvent{{Type: "note", Content: s}} }
	for i := range 5 {
		_, err := old.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: note(fmt.Sprintf("replicated %d", i))})
		require.NoError(t, err)
	}
	standby.CatchUp(t)
	kept, err := old.Verify(ctx, space)
	require.NoError(t, err)

	standby.Stop(t)
	// Long texts that do not compress, so the lost WAL outweighs what the promotion writes.
	noise := make([]byte, 4000)
	_, _ = rand.Read(noise)
	lostText := func(i int) string { return fmt.Sprintf("lost %d %x", i, noise) }
	var lost []*eventloom.AppendResult
	for i := range 3 {
		p := &eventloom.AppendParams{SpaceID: space, Events: note(lostText(i))}
		if i == 0 {
			p.IdempotencyKey = "lost-0"
		}
		res, err := old.Append(ctx, p)
		require.NoError(t, err)
		lost = append(lost, res)
	}
	lostToken, err := replica.ParseLSN(primary.CurrentLSN(t))
	require.NoError(t, err)
	// Cut the standby off: without its slot it cannot stream from the primary.
	var dropped int
	queryRow(t, primary.AdminURL, `SELECT count(pg_drop_replication_slot(slot_name)) FROM pg_replication_slots WHERE NOT active`, &dropped)
	require.Equal(t, 1, dropped)
	standby.Start(t)
	primary.Stop(t)
	start, err := replica.ParseLSN(standby.Promote(t))
	require.NoError(t, err)
	require.Less(t, start, lostToken, "the new timeline starts before the lost appends' token")

	promoted := eventloom.NewStore(standby.Database(db).AppPool(t), nil, nil)
	v, err := promoted.Verify(ctx, space)
	require.NoError(t, err)
	require.True(t, v.OK, v.Reason)
	require.Equal(t, kept.HeadSeq, v.HeadSeq, "the promoted chain is the prefix the standby had")
	require.Equal(t, kept.HeadHash, v.HeadHash)

	next, err := promoted.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: note("after the failover")})
	require.NoError(t, err)
	require.Equal(t, lost[0].Receipts[0].Seq, next.Receipts[0].Seq, "the first lost seq is given to the next append")
	require.NotEqual(t, lost[0].Receipts[0].Hash, next.Receipts[0].Hash, "a receipt of a lost event no longer matches the log")

	retried, err := promoted.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: note(lostText(0)), IdempotencyKey: "lost-0"})
	require.NoError(t, err)
	require.Equal(t, next.Receipts[0].Seq+1, retried.Receipts[0].Seq, "the retry appends the lost event again")
	v, err = promoted.Verify(ctx, space)
	require.NoError(t, err)
	require.True(t, v.OK, v.Reason)
	require.Equal(t, kept.HeadSeq+2, v.HeadSeq)
}

// queryRow runs q once on dsn and scans its row into dest.
func queryRow(t *testing.T, dsn, q string, dest ...any) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	require.NoError(t, conn.QueryRow(context.Background(), q).Scan(dest...))
}
