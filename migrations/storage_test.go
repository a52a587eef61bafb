package migrations_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// Migration 000059 folds the gate's (key, item) rows into one gate_items row per item holding
// the first 8 bytes of each key, and its down migration gives back one row per (key, item).
func TestGateItemsMigration_OneRowPerItemWithShortKeysBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	var err error
	spaceKeyProjectionsDown(t, pool)
	_, err = pool.Exec(ctx, readMigration(t, "000060_gate_keys.down.sql"))
	require.NoError(t, err)
	_, err = pool.Exec(ctx, readMigration(t, "000059_storage.down.sql"))
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO gate_keys (space_id, key, item_id, seq) VALUES
		('g', '\x0202020202020202ffffffffffffffff', 'ev:1', 1),
		('g', '\x0101010101010101eeeeeeeeeeeeeeee', 'ev:1', 1),
		('g', '\x0303030303030303dddddddddddddddd', 'ev:4', 4)`)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, readMigration(t, "000059_storage.up.sql"))
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

	_, err = pool.Exec(ctx, readMigration(t, "000059_storage.down.sql"))
	require.NoError(t, err)
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM gate_keys WHERE space_id = 'g'`).Scan(&n))
	require.Equal(t, 3, n, "down gives back one row per (key, item)")
	_, err = pool.Exec(ctx, readMigration(t, "000059_storage.up.sql"))
	require.NoError(t, err)
	require.Equal(t, want, items())
	_, err = pool.Exec(ctx, readMigration(t, "000060_gate_keys.up.sql"))
	require.NoError(t, err)
}

// Migration 000060 gives the gate's keys back one row per (key, item seq), the 8-byte key as a
// big-endian bigint, and its down migration folds them into one gate_items row per item again.
func TestGateKeysMigration_OneRowPerKeyAsBigintBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	var err error
	spaceKeyProjectionsDown(t, pool)
	_, err = pool.Exec(ctx, readMigration(t, "000060_gate_keys.down.sql"))
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO gate_items (space_id, item_id, seq, keys) VALUES
		('g', 'ev:1', 1, ARRAY['\x0101010101010101', '\xff02020202020202']::bytea[]),
		('g', 'ev:4', 4, ARRAY['\x0303030303030303']::bytea[])`)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, readMigration(t, "000060_gate_keys.up.sql"))
	require.NoError(t, err)
	rows, err := pool.Query(ctx, `SELECT key, seq FROM gate_keys WHERE space_id = 'g' ORDER BY seq, key`)
	require.NoError(t, err)
	type row struct{ Key, Seq int64 }
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[row])
	require.NoError(t, err)
	require.Equal(t, []row{{-0xfdfdfdfdfdfdfe, 1}, {0x0101010101010101, 1}, {0x0303030303030303, 4}}, got,
		"big-endian, as the gate computes them (binary.BigEndian.Uint64 as int64)")

	_, err = pool.Exec(ctx, readMigration(t, "000060_gate_keys.down.sql"))
	require.NoError(t, err)
	var keys []string
	require.NoError(t, pool.QueryRow(ctx, `SELECT array_agg(encode(k, 'hex') ORDER BY k) FROM gate_items, unnest(keys) k
		WHERE space_id = 'g' AND item_id = 'ev:1'`).Scan(&keys))
	require.Equal(t, []string{"0101010101010101", "ff02020202020202"}, keys, "down gives back the same bytes")
	_, err = pool.Exec(ctx, readMigration(t, "000060_gate_keys.up.sql"))
	require.NoError(t, err)
}

// Migration 000059 stores embeddings in half precision, in the heap rather than TOAST, and
// its down migration gives them back as vectors; vectors are still inserted as vector and the
// centroid view still averages as vector.
func TestStorageMigration_EmbeddingsInHalfPrecisionBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	vec := make([]string, 484)
	for i := range vec {
		vec[i] = "0.123456"
	}
	lit := "[" + strings.Join(vec, ",") + "]"
	_, err := pool.Exec(ctx, `INSERT INTO embeddings (space_id, item_id, model, dim, embedding, text_hash)
		VALUES ('h', 'ev:1', 'm@1', 484, $1::vector, '\x00')`, lit)
	require.NoError(t, err)
	stored := func() (string, int, float64) {
		t.Helper()
		var typ string
		var size int
		var first float64
		require.NoError(t, pool.QueryRow(ctx, `SELECT pg_typeof(embedding)::text, pg_column_size(embedding),
			(embedding::vector::real[])[1] FROM embeddings WHERE space_id = 'h'`).Scan(&typ, &size, &first))
		return typ, size, first
	}
	typ, size, first := stored()
	require.Equal(t, "halfvec", typ)
	require.Less(t, size, 1000, "484 halves and a header")
	require.InEpsilon(t, 0.123456, first, 1e-3)
	var chunks int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM `+toastOf(t, pool, "embeddings")).Scan(&chunks))
	require.Zero(t, chunks, "the vector stays in the heap")

	spaceKeyProjectionsDown(t, pool)
	_, err = pool.Exec(ctx, readMigration(t, "000060_gate_keys.down.sql"))
	require.NoError(t, err)
	_, err = pool.Exec(ctx, readMigration(t, "000059_storage.down.sql"))
	require.NoError(t, err)
	typ, _, back := stored()
	require.Equal(t, "vector", typ)
	require.Equal(t, first, back, "down keeps the stored values")
	_, err = pool.Exec(ctx, readMigration(t, "000059_storage.up.sql"))
	require.NoError(t, err)
	typ, _, _ = stored()
	require.Equal(t, "halfvec", typ)
	_, err = pool.Exec(ctx, `SELECT centroid FROM latent_centroids LIMIT 1`)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, readMigration(t, "000060_gate_keys.up.sql"))
	require.NoError(t, err)
}

// toastOf is the qualified name of table's TOAST table.
func toastOf(t *testing.T, pool *pgxpool.Pool, table string) string {
	t.Helper()
	var name string
	require.NoError(t, pool.QueryRow(context.Background(), `SELECT reltoastrelid::regclass::text FROM pg_class WHERE oid = $1::regclass`, table).Scan(&name))
	return name
}
