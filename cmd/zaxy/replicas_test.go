package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/testcontainers"
)

// ZAXY_REPLICA_URLS lists standbys, blanks ignored; the wait and lag default to the replica
// package's and must be positive durations; a URL pgx cannot parse is refused naming the
// variable.
func TestReadConfig_Replicas(t *testing.T) {
	t.Parallel()
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	c, err := readConfig(env(nil))
	require.NoError(t, err)
	require.Empty(t, c.replicas.urls, "no standbys unless configured")
	require.Equal(t, replica.DefaultWait, c.replicas.wait)
	require.Equal(t, replica.DefaultMaxLag, c.replicas.maxLag)

	c, err = readConfig(env(map[string]string{"ZAXY_REPLICA_URLS": "postgres://zaxy@127.0.0.1:25432/zaxy, ,postgres://zaxy@10.0.0.2/zaxy",
		"ZAXY_REPLICA_WAIT": "50ms", "ZAXY_REPLICA_MAX_LAG": "5s"}))
	require.NoError(t, err)
	require.Equal(t, []string{"postgres://zaxy@127.0.0.1:25432/zaxy", "postgres://zaxy@10.0.0.2/zaxy"}, c.replicas.urls)
	require.Equal(t, 50*time.Millisecond, c.replicas.wait)
	require.Equal(t, 5*time.Second, c.replicas.maxLag)

	_, err = readConfig(env(map[string]string{"ZAXY_REPLICA_URLS": "postgres://zaxy@127.0.0.1:notaport/zaxy"}))
	require.ErrorContains(t, err, "ZAXY_REPLICA_URLS")
	_, err = readConfig(env(map[string]string{"ZAXY_REPLICA_WAIT": "0s"}))
	require.ErrorContains(t, err, "ZAXY_REPLICA_WAIT")
}

// zaxy serve with ZAXY_REPLICA_URLS reads from the standby: a write answers a token, a read
// with it is served (by the standby once it has replayed it), /metrics shows the standby up,
// and zaxy doctor reports it.
func TestServe_ReadsFromTheStandbysOfZAXY_REPLICA_URLS(t *testing.T) {
	t.Parallel()
	primary := testcontainers.StartCluster(t, "serveprim")
	db := primary.NewDatabase(t)
	standby := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{})
	env := map[string]string{"ZAXY_DATABASE_URL": db.AppURL, "ZAXY_REPLICA_URLS": standby.Database(db).AppURL,
		"ZAXY_ADDR": "127.0.0.1:0", "ZAXY_AUTH": "off", "ZAXY_EMBEDDER": "offline", "ZAXY_SHUTDOWN_TIMEOUT": "10s"}
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve"}, func(k string) string { return env[k] }, nil, &stdout, &stderr)
	}()
	t.Cleanup(func() { cancel(); <-done })
	var base string
	require.Eventually(t, func() bool {
		_, addr, ok := strings.Cut(stdout.String(), "zaxy serving on ")
		base = strings.TrimSpace(addr)
		return ok && strings.HasSuffix(stdout.String(), "\n")
	}, 2*time.Minute, 20*time.Millisecond, "serve never listened: %s", stderr.String())

	resp, err := http.Post(base+"/v1/spaces/served/events", "application/json", strings.NewReader(`{"type":"note","content":"hello"}`))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	token := resp.Header.Get(replica.Header)
	tok, err := replica.ParseToken(token)
	require.NoError(t, err)
	standby.WaitReplay(t, tok.LSN.String())
	require.Eventually(t, func() bool {
		req, _ := http.NewRequest(http.MethodGet, base+"/v1/spaces/served/events", nil)
		req.Header.Set(replica.Header, token)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		return resp.Header.Get(replica.ReadFromHeader) == replica.FromReplica
	}, 2*time.Minute, 50*time.Millisecond, "the standby, caught up, serves the read")

	var out, errOut lockedBuffer
	code := run(context.Background(), []string{"doctor", "--no-probe"}, func(k string) string { return env[k] }, nil, &out, &errOut)
	require.Contains(t, out.String(), "standby 127.0.0.1:", errOut.String())
	require.Contains(t, out.String(), "replayed to", "the standby's line names its replay position (and its lag)")
	_ = code // other checks (the embedder's weights) may fail on this machine
}
