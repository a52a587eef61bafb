package migrations_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// Migration 000049 keeps the topic model's term vectors in half precision and its down
// migration gives them back as vectors: a stored term survives both ways to half precision's
// three significant digits.
func TestTopicTermsHalfvecMigration_StoresHalfPrecisionBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	var err error
	spaceKeyProjectionsDown(t, pool)
	_, err = pool.Exec(ctx, readMigration(t, "000062_topic_terms_q8.down.sql"))
	require.NoError(t, err)
	typeAndValue := func() (string, []float64) {
		t.Helper()
		var typ string
		var v []float64
		require.NoError(t, pool.QueryRow(ctx, `SELECT pg_typeof(vec)::text, vec::vector::real[]::float8[] FROM latent_terms WHERE space_id = 'h' AND lexeme = 'harbour'`).Scan(&typ, &v))
		return typ, v
	}
	_, err = pool.Exec(ctx, `INSERT INTO latent_models (space_id, dims, docs, terms, built_seq, seen_seq, build_ms) VALUES ('h', 3, 1, 1, 1, 1, 1)`)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO latent_terms (space_id, lexeme, vec) VALUES ('h', 'harbour', '[0.123456, -2.5, 1000.25]')`)
	require.NoError(t, err)
	typ, v := typeAndValue()
	require.Equal(t, "halfvec", typ)
	require.InDeltaSlice(t, []float64{0.123456, -2.5, 1000.25}, v, 0.5)
	require.InEpsilon(t, 0.123456, v[0], 1e-3)

	_, err = pool.Exec(ctx, readMigration(t, "000049_topic_terms_halfvec.down.sql"))
	require.NoError(t, err)
	typ, v2 := typeAndValue()
	require.Equal(t, "vector", typ)
	require.Equal(t, v, v2, "down keeps the stored values")
	_, err = pool.Exec(ctx, readMigration(t, "000049_topic_terms_halfvec.up.sql"))
	require.NoError(t, err)
	typ, _ = typeAndValue()
	require.Equal(t, "halfvec", typ)
	_, err = pool.Exec(ctx, readMigration(t, "000062_topic_terms_q8.up.sql"))
	require.NoError(t, err)
}
