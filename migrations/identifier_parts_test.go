package migrations_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// Migration 000048 rebuilds the tsv of the items projected before it with the parts of their
// camel-case identifiers and moves the term statistics by the difference, so they equal what the
// projector now derives; its down migration goes back to 000046's tokenization, statistics too.
func TestIdentifierPartsMigration_RetokenizesItemsProjectedBefore(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	exec := migrationFile(t, pool)
	itemsBySpaceKeyDown(t, pool)
	exec("000065_keyword_index.down.sql") // term_stats by space id, as the migration under test wrote it
	exec("000048_identifier_parts_in_tsv.down.sql")

	// Items and statistics as 000047's projector wrote them, in two spaces.
	seedItems(t, pool, "zaxy_tsv", `('a', 1, '--- FAIL: TestRefundIdempotency (0.31s)'),
		('a', 2, 'The deploy is green, URLs and APIs too'), ('a', 3, 'see pkg/userService.go'),
		('b', 1, 'an HTTPServer and an iPhone'), ('b', 2, 'refund test')`)
	requireStatsDerived(t, pool, "zaxy_tsv")
	exec("000048_identifier_parts_in_tsv.up.sql")

	lexemes := func(space string, seq int) []string {
		t.Helper()
		var out []string
		require.NoError(t, pool.QueryRow(ctx, `SELECT array_agg(lexeme ORDER BY lexeme) FROM memory_items, unnest(tsv)
			WHERE space_id = $1 AND seq = $2`, space, seq).Scan(&out))
		return out
	}
	require.Equal(t, []string{"0.31", "fail", "idempot", "refund", "test", "testrefundidempot"}, lexemes("a", 1))
	require.Equal(t, []string{"api", "deploy", "green", "url"}, lexemes("a", 2), `"URLs" and "APIs" are no identifiers to split`)
	require.Equal(t, []string{"pkg", "pkg/userservice.go", "see", "service.go", "user", "userservice.go"}, lexemes("a", 3))
	require.Equal(t, []string{"http", "httpserver", "iphon", "phone", "server"}, lexemes("b", 1))
	requireStatsDerived(t, pool, "zaxy_tsv")
	var n int
	require.NoError(t, pool.QueryRow(ctx, `SELECT df FROM term_stats WHERE space_id = 'a' AND lexeme = 'refund'`).Scan(&n))
	require.Equal(t, 1, n)
	require.NoError(t, pool.QueryRow(ctx, `SELECT df FROM term_stats WHERE space_id = 'b' AND lexeme = 'refund'`).Scan(&n))
	require.Equal(t, 1, n, "another space's statistics move by its own items only")

	exec("000048_identifier_parts_in_tsv.down.sql")
	requireStatsDerived(t, pool, "zaxy_tsv")
	require.Equal(t, []string{"0.31", "fail", "testrefundidempot"}, lexemes("a", 1))
	exec("000048_identifier_parts_in_tsv.up.sql")
	requireStatsDerived(t, pool, "zaxy_tsv")
}
