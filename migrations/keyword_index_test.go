package migrations_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// Migration 000065 keys term_stats by the space's integer key and keeps every row; its down
// migration gives the text id back. The tokenizing functions become PL/pgSQL and give the
// vectors 000051's SQL functions gave, for short and chunked texts, paths, hosts and
// identifiers.
func TestKeywordIndexMigration_TermStatsBySpaceKeyBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	log := fixture.New(t, pool, projection.Config{})
	texts := map[string][]string{
		"zeta":  {"The cat sat on the cat mat", "see cmd/deploy/push.go and api.example.com", "an HTTPServer, getUserName and a cat"},
		"alpha": {"cat", strings.Repeat("a long line about deploys and rollbacks, ", 40) + "internal/store/pgStore.go"},
	}
	for _, space := range []string{"zeta", "alpha"} {
		for _, text := range texts[space] {
			log.Append(t, space, eventloom.NewEvent{Type: "message", Actor: "user", Content: text})
		}
		log.Project(t, space)
	}
	stats := func() []string {
		t.Helper()
		rows, err := pool.Query(ctx, `SELECT s.space_id || '/' || t.lexeme || '=' || t.df
			FROM term_stats t JOIN spaces s USING (space_key) ORDER BY 1`)
		require.NoError(t, err)
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}
	keyed := stats()
	require.Contains(t, keyed, "zeta/cat=2")
	require.Contains(t, keyed, "alpha/cat=1", "each space's statistics under its own key")
	language := func(fn string) string {
		t.Helper()
		var l string
		require.NoError(t, pool.QueryRow(ctx, `SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
			WHERE p.oid = to_regprocedure($1)`, fn).Scan(&l))
		return l
	}
	require.Equal(t, "plpgsql", language("zaxy_path_tsv(regconfig, text)"))
	require.Equal(t, "plpgsql", language("zaxy_chunk_tsv(regconfig, text)"))
	samples := []string{"Can you recommend a restaurant?", "see cmd/deploy/push.go and api.example.com",
		"an HTTPServer, getUserName and os.Getenv", strings.Repeat("x", 300) + " tail", strings.Repeat("deploy pkg/userService.go ", 30)}
	vectors := func() []string {
		t.Helper()
		var out []string
		require.NoError(t, pool.QueryRow(ctx, `SELECT array_agg(zaxy_path_tsv('english', s)::text ORDER BY n)
			FROM unnest($1::text[]) WITH ORDINALITY u (s, n)`, samples).Scan(&out))
		return out
	}
	plpgsql := vectors()

	_, err := pool.Exec(ctx, readMigration(t, "000065_keyword_index.down.sql"))
	require.NoError(t, err)
	rows, err := pool.Query(ctx, `SELECT space_id || '/' || lexeme || '=' || df FROM term_stats ORDER BY 1`)
	require.NoError(t, err)
	byID, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	require.Equal(t, keyed, byID)
	require.Equal(t, "sql", language("zaxy_path_tsv(regconfig, text)"))
	require.Equal(t, plpgsql, vectors(), "000051's SQL functions give the same vectors")
	var tsvStale int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM memory_items WHERE tsv <> zaxy_tsv(ts_config, text)`).Scan(&tsvStale))
	require.Zero(t, tsvStale)

	_, err = pool.Exec(ctx, readMigration(t, "000065_keyword_index.up.sql"))
	require.NoError(t, err)
	require.Equal(t, keyed, stats())
	var columns []string
	require.NoError(t, pool.QueryRow(ctx, `SELECT array_agg(attname::text ORDER BY attnum) FROM pg_attribute
		WHERE attrelid = 'term_stats'::regclass AND attnum > 0 AND NOT attisdropped`).Scan(&columns))
	require.Equal(t, []string{"space_key", "lexeme", "df"}, columns)
	var pkey string
	require.NoError(t, pool.QueryRow(ctx, `SELECT pg_get_indexdef('term_stats_pkey'::regclass)`).Scan(&pkey))
	require.Contains(t, pkey, "(space_key, lexeme)")
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM memory_items WHERE tsv <> zaxy_tsv(ts_config, text)`).Scan(&tsvStale))
	require.Zero(t, tsvStale, "the PL/pgSQL functions give every projected item its stored vector")
}
