package migrations_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// Migration 000064 gives every space a 4-byte key: the spaces a database already holds are
// numbered in creation order, a space created later takes the next one, and the down
// migration drops the column again.
func TestSpaceKeyMigration_NumbersSpacesInCreationOrderBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	log := fixture.New(t, pool, projection.Config{})
	for _, space := range []string{"zeta", "alpha", "mid"} {
		log.Append(t, space, eventloom.NewEvent{Type: "message", Actor: "user", Content: "hello " + space})
	}
	keys := func() []string {
		t.Helper()
		rows, err := pool.Query(ctx, `SELECT space_id || '=' || space_key FROM spaces ORDER BY space_key`)
		require.NoError(t, err)
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}
	require.Equal(t, []string{"zeta=1", "alpha=2", "mid=3"}, keys())

	spaceKeyProjectionsDown(t, pool) // the projections keyed on space_key go first
	_, err := pool.Exec(ctx, readMigration(t, "000064_space_key.down.sql"))
	require.NoError(t, err)
	// Physical order no longer matches creation order once a row is updated.
	_, err = pool.Exec(ctx, `UPDATE spaces SET head_at = head_at WHERE space_id = 'zeta'`)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, readMigration(t, "000064_space_key.up.sql"))
	require.NoError(t, err)
	require.Equal(t, []string{"zeta=1", "alpha=2", "mid=3"}, keys())

	log.Append(t, "late", eventloom.NewEvent{Type: "message", Actor: "user", Content: "hello late"})
	require.Equal(t, []string{"zeta=1", "alpha=2", "mid=3", "late=4"}, keys())
	_, err = pool.Exec(ctx, `UPDATE spaces SET space_key = 9 WHERE space_id = 'late'`)
	require.ErrorContains(t, err, "space_key", "the key is assigned, never written")
}
