package migrations_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// spaceKeyProjectionsDown runs migration 000066's down file, for tests of earlier migrations
// that read gate_keys or latent_terms keyed by the text space id.
func spaceKeyProjectionsDown(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	entitiesSpaceKeyDown(t, pool)
	itemsBySpaceKeyDown(t, pool)
	gateKeysInt4Down(t, pool)
	latentTermBlocksDown(t, pool)
	_, err := pool.Exec(context.Background(), readMigration(t, "000066_space_key_projections.down.sql"))
	require.NoError(t, err)
}

// Migration 000066 keys gate_keys, latent_terms and mentions on spaces.space_key instead of the
// text space id, converting the rows in place, and its down migration gives every row its text
// id back: the same rows each way, each still in its own space, and the analyst view over
// mentions shows the same lines.
func TestSpaceKeyProjectionsMigration_SameRowsByKeyBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	log := fixture.New(t, pool, projection.Config{Gate: projection.GateOn})
	for _, space := range []string{"zeta", "alpha"} {
		log.Append(t, space,
			eventloom.NewEvent{Type: "message", Actor: "user", Content: "Maren flew to Lisbon with Tobias in " + space + "."},
			eventloom.NewEvent{Type: "message", Actor: "assistant", Content: "Lisbon in May is lovely, Maren; " + space + " too."})
		log.Project(t, space)
	}
	rows := func(query string) []string {
		t.Helper()
		r, err := pool.Query(ctx, query)
		require.NoError(t, err)
		out, err := pgx.CollectRows(r, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}
	const gateByKey = `SELECT concat_ws('|', s.space_id, g.key, g.seq) FROM gate_keys g JOIN spaces s USING (space_key) ORDER BY 1`
	const gateByID = `SELECT concat_ws('|', space_id, key, seq) FROM gate_keys ORDER BY 1`
	const termsByKey = `SELECT concat_ws('|', s.space_id, t.lexeme, t.scale, encode(t.q8, 'hex')) FROM latent_terms t JOIN spaces s USING (space_key) ORDER BY 1`
	const termsByID = `SELECT concat_ws('|', space_id, lexeme, scale, encode(q8, 'hex')) FROM latent_terms ORDER BY 1`
	const mentionsByKey = `SELECT concat_ws('|', s.space_id, m.seq, m.start_byte, m.end_byte, m.entity_id, m.kind) FROM mentions m JOIN spaces s USING (space_key) ORDER BY 1`
	const mentionsByID = `SELECT concat_ws('|', space_id, seq, start_byte, end_byte, entity_id, kind) FROM mentions ORDER BY 1`
	const timeline = `SELECT concat_ws('|', space_id, entity_id, entity, seq, occurred_at, what, detail) FROM memory.entity_timeline ORDER BY 1`
	keyType := func(table string) string {
		t.Helper()
		var typ string
		require.NoError(t, pool.QueryRow(ctx, `SELECT coalesce((SELECT format_type(atttypid, atttypmod) FROM pg_attribute
			WHERE attrelid = $1::regclass AND attname IN ('space_key', 'space_id') AND NOT attisdropped), '')`, table).Scan(&typ))
		return typ
	}
	gateKeysInt4Down(t, pool) // bigint keys, as 000066 left them
	gate := rows(gateByKey)
	require.GreaterOrEqual(t, len(gate), 16, "eight keys per ranked item, in both spaces")
	mentions := rows(mentionsByKey)
	require.GreaterOrEqual(t, len(mentions), 6, "Maren, Lisbon, Tobias and again in both spaces")
	lines := rows(timeline)
	require.GreaterOrEqual(t, len(lines), len(mentions))
	for _, table := range []string{"gate_keys", "latent_terms", "mentions"} {
		require.Equal(t, "integer", keyType(table))
	}

	spaceKeyProjectionsDown(t, pool)
	for _, table := range []string{"gate_keys", "latent_terms", "mentions"} {
		require.Equal(t, "text", keyType(table))
	}
	require.Equal(t, gate, rows(gateByID))
	require.Equal(t, mentions, rows(mentionsByID))
	require.Equal(t, lines, rows(timeline))
	_, err := pool.Exec(ctx, `INSERT INTO latent_models (space_id, dims, docs, terms, built_seq, seen_seq, build_ms)
		VALUES ('zeta', 2, 1, 2, 1, 1, 1), ('alpha', 2, 1, 1, 1, 1, 1)`)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO latent_terms (space_id, lexeme, scale, q8) VALUES
		('zeta', 'lisbon', 0.5, '\x7f81'), ('zeta', 'maren', 0.25, '\x0102'), ('alpha', 'lisbon', 0.125, '\x0000')`)
	require.NoError(t, err)
	terms := rows(termsByID)

	_, err = pool.Exec(ctx, readMigration(t, "000066_space_key_projections.up.sql"))
	require.NoError(t, err)
	for _, table := range []string{"gate_keys", "latent_terms", "mentions"} {
		require.Equal(t, "integer", keyType(table))
	}
	require.Equal(t, gate, rows(gateByKey))
	require.Equal(t, terms, rows(termsByKey))
	require.Equal(t, mentions, rows(mentionsByKey))
	require.Equal(t, lines, rows(timeline))
	var first, second int
	require.NoError(t, pool.QueryRow(ctx, `SELECT (SELECT space_key FROM spaces WHERE space_id = 'zeta'),
		(SELECT space_key FROM spaces WHERE space_id = 'alpha')`).Scan(&first, &second))
	require.Less(t, first, second, "keys follow the spaces' creation")

	spaceKeyProjectionsDown(t, pool)
	require.Equal(t, gate, rows(gateByID))
	require.Equal(t, terms, rows(termsByID))
	require.Equal(t, mentions, rows(mentionsByID))
	_, err = pool.Exec(ctx, `DELETE FROM latent_models WHERE space_id = 'zeta'`)
	require.NoError(t, err)
	require.Equal(t, terms[:1], rows(termsByID), "a model's terms cascade with it again")
	_, err = pool.Exec(ctx, readMigration(t, "000066_space_key_projections.up.sql"))
	require.NoError(t, err)
	require.Equal(t, terms[:1], rows(termsByKey))
}
