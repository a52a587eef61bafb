package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// TestPolicy_CLIListsPromotesAndRollsBack walks the lifecycle through the command table: a
// fit with no judged checkouts exits 1 saying so, a proposed version (appended by the CLI,
// which has admin rights) is promoted through the gate, listed as current and rolled back.
func TestPolicy_CLIListsPromotesAndRollsBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out, errOut bytes.Buffer
	zaxy := func(want int, args ...string) string {
		t.Helper()
		out.Reset()
		errOut.Reset()
		require.Equal(t, want, run(ctx, args, getenv, nil, &out, &errOut), errOut.String())
		return out.String() + errOut.String()
	}
	zaxy(0, "append", "--space", "pol", "--type", "message", "--content", "the backup goes to cold storage", "--data", `{"role":"user"}`)
	require.Equal(t, "builtin-1\tproposed\nbuiltin-2\tproposed\nbuiltin-3\tproposed\nbuiltin-4\tproposed\nbuiltin-5\tproposed\nbuiltin-6\tproposed\nbuiltin-7\tproposed\nbuiltin-8\tproposed\nbuiltin-9\tproposed\nbuiltin-10\tcurrent\n", zaxy(0, "policy", "list", "--space", "pol"))
	require.Contains(t, zaxy(1, "policy", "fit", "--space", "pol"), "nothing to learn")
	require.Contains(t, zaxy(1, "policy", "rollback", "--space", "pol"), "nothing to roll back")
	require.Contains(t, zaxy(1, "policy", "promote", "--space", "pol", "fit-000000000000"), "never proposed")
	require.Contains(t, zaxy(2, "policy", "promote", "--space", "pol"), "want exactly one VERSION")

	zaxy(0, "append", "--space", "pol", "--type", "policy.proposed", "--data",
		`{"version":"fit-0123456789ab","base":"builtin-1","policy":{"lane_weights":{"general":{"keyword":2}},"kind_boosts":{},"speaker_boost":1.5,"named_speaker_boost":3,"temporal_boost":2}}`)
	require.Contains(t, zaxy(0, "policy", "promote", "--space", "pol", "fit-0123456789ab"), "promoted fit-0123456789ab (was builtin-10; seq 3)")
	list := zaxy(0, "policy", "list", "--space", "pol")
	require.Contains(t, list, "builtin-10\tprevious\n")
	require.Contains(t, list, "fit-0123456789ab\tcurrent\tproposed seq 2 from builtin-1")
	require.Contains(t, list, "checkout still ranks with builtin-10 until the projector applies")
	require.Equal(t, "rolled back fit-0123456789ab: builtin-10 is current again (seq 4)\n", zaxy(0, "policy", "rollback", "--space", "pol", "--reason", "test"))
	zaxy(0, "rebuild", "--space", "pol", "--no-embed")
	require.Contains(t, zaxy(0, "policy", "list", "--space", "pol"), "builtin-10\tcurrent\n")
}
