package graph_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/testcontainers"
)

// raiseLabelCache fails the statement as AGE 1.5.0 does when its label cache is corrupted.
const raiseLabelCache = `DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = 'XX000', MESSAGE = 'label (relation) cache corrupted'; END $$`

// WithLabelCacheRetry runs the function again, in a new transaction on another session, when it
// fails with AGE's corrupted label cache; what the failed try wrote is rolled back; any other
// error is returned at once; and it gives up after three tries.
func TestWithLabelCacheRetry_RunsAgainOnAFreshSessionOnlyForTheCorruptedCache(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	_, err := pool.Exec(ctx, `CREATE TABLE tries (n int)`)
	require.NoError(t, err)

	var pids []int32
	err = graph.WithLabelCacheRetry(ctx, pool, func(tx pgx.Tx) error {
		var pid int32
		if err := tx.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
			return err
		}
		pids = append(pids, pid)
		if _, err := tx.Exec(ctx, `INSERT INTO tries VALUES ($1)`, len(pids)); err != nil {
			return err
		}
		if len(pids) == 1 {
			_, err := tx.Exec(ctx, raiseLabelCache)
			require.True(t, graph.LabelCacheCorrupted(err), "%v", err)
			return err
		}
		return nil
	})
	require.NoError(t, err)
	require.Len(t, pids, 2)
	require.NotEqual(t, pids[0], pids[1], "the second try runs on another session")
	var kept []int32
	rows, err := pool.Query(ctx, `SELECT n FROM tries ORDER BY n`)
	require.NoError(t, err)
	kept, err = pgx.CollectRows(rows, pgx.RowTo[int32])
	require.NoError(t, err)
	require.Equal(t, []int32{2}, kept, "the failed try's write rolled back")

	calls := 0
	err = graph.WithLabelCacheRetry(ctx, pool, func(tx pgx.Tx) error {
		calls++
		_, err := tx.Exec(ctx, `SELECT 1/0`)
		return err
	})
	require.ErrorContains(t, err, "division by zero")
	require.False(t, graph.LabelCacheCorrupted(err))
	require.Equal(t, 1, calls, "another error is not retried")

	calls = 0
	err = graph.WithLabelCacheRetry(ctx, pool, func(tx pgx.Tx) error {
		calls++
		_, err := tx.Exec(ctx, raiseLabelCache)
		return err
	})
	require.True(t, graph.LabelCacheCorrupted(err))
	require.Equal(t, 3, calls, "three tries in all")
}
