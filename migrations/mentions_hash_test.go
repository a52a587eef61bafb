package migrations_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// Migration 000063 drops the event hash each mention repeated, rewriting the table, and its
// down migration gives every mention its event's hash back from events.
func TestMentionsHashMigration_DropsTheRepeatedEventHashBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	log := fixture.New(t, pool, projection.Config{})
	log.Append(t, "m",
		eventloom.NewEvent{Type: "message", Actor: "user", Content: "Maren flew to Lisbon with Tobias."},
		eventloom.NewEvent{Type: "message", Actor: "assistant", Content: "Lisbon in May is lovely, Maren."})
	log.Project(t, "m")
	spaceKeyProjectionsDown(t, pool)
	mentions := func() []string {
		t.Helper()
		rows, err := pool.Query(ctx, `SELECT concat_ws('|', seq, start_byte, end_byte, entity_id, kind) FROM mentions WHERE space_id = 'm' ORDER BY 1`)
		require.NoError(t, err)
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}
	hasHash := func() bool {
		t.Helper()
		var ok bool
		require.NoError(t, pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_attribute WHERE attrelid = 'mentions'::regclass AND attname = 'hash' AND NOT attisdropped)`).Scan(&ok))
		return ok
	}
	want := mentions()
	require.GreaterOrEqual(t, len(want), 3)
	require.False(t, hasHash())

	_, err := pool.Exec(ctx, readMigration(t, "000063_mentions_hash.down.sql"))
	require.NoError(t, err)
	require.True(t, hasHash())
	var wrong int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM mentions m JOIN events e USING (space_id, seq) WHERE m.space_id = 'm' AND m.hash IS DISTINCT FROM e.hash`).Scan(&wrong))
	require.Zero(t, wrong, "down gives every mention its event's hash")
	require.Equal(t, want, mentions())

	_, err = pool.Exec(ctx, readMigration(t, "000063_mentions_hash.up.sql"))
	require.NoError(t, err)
	require.False(t, hasHash())
	require.Equal(t, want, mentions())
	var clustered bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT bool_or(indisclustered) FROM pg_index WHERE indrelid = 'mentions'::regclass`).Scan(&clustered))
	require.False(t, clustered, "no clustering mark is left behind")
}
