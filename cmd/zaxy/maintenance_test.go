package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/maintenance"
)

func TestReadConfig_Reindex(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	c, err := readConfig(env())
	require.NoError(t, err)
	require.Equal(t, reindexConfig{interval: jobs.DefaultReindexInterval,
		thresholds: maintenance.Config{MinBytes: maintenance.DefaultMinBytes, MinWastePercent: maintenance.DefaultMinWastePercent}}, c.reindex)

	c, err = readConfig(env("ZAXY_REINDEX_INTERVAL", "0", "ZAXY_REINDEX_MIN_BYTES", "1048576", "ZAXY_REINDEX_MIN_WASTE", "40"))
	require.NoError(t, err)
	require.Equal(t, reindexConfig{thresholds: maintenance.Config{MinBytes: 1 << 20, MinWastePercent: 40}}, c.reindex)
	c, err = readConfig(env("ZAXY_REINDEX_INTERVAL", "6h"))
	require.NoError(t, err)
	require.Equal(t, 6*time.Hour, c.reindex.interval)

	for _, tc := range []struct{ name, value string }{
		{"ZAXY_REINDEX_INTERVAL", "-1h"},
		{"ZAXY_REINDEX_INTERVAL", "daily"},
		{"ZAXY_REINDEX_MIN_BYTES", "0"},
		{"ZAXY_REINDEX_MIN_BYTES", "8MB"},
		{"ZAXY_REINDEX_MIN_WASTE", "0"},
		{"ZAXY_REINDEX_MIN_WASTE", "100"},
		{"ZAXY_REINDEX_MIN_WASTE", "25%"},
	} {
		_, err := readConfig(env(tc.name, tc.value))
		require.ErrorContains(t, err, tc.name, "%s=%s", tc.name, tc.value)
	}
}
