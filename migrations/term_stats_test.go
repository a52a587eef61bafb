package migrations_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// Migration 000012 computes the term statistics of the items projected before it, and its
// down migration removes them again.
func TestTermStatsMigration_BackfillsItemsProjectedBefore(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	itemsBySpaceKeyDown(t, pool)
	_, err := pool.Exec(ctx, readMigration(t, "000065_keyword_index.down.sql"))
	require.NoError(t, err)
	_, err = pool.Exec(ctx, readMigration(t, "000012_term_stats.down.sql"))
	require.NoError(t, err)
	var exists bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT to_regclass('term_stats') IS NOT NULL`).Scan(&exists))
	require.False(t, exists)

	// Items as 000011's projector wrote them, in two spaces.
	_, err = pool.Exec(ctx, `
		INSERT INTO memory_items (space_id, item_id, kind, seq, event_type, occurred_at, text, ts_config, tsv)
		SELECT s, 'ev:' || n, 'event', n, 'message', now(), t, 'english', to_tsvector('english', t)
		FROM (VALUES ('a', 1, 'The cat sat on the cat mat'), ('a', 2, 'Dogs and cats'), ('a', 3, 'and the of'),
		             ('b', 1, 'cat')) v (s, n, t)`)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, readMigration(t, "000012_term_stats.up.sql"))
	require.NoError(t, err)

	df := map[string]int{}
	rows, err := pool.Query(ctx, `SELECT space_id || '/' || lexeme, df FROM term_stats WHERE space_id IN ('a', 'b')`)
	require.NoError(t, err)
	for rows.Next() {
		var k string
		var n int
		require.NoError(t, rows.Scan(&k, &n))
		df[k] = n
	}
	require.NoError(t, rows.Err())
	require.Equal(t, map[string]int{"a/cat": 2, "a/sat": 1, "a/mat": 1, "a/dog": 1, "b/cat": 1}, df)
	var items, tokens int
	require.NoError(t, pool.QueryRow(ctx, `SELECT items, tokens FROM term_totals WHERE space_id = 'a'`).Scan(&items, &tokens))
	require.Equal(t, 3, items)
	require.Equal(t, 6, tokens, "cat sat cat mat | dogs cats | (stop words only)")
	var lens []int32
	require.NoError(t, pool.QueryRow(ctx, `SELECT array_agg(tsv_len ORDER BY seq) FROM memory_items WHERE space_id = 'a'`).Scan(&lens))
	require.Equal(t, []int32{4, 2, 0}, lens)
}
