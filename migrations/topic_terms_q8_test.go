package migrations_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// Migration 000062 stores the topic model's term vectors as one signed byte per dimension and
// a scale (the largest magnitude over 127, rounded as topic/quant.go rounds), and its down
// migration gives back half-precision vectors of the values the codes kept.
func TestTopicTermsQ8Migration_EightBitCodesBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	var err error
	spaceKeyProjectionsDown(t, pool)
	_, err = pool.Exec(ctx, readMigration(t, "000062_topic_terms_q8.down.sql"))
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO latent_models (space_id, dims, docs, terms, built_seq, seen_seq, build_ms) VALUES ('h', 4, 1, 2, 1, 1, 1)`)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO latent_terms (space_id, lexeme, vec) VALUES
		('h', 'harbour', '[0.5, -1.27, 0.02, 0]'), ('h', 'nil', '[0, 0, 0, 0]')`)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, readMigration(t, "000062_topic_terms_q8.up.sql"))
	require.NoError(t, err)
	codes := func(lexeme string) (float64, string) {
		t.Helper()
		var scale float64
		var hex string
		require.NoError(t, pool.QueryRow(ctx, `SELECT scale, encode(q8, 'hex') FROM latent_terms WHERE space_id = 'h' AND lexeme = $1`, lexeme).Scan(&scale, &hex))
		return scale, hex
	}
	scale, hex := codes("harbour")
	require.InDelta(t, 1.27/127, scale, 1e-5)
	require.Equal(t, "32810200", hex, "50, -127, 2, 0 as signed bytes")
	scale, hex = codes("nil")
	require.Zero(t, scale)
	require.Equal(t, "00000000", hex)

	_, err = pool.Exec(ctx, readMigration(t, "000062_topic_terms_q8.down.sql"))
	require.NoError(t, err)
	var typ string
	var v []float64
	require.NoError(t, pool.QueryRow(ctx, `SELECT pg_typeof(vec)::text, vec::vector::real[]::float8[] FROM latent_terms WHERE space_id = 'h' AND lexeme = 'harbour'`).Scan(&typ, &v))
	require.Equal(t, "halfvec", typ)
	require.InDeltaSlice(t, []float64{0.5, -1.27, 0.02, 0}, v, 2e-3)
	_, err = pool.Exec(ctx, readMigration(t, "000062_topic_terms_q8.up.sql"))
	require.NoError(t, err)
	_, hex = codes("harbour")
	require.Equal(t, "32810200", hex, "up again gives the same codes")
}
