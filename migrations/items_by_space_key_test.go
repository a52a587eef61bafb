package migrations_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// itemsBySpaceKeyDown runs migration 000072's down file when memory_items is keyed by
// space_key, for tests of earlier migrations that read or write it by the text space id.
func itemsBySpaceKeyDown(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	entitiesSpaceKeyDown(t, pool) // 000073's views and functions read memory_items by the key
	ctx := context.Background()
	var keyed bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_attribute
		WHERE attrelid = 'memory_items'::regclass AND attname = 'space_key' AND NOT attisdropped)`).Scan(&keyed))
	if keyed {
		_, err := pool.Exec(ctx, readMigration(t, "000072_items_by_space_key.down.sql"))
		require.NoError(t, err)
	}
}

// Migration 000072 keys memory_items on spaces.space_key instead of the text space id,
// rewriting the rows of a populated database, and its down migration gives every row its text
// id back: the same rows each way, each in its own space, the same indexes on the key, the
// analyst view over the items showing the same lines, and the projection's checksum (which
// reads the items through the queries of this code) unchanged by the round trip. An item of a
// space without a spaces row cannot be written.
func TestItemsBySpaceKeyMigration_SameRowsByKeyBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	log := fixture.New(t, pool, projection.Config{Gate: projection.GateOn})
	clock := fixture.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	for _, space := range []string{"zeta", "alpha"} {
		log.Append(t, space,
			clock.Message("s1", "Maren flew to Lisbon with Tobias in "+space+" last spring."),
			clock.Message("s1", "Maren flew to Lisbon with Tobias in "+space+" last spring."),
			clock.Event("decision.recorded", "s1", "We pick the night train.",
				map[string]string{"decision": "night train to Porto", "rationale": "cheaper than flying"}),
			clock.Event("fact.asserted", "s1", "Maren lives in Lisbon now.",
				map[string]any{"subject": "Maren", "predicate": "lives_in", "object": "Lisbon"}),
		)
		log.Index(t, space)
	}
	lines := func(query string) []string {
		t.Helper()
		r, err := pool.Query(ctx, query)
		require.NoError(t, err)
		out, err := pgx.CollectRows(r, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}
	const cols = `m.item_id, m.kind, m.seq, m.event_type, m.session_id, m.occurred_at, m.text, m.ts_config::text, m.tsv::text, m.tsv_len, m.redundant_of`
	const byKey = `SELECT concat_ws('|', s.space_id, ` + cols + `) FROM memory_items m JOIN spaces s USING (space_key) ORDER BY 1`
	const byID = `SELECT concat_ws('|', m.space_id, ` + cols + `) FROM memory_items m ORDER BY 1`
	const salience = `SELECT concat_ws('|', space_id, item_id, kind, seq, authority, salience, exempt, redundant_of) FROM memory.salience ORDER BY 1`
	const indexes = `SELECT indexrelid::regclass::text || ' ' || pg_get_indexdef(indexrelid, 1, true) || ' ' || pg_get_indexdef(indexrelid, 2, true)
		FROM pg_index WHERE indrelid = 'memory_items'::regclass ORDER BY 1`
	keyType := func() string {
		t.Helper()
		var typ string
		require.NoError(t, pool.QueryRow(ctx, `SELECT coalesce((SELECT format_type(atttypid, atttypmod) FROM pg_attribute
			WHERE attrelid = 'memory_items'::regclass AND attname IN ('space_key', 'space_id') AND NOT attisdropped), '')`).Scan(&typ))
		return typ
	}
	checksums := func() []string {
		t.Helper()
		var out []string
		for _, space := range []string{"zeta", "alpha"} {
			sum, err := log.Proj.Checksum(ctx, space)
			require.NoError(t, err)
			out = append(out, sum.Digest)
		}
		return out
	}

	require.Equal(t, "integer", keyType())
	items := lines(byKey)
	require.Len(t, items, 10, "per space: two messages, the decision, the fact.asserted and its fact version")
	require.Len(t, lines(`SELECT item_id FROM memory_items WHERE redundant_of IS NOT NULL`), 2, "the repeated message, in each space")
	views := lines(salience)
	require.Len(t, views, len(items))
	keyed := lines(indexes)
	require.Equal(t, []string{
		"memory_items_pkey space_key item_id",
		"memory_items_redundant space_key item_id",
		"memory_items_repeats space_key redundant_of",
		"memory_items_seq space_key seq",
		"memory_items_tsv space_key tsv",
	}, keyed)
	sums := checksums()

	itemsBySpaceKeyDown(t, pool)
	require.Equal(t, "text", keyType())
	require.Equal(t, items, lines(byID))
	require.Equal(t, views, lines(salience))
	require.Equal(t, []string{
		"memory_items_pkey space_id item_id",
		"memory_items_redundant space_id item_id",
		"memory_items_repeats space_id redundant_of",
		"memory_items_seq space_id seq",
		"memory_items_tsv space_id tsv",
	}, lines(indexes))

	_, err := pool.Exec(ctx, readMigration(t, "000072_items_by_space_key.up.sql"))
	require.NoError(t, err)
	entitiesSpaceKeyUp(t, pool)
	require.Equal(t, "integer", keyType())
	require.Equal(t, items, lines(byKey))
	require.Equal(t, views, lines(salience))
	require.Equal(t, keyed, lines(indexes))
	require.Equal(t, sums, checksums())
	var first, second int
	require.NoError(t, pool.QueryRow(ctx, `SELECT (SELECT min(space_key) FROM memory_items m JOIN spaces s USING (space_key) WHERE s.space_id = 'zeta'),
		(SELECT min(space_key) FROM memory_items m JOIN spaces s USING (space_key) WHERE s.space_id = 'alpha')`).Scan(&first, &second))
	require.Less(t, first, second, "each space's items carry its own key")

	_, err = pool.Exec(ctx, `INSERT INTO memory_items (space_key, item_id, kind, seq, event_type, occurred_at, ts_config, tsv)
		VALUES ((SELECT space_key FROM spaces WHERE space_id = 'nowhere'), 'ev:1', 'event', 1, 'message', now(), 'english', '')`)
	require.ErrorContains(t, err, "space_key", "no items for a space without a spaces row")

	for _, space := range []string{"zeta", "alpha"} {
		_, err := log.Proj.Rebuild(ctx, space)
		require.NoError(t, err)
	}
	require.Equal(t, items, lines(byKey), "a rebuild writes the rows the migration left")
	require.Equal(t, sums, checksums())
}
