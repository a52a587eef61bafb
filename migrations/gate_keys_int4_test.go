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

// gateKeysInt4Down runs migration 000071's down file when gate_keys' key is an int4, for tests
// of earlier migrations that read it as a bigint.
func gateKeysInt4Down(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	var typ string
	require.NoError(t, pool.QueryRow(ctx, `SELECT format_type(atttypid, atttypmod) FROM pg_attribute
		WHERE attrelid = 'gate_keys'::regclass AND attname = 'key' AND NOT attisdropped`).Scan(&typ))
	if typ == "integer" {
		_, err := pool.Exec(ctx, readMigration(t, "000071_gate_keys_int4.down.sql"))
		require.NoError(t, err)
	}
}

// Migration 000071 keeps each gate key's first 4 bytes: bigint keys as the projector before it
// wrote them (the 4-byte key the projector now computes, followed by 4 other bytes) come out as
// the keys the projector now writes, so an item projected before the migration is still found
// by a repeat projected after it; the down migration gives bigint keys back (the same rows,
// zeros below the kept bytes).
func TestGateKeysInt4Migration_KeepsEarlierItemsCandidates(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	log := fixture.New(t, pool, projection.Config{Gate: projection.GateOn})
	const line = "The audit topic keeps seven days of events, and consumers run in eu-west."
	for _, space := range []string{"zeta", "alpha"} {
		log.Append(t, space, eventloom.NewEvent{Type: "message", Actor: "user", Content: line + " " + space},
			eventloom.NewEvent{Type: "message", Actor: "user", Content: "We do not deploy on Fridays in " + space + "."})
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
	const keys = `SELECT concat_ws('|', s.space_id, g.key, g.seq) FROM gate_keys g JOIN spaces s USING (space_key) ORDER BY 1`
	const wide = `SELECT concat_ws('|', s.space_id, (g.key >> 32)::int4, g.seq) FROM gate_keys g JOIN spaces s USING (space_key) ORDER BY 1`
	now := rows(keys)
	require.Len(t, now, 36, "nine keys for each of two ranked items in two spaces")

	gateKeysInt4Down(t, pool)
	require.Equal(t, now, rows(wide), "the down migration keeps the rows, the kept bytes on top")
	var low int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM gate_keys WHERE key & x'ffffffff'::bigint <> 0`).Scan(&low))
	require.Zero(t, low)
	// As the projector before 000071 wrote them: other bytes below the first four.
	_, err := pool.Exec(ctx, `UPDATE gate_keys SET key = key | (hashint8(seq * 31 + key) & x'7fffffff'::bigint)`)
	require.NoError(t, err)
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM gate_keys WHERE key & x'ffffffff'::bigint <> 0`).Scan(&low))
	require.NotZero(t, low)

	_, err = pool.Exec(ctx, readMigration(t, "000071_gate_keys_int4.up.sql"))
	require.NoError(t, err)
	require.Equal(t, now, rows(keys), "the up migration keeps the first 4 bytes: the keys the projector writes")

	log.Append(t, "zeta", eventloom.NewEvent{Type: "message", Actor: "user", Content: line + " zeta"})
	log.Project(t, "zeta")
	var of string
	require.NoError(t, pool.QueryRow(ctx, `SELECT redundant_of FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = 'zeta') AND seq = 3`).Scan(&of))
	require.Equal(t, "ev:1", of, "a repeat after the migration finds the item projected before it")
	var privs bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT has_table_privilege('zaxy_app', 'gate_keys', 'SELECT, INSERT, DELETE, MAINTAIN')`).Scan(&privs))
	require.True(t, privs)
}
