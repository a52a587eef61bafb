package migrations_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// Migration 000068 stores NULL for a memory item whose text is its event's content, in place
// on a database with rows: its down file gives every item its text back, its up file nulls
// exactly the texts the projector leaves out (messages, the free text of a fact.asserted) and
// keeps those an item makes of its event (a decision, a tool call, a fact version). Each way
// every item reads the same text, the projection checksum is the same, every stored vector
// still matches its item's text, and a rebuild writes the rows the migration left.
func TestItemTextMigration_NullWhereTheContentAndTheSameTextEachWay(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	log := fixture.New(t, pool, projection.Config{})
	clock := fixture.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	for _, space := range []string{"zeta", "alpha"} {
		log.Append(t, space,
			clock.Message("s1", "Maren flew to Lisbon with Tobias in "+space+"."),
			clock.Event("message", "s1", "Lisbon in May is lovely, Maren.", map[string]string{"role": "assistant"}),
			clock.Event("decision.recorded", "s1", "We pick the night train.",
				map[string]string{"decision": "night train to Porto", "rationale": "cheaper than flying"}),
			clock.Tool("s1", "book_ticket", "failure", "seat map unavailable"),
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
	// The items keyed by the text space id (migration 000072's down), as 000068 wrote them; the
	// projection's checksum reads them keyed by space_key, so 000072 is up while it runs.
	itemsBySpaceKeyDown(t, pool)
	const texts = `SELECT concat_ws('|', m.space_id, m.item_id, coalesce(m.text, e.content)) FROM memory_items m
		JOIN events e ON e.space_id = m.space_id AND e.seq = m.seq ORDER BY 1`
	const stored = `SELECT concat_ws('|', space_id, item_id, text IS NULL) FROM memory_items ORDER BY 1`
	const nulls = `SELECT concat_ws('|', space_id, item_id) FROM memory_items WHERE text IS NULL ORDER BY 1`
	const vectorsMatch = `SELECT count(*) FILTER (WHERE v.text_hash = sha256(convert_to(coalesce(m.text, e.content), 'UTF8')))::int,
		count(*)::int FROM embeddings v
		JOIN memory_items m ON m.space_id = v.space_id AND m.item_id = v.item_id
		JOIN events e ON e.space_id = m.space_id AND e.seq = m.seq`
	checksums := func() []string {
		t.Helper()
		_, err := pool.Exec(ctx, readMigration(t, "000072_items_by_space_key.up.sql"))
		require.NoError(t, err)
		entitiesSpaceKeyUp(t, pool)
		defer itemsBySpaceKeyDown(t, pool)
		var out []string
		for _, space := range []string{"zeta", "alpha"} {
			sum, err := log.Proj.Checksum(ctx, space)
			require.NoError(t, err)
			out = append(out, sum.Digest)
		}
		return out
	}
	vectors := func() (int, int) {
		t.Helper()
		var match, all int
		require.NoError(t, pool.QueryRow(ctx, vectorsMatch).Scan(&match, &all))
		return match, all
	}
	nullable := func() bool {
		t.Helper()
		var notNull bool
		require.NoError(t, pool.QueryRow(ctx, `SELECT attnotnull FROM pg_attribute
			WHERE attrelid = 'memory_items'::regclass AND attname = 'text'`).Scan(&notNull))
		return !notNull
	}

	projected := lines(texts)
	require.Len(t, projected, 16, "per space: two messages, the decision, the tool call and its two facts, the fact.asserted's text and its fact version")
	require.Contains(t, projected, "alpha|ev:3|We pick the night train.\ndecision: night train to Porto\ncheaper than flying")
	written := lines(stored)
	require.Equal(t, []string{"alpha|ev:1", "alpha|ev:2", "alpha|ev:5", "zeta|ev:1", "zeta|ev:2", "zeta|ev:5"}, lines(nulls),
		"the projector stores no text that is its event's content: the messages and the fact.asserted's own text")
	sums := checksums()
	match, all := vectors()
	require.Equal(t, 16, all, "every item is embedded")
	require.Equal(t, all, match)

	_, err := pool.Exec(ctx, readMigration(t, "000068_item_text.down.sql"))
	require.NoError(t, err)
	require.False(t, nullable(), "down: every item has its text again")
	require.Empty(t, lines(nulls))
	require.Equal(t, projected, lines(`SELECT concat_ws('|', space_id, item_id, text) FROM memory_items ORDER BY 1`))
	require.Equal(t, sums, checksums())

	_, err = pool.Exec(ctx, readMigration(t, "000068_item_text.up.sql"))
	require.NoError(t, err)
	require.True(t, nullable())
	require.Empty(t, lines(`SELECT proname::text FROM pg_proc WHERE proname LIKE 'zaxy_item_text%'`), "the rewrite's helper is dropped")
	require.Equal(t, written, lines(stored), "up nulls exactly the texts the projector leaves out")
	require.Equal(t, projected, lines(texts))
	require.Equal(t, sums, checksums())
	match, all = vectors()
	require.Equal(t, 16, all)
	require.Equal(t, all, match)

	_, err = pool.Exec(ctx, readMigration(t, "000072_items_by_space_key.up.sql"))
	require.NoError(t, err)
	entitiesSpaceKeyUp(t, pool)
	for _, space := range []string{"zeta", "alpha"} {
		res, err := log.Proj.Rebuild(ctx, space)
		require.NoError(t, err)
		require.Zero(t, res.EmbeddingsPruned, "every vector still matches its item's text")
	}
	itemsBySpaceKeyDown(t, pool)
	require.Equal(t, written, lines(stored), "a rebuild writes the rows the migration left")
	require.Equal(t, projected, lines(texts))
	require.Equal(t, sums, checksums())
}
