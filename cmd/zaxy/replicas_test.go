package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/replica"
)

// ZAXY_REPLICA_URLS lists standbys, blanks ignored; the wait and lag default to the replica
// package's and must be positive durations; a URL pgx cannot parse is refused naming the
// variable.
func TestReadConfig_Replicas(t *testing.T) {
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
