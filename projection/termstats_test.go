package projection_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/projection"
)

// termStats is a space's term statistics as stored: df per lexeme, item count, summed length.
type termStats struct {
	DF     map[string]int64
	Items  int64
	Tokens int64
}

func readTermStats(t *testing.T, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
	QueryRow(context.Context, string, ...any) pgx.Row
}, space, dfQuery, totalsQuery string) termStats {
	t.Helper()
	ctx := context.Background()
	s := termStats{DF: map[string]int64{}}
	rows, err := q.Query(ctx, dfQuery, space)
	require.NoError(t, err)
	var lexeme string
	var df int64
	_, err = pgx.ForEachRow(rows, []any{&lexeme, &df}, func() error { s.DF[lexeme] = df; return nil })
	require.NoError(t, err)
	require.NoError(t, q.QueryRow(ctx, totalsQuery, space).Scan(&s.Items, &s.Tokens))
	return s
}

// stored reads term_stats and term_totals.
func storedTermStats(t *testing.T, f *bundle, space string) termStats {
	return readTermStats(t, f.DB, space,
		`SELECT lexeme, df FROM term_stats WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1)`,
		`SELECT coalesce(sum(items), 0), coalesce(sum(tokens), 0) FROM term_totals WHERE space_id = $1`)
}

// derivedTermStats computes the statistics from scratch, from the items' text: what the
// projection must hold.
func derivedTermStats(t *testing.T, f *bundle, space string) termStats {
	return readTermStats(t, f.DB, space,
		`SELECT u.lexeme, count(*) FROM memory_items i
		 JOIN events e ON e.space_id = $1 AND e.seq = i.seq,
		 unnest(zaxy_tsv(i.ts_config, coalesce(i.text, e.content))) u
		 WHERE i.space_key = (SELECT space_key FROM spaces WHERE space_id = $1) GROUP BY u.lexeme`,
		`SELECT count(*), coalesce(sum((SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0)
		                                FROM unnest(zaxy_tsv(i.ts_config, coalesce(i.text, e.content))) u)), 0)
		 FROM memory_items i JOIN events e ON e.space_id = $1 AND e.seq = i.seq WHERE i.space_key = (SELECT space_key FROM spaces WHERE space_id = $1)`)
}

func TestTermStats_IncrementalEqualsRebuildAndTheItemsText(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 7})
	ctx := context.Background()
	space := "terms"
	randomWorkload(t, f, space, 300, 7)
	f.Append(t, space, ev("message", "Deploys deploy the deployed service; the service deploys again and again.", map[string]any{"role": "user"}))
	f.Project(t, space)

	incremental := storedTermStats(t, f, space)
	require.Equal(t, derivedTermStats(t, f, space), incremental)
	require.Greater(t, incremental.DF["deploy"], int64(0), "a lexeme, not a word, is counted")
	require.NotContains(t, incremental.DF, "the", "stop words are not terms")
	var items int64
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT count(*) FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1)`, space).Scan(&items))
	require.Equal(t, items, incremental.Items)
	var deployLen int
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT i.tsv_len FROM memory_items i JOIN events e ON e.space_id = $1 AND e.seq = i.seq
		WHERE i.space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND coalesce(i.text, e.content) LIKE 'Deploys deploy%'`, space).Scan(&deployLen))
	require.Equal(t, 6, deployLen, "deploys deploy deployed service service deploys (the, and, again are stop words)")

	sumBefore, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, int64(len(incremental.DF)), sumBefore.Terms)
	_, err = f.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, storedTermStats(t, f, space))
	sumAfter, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, sumBefore, sumAfter)
}

// Spaces are tenants: term_stats rows are keyed by each space's integer key (migration
// 000065), and discarding and replaying one space's projection recounts its statistics
// without touching another space's, even where both hold the same lexemes.
func TestTermStats_ARebuildOfOneSpaceLeavesAnothersStatistics(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 5})
	ctx := context.Background()
	for _, space := range []string{"tenant-a", "tenant-b"} {
		randomWorkload(t, f, space, 40, 5)
		f.Append(t, space, ev("message", "The refund service deploys on Fridays.", map[string]any{"role": "user"}))
		f.Project(t, space)
	}
	a, b := storedTermStats(t, f, "tenant-a"), storedTermStats(t, f, "tenant-b")
	require.Equal(t, derivedTermStats(t, f, "tenant-a"), a)
	require.Equal(t, derivedTermStats(t, f, "tenant-b"), b)
	require.Positive(t, a.DF["refund"])
	require.Positive(t, b.DF["refund"])
	var keys int
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT count(DISTINCT t.space_key) FROM term_stats t
		JOIN spaces s USING (space_key) WHERE s.space_id IN ('tenant-a', 'tenant-b')`).Scan(&keys))
	require.Equal(t, 2, keys, "each space's rows under its own key")

	_, err := f.Proj.Rebuild(ctx, "tenant-a")
	require.NoError(t, err)
	require.Equal(t, a, storedTermStats(t, f, "tenant-a"))
	require.Equal(t, b, storedTermStats(t, f, "tenant-b"), "another space's statistics are untouched")
}

func TestChecksum_ChangesWhenTermStatsAreTamperedWith(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	ctx := context.Background()
	space := "tamper"
	randomWorkload(t, f, space, 60, 3)
	f.Project(t, space)
	clean, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)

	for _, tamper := range []string{
		`UPDATE term_stats SET df = df + 1 WHERE (space_key, lexeme) = (SELECT space_key, min(lexeme) FROM term_stats WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) GROUP BY 1)`,
		`DELETE FROM term_stats WHERE (space_key, lexeme) = (SELECT space_key, min(lexeme) FROM term_stats WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) GROUP BY 1)`,
		`UPDATE term_totals SET tokens = tokens + 1 WHERE space_id = $1`,
		`UPDATE term_totals SET items = items - 1 WHERE space_id = $1`,
	} {
		tx, err := f.DB.Begin(ctx)
		require.NoError(t, err)
		tag, err := tx.Exec(ctx, tamper, space)
		require.NoError(t, err)
		require.Equal(t, int64(1), tag.RowsAffected(), tamper)
		require.NoError(t, tx.Commit(ctx))
		got, err := f.Proj.Checksum(ctx, space)
		require.NoError(t, err)
		require.NotEqual(t, clean.Digest, got.Digest, tamper)
		// A rebuild repairs it.
		_, err = f.Proj.Rebuild(ctx, space)
		require.NoError(t, err)
		repaired, err := f.Proj.Checksum(ctx, space)
		require.NoError(t, err)
		require.Equal(t, clean, repaired, tamper)
	}
}

// TestTermStats_ATextTooManyWordsForOneTsvectorStillProjects: a tsvector holds at most 1 MB of
// lexemes. An agent's huge tool output of distinct paths (each path's segments count too) made
// the items' insert fail and stalled the space's projection; now the item keeps its whole text,
// its tsv covers the longest prefix that fits, the statistics stay the items', and the events
// after it project.
func TestTermStats_ATextTooManyWordsForOneTsvectorStillProjects(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	ctx := context.Background()
	const space = "huge"
	var b strings.Builder
	for i := range 22000 {
		fmt.Fprintf(&b, "d%d/f%d/file%d.go ", i, i, i)
	}
	huge := b.String()
	f.Append(t, space, ev("message", huge, map[string]any{"role": "user"}), ev("message", "the next turn about deploys", map[string]any{"role": "user"}))
	f.Project(t, space)

	var text string
	var first, last bool
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT coalesce(i.text, e.content), i.tsv @@ 'file0.go'::tsquery, i.tsv @@ 'file21999.go'::tsquery
		FROM memory_items i JOIN events e ON e.space_id = $1 AND e.seq = i.seq WHERE i.space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND i.seq = 1`, space).Scan(&text, &first, &last))
	require.True(t, strings.HasPrefix(huge, text) && len(text) >= len(huge)-1, "the item keeps its whole text (%d of %d bytes)", len(text), len(huge))
	require.True(t, first, "the prefix that fits is indexed")
	require.False(t, last, "the rest is not")
	var next int
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT count(*) FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND seq = 2`, space).Scan(&next))
	require.Equal(t, 1, next, "the projection went on")
	require.Equal(t, derivedTermStats(t, f, space), storedTermStats(t, f, space))
}
