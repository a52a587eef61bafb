package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/maintenance"
	"github.com/zaxy/zaxy/testcontainers"
)

// zaxy maintenance reindex --dry-run lists a half-empty index as one it would rebuild and
// changes nothing; without --dry-run it rebuilds it and says how much it gave back.
func TestMaintenanceReindexCommand(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	admin := db.AdminPool(t)
	for _, q := range []string{
		`INSERT INTO speaker_names SELECT 'a-space', 'speaker-' || lpad(g::text, 8, '0'), 1 FROM generate_series(1, 20000) AS g ORDER BY random()`,
		`DELETE FROM speaker_names WHERE right(name_key, 1) IN ('1', '3', '5', '7', '9')`,
		`VACUUM ANALYZE speaker_names`,
	} {
		_, err := admin.Exec(ctx, q)
		require.NoError(t, err)
	}
	node := func() int64 {
		var n int64
		require.NoError(t, admin.QueryRow(ctx, `SELECT relfilenode::int8 FROM pg_class WHERE relname = 'speaker_names_pkey'`).Scan(&n))
		return n
	}
	before := node()
	var out, errOut bytes.Buffer
	cli := func(args ...string) int {
		out.Reset()
		errOut.Reset()
		return run(ctx, args, dbEnv(db), strings.NewReader(""), &out, &errOut)
	}
	require.Equal(t, 0, cli("maintenance", "reindex", "--dry-run", "--min-bytes", "0"), errOut.String())
	require.Regexp(t, `(?m)^speaker_names_pkey +speaker_names +\d+ bytes, waste \d+ \(\d+%\): would rebuild$`, out.String())
	require.Equal(t, before, node(), "a dry run changes nothing")

	require.Equal(t, 0, cli("maintenance", "reindex", "--min-bytes", "0"), errOut.String())
	require.Regexp(t, `(?m)^speaker_names_pkey .*: rebuilt to \d+ bytes$`, out.String())
	require.Regexp(t, `rebuilt \d+ indexes, dropped 0 leftovers: [1-9]\d* bytes given back`, out.String())
	require.NotEqual(t, before, node())

	require.Equal(t, 2, cli("maintenance", "reindex", "--min-waste", "0"))
	require.Contains(t, errOut.String(), "--min-waste must be a percentage between 1 and 99")
}

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
