package migrations_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// Migration 000061 folds the gate's (key, item) rows into one gate_items row per item holding
// the first 8 bytes of each key, and its down migration gives back one row per (key, item).
func TestGateItemsMigration_OneRowPerItemWithShortKeysBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	_, err := pool.Exec(ctx, readMigration(t, "000061_storage.down.sql"))
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO gate_keys (space_id, key, item_id, seq) VALUES
		('g', '\x0202020202020202ffffffffffffffff', 'ev:1', 1),
		('g', '\x0101010101010101eeeeeeeeeeeeeeee', 'ev:1', 1),
		('g', '\x0303030303030303dddddddddddddddd', 'ev:4', 4)`)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, readMigration(t, "000061_storage.up.sql"))
	require.NoError(t, err)
	items := func() map[string][]string {
		t.Helper()
		rows, err := pool.Query(ctx, `SELECT item_id, array_agg(encode(k, 'hex') ORDER BY k) FROM gate_items, unnest(keys) k WHERE space_id = 'g' GROUP BY item_id`)
		require.NoError(t, err)
		defer rows.Close()
		out := map[string][]string{}
		for rows.Next() {
			var id string
			var keys []string
			require.NoError(t, rows.Scan(&id, &keys))
			out[id] = keys
		}
		require.NoError(t, rows.Err())
		return out
	}
	want := map[string][]string{"ev:1": {"0101010101010101", "0202020202020202"}, "ev:4": {"0303030303030303"}}
	require.Equal(t, want, items())
	var n int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM gate_items WHERE space_id = 'g' AND keys && ARRAY['\x0303030303030303'::bytea]`).Scan(&n))
	require.Equal(t, 1, n, "the keys are searchable by overlap")

	_, err = pool.Exec(ctx, readMigration(t, "000061_storage.down.sql"))
	require.NoError(t, err)
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM gate_keys WHERE space_id = 'g'`).Scan(&n))
	require.Equal(t, 3, n, "down gives back one row per (key, item)")
	_, err = pool.Exec(ctx, readMigration(t, "000061_storage.up.sql"))
	require.NoError(t, err)
	require.Equal(t, want, items())
}
