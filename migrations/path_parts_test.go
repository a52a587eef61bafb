package migrations_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/migrations"
	"github.com/zaxy/zaxy/testcontainers"
)

// Migration 000046 rebuilds the tsv of the items projected before it with the segments of their
// paths (zaxy_tsv) and moves the term statistics by the difference, so they equal what the
// projector now derives; its down migration goes back to to_tsvector alone, statistics too.
func TestPathPartsMigration_RetokenizesItemsProjectedBefore(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	exec := migrationFile(t, pool)
	itemsBySpaceKeyDown(t, pool)
	exec("000065_keyword_index.down.sql") // term_stats by space id, as the migration under test wrote it
	exec("000046_path_parts_in_tsv.down.sql")

	// Items and statistics as 000045's projector wrote them, in two spaces.
	seedItems(t, pool, "to_tsvector", `('a', 1, 'I raised the timeout in cmd/deploy/push.go to 120s'),
		('a', 2, 'The deploy is green, e.g. on staging'), ('a', 3, 'Which artists/bands did you see?'),
		('b', 1, 'see internal/store and push.go'), ('b', 2, 'read it with os.Getenv')`)
	exec("000046_path_parts_in_tsv.up.sql")

	var lexemes []string
	require.NoError(t, pool.QueryRow(ctx, `SELECT array_agg(lexeme ORDER BY lexeme) FROM memory_items, unnest(tsv)
		WHERE space_id = 'a' AND seq = 1`).Scan(&lexemes))
	require.Equal(t, []string{"120s", "cmd", "cmd/deploy/push.go", "deploy", "push.go", "rais", "timeout"}, lexemes)
	require.NoError(t, pool.QueryRow(ctx, `SELECT array_agg(lexeme ORDER BY lexeme) FROM memory_items, unnest(tsv)
		WHERE space_id = 'a' AND seq = 3`).Scan(&lexemes))
	require.Equal(t, []string{"artist", "artists/bands", "band", "see"}, lexemes)
	require.NoError(t, pool.QueryRow(ctx, `SELECT array_agg(lexeme ORDER BY lexeme) FROM memory_items, unnest(tsv)
		WHERE space_id = 'b' AND seq = 2`).Scan(&lexemes))
	require.Equal(t, []string{"getenv", "os", "os.getenv", "read"}, lexemes)
	requireStatsDerived(t, pool, "zaxy_tsv")
	var untouched bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT tsv = to_tsvector('english', text) FROM memory_items WHERE space_id = 'a' AND seq = 2`).Scan(&untouched))
	require.True(t, untouched, `"e.g" is a file token to the parser, but it holds no "/"`)

	exec("000046_path_parts_in_tsv.down.sql")
	requireStatsDerived(t, pool, "to_tsvector")
	var fn bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT to_regprocedure('zaxy_tsv(regconfig, text)') IS NOT NULL
		OR to_regprocedure('zaxy_path_tsv(regconfig, text)') IS NOT NULL`).Scan(&fn))
	require.False(t, fn)
}

// seedItems writes message items (values: rows of (space, seq, text)) with their tsv made by
// tokenize(ts_config, text), as a projector before a re-tokenizing migration wrote them, and
// the term statistics they make.
func seedItems(t *testing.T, pool *pgxpool.Pool, tokenize, values string) {
	t.Helper()
	_, err := pool.Exec(context.Background(), `
		INSERT INTO memory_items (space_id, item_id, kind, seq, event_type, occurred_at, text, ts_config, tsv)
		SELECT s, 'ev:' || n, 'event', n, 'message', now(), t, 'english', `+tokenize+`('english', t)
		FROM (VALUES `+values+`) v (s, n, t);
		INSERT INTO term_stats (space_id, lexeme, df)
		SELECT i.space_id, u.lexeme, count(*) FROM memory_items i, unnest(i.tsv) u GROUP BY 1, 2;
		INSERT INTO term_totals (space_id, items, tokens) SELECT space_id, count(*), sum(tsv_len) FROM memory_items GROUP BY 1`)
	require.NoError(t, err)
}

// requireStatsDerived checks that every item's tsv is tokenize(ts_config, text) and that the
// term statistics are those of the items.
func requireStatsDerived(t *testing.T, pool *pgxpool.Pool, tokenize string) {
	t.Helper()
	ctx := context.Background()
	var stale, wrongDF, wrongTotals int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM memory_items WHERE tsv <> `+tokenize+`(ts_config, text)`).Scan(&stale))
	require.Zero(t, stale)
	require.NoError(t, pool.QueryRow(ctx, `
		WITH d AS (SELECT i.space_id, u.lexeme, count(*) AS df FROM memory_items i, unnest(i.tsv) u GROUP BY 1, 2)
		SELECT count(*) FROM d FULL JOIN term_stats s USING (space_id, lexeme) WHERE s.df IS DISTINCT FROM d.df`).Scan(&wrongDF))
	require.Zero(t, wrongDF)
	require.NoError(t, pool.QueryRow(ctx, `
		SELECT count(*) FROM term_totals t
		FULL JOIN (SELECT space_id, count(*) AS items, sum(tsv_len) AS tokens FROM memory_items GROUP BY 1) d USING (space_id)
		WHERE t.items IS DISTINCT FROM d.items OR t.tokens IS DISTINCT FROM d.tokens`).Scan(&wrongTotals))
	require.Zero(t, wrongTotals)
}

// migrationFile returns a function running one migration file of migrations.FS on pool, as a
// test that rewinds and replays a migration over rows it wrote itself does.
func migrationFile(t *testing.T, pool *pgxpool.Pool) func(name string) {
	return func(name string) {
		t.Helper()
		b, err := migrations.FS.ReadFile(name)
		require.NoError(t, err)
		_, err = pool.Exec(context.Background(), string(b))
		require.NoError(t, err, name)
	}
}
