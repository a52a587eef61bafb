package testcontainers_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// TestTestTx_ActsAsTheAppRoleAndLeavesNothingBehind: a TestTx transaction acts as the
// application role (and as the owner inside AsOwner), and what it wrote is gone once its test
// has ended.
func TestTestTx_ActsAsTheAppRoleAndLeavesNothingBehind(t *testing.T) {
	ctx := context.Background()
	t.Run("write", func(t *testing.T) {
		tx := testcontainers.TestTx(t)
		var user string
		require.NoError(t, tx.QueryRow(ctx, `SELECT current_user`).Scan(&user))
		require.Equal(t, testcontainers.TestAppRole, user)
		_, err := tx.Exec(ctx, `UPDATE events SET content = 'x'`)
		require.ErrorContains(t, err, "permission denied", "the application role may not update the log")

		tx = testcontainers.TestTx(t)
		testcontainers.AsOwner(t, tx, func() {
			require.NoError(t, tx.QueryRow(ctx, `SELECT current_user`).Scan(&user))
			require.NotEqual(t, testcontainers.TestAppRole, user)
		})
		require.NoError(t, tx.QueryRow(ctx, `SELECT current_user`).Scan(&user))
		require.Equal(t, testcontainers.TestAppRole, user)
		_, err = tx.Exec(ctx, `INSERT INTO events (space_id, type, content) VALUES ('testtx', 'note', 'x')`)
		require.NoError(t, err)
		err = pgx.BeginFunc(ctx, tx, func(sp pgx.Tx) error {
			_, err := sp.Exec(ctx, `INSERT INTO events (space_id, type, content) VALUES ('testtx', 'note', 'y')`)
			return err
		})
		require.NoError(t, err, "savepoints commit")
	})
	var n int
	require.NoError(t, testcontainers.TestTx(t).QueryRow(ctx, `SELECT count(*) FROM events WHERE space_id = 'testtx'`).Scan(&n))
	require.Zero(t, n)
}

// recordingTB records Errorf instead of failing the test.
type recordingTB struct {
	testing.TB
	failed bool
}

func (r *recordingTB) Errorf(string, ...any) { r.failed = true }

// TestTestTx_RefusesCommit: committing a TestTx transaction fails the test and commits nothing.
func TestTestTx_RefusesCommit(t *testing.T) {
	ctx := context.Background()
	var rec *recordingTB
	t.Run("commit", func(t *testing.T) {
		rec = &recordingTB{TB: t}
		tx := testcontainers.TestTx(rec)
		_, err := tx.Exec(ctx, `INSERT INTO events (space_id, type, content) VALUES ('testtx-commit', 'note', 'x')`)
		require.NoError(t, err)
		require.Error(t, tx.Commit(ctx))
	})
	require.True(t, rec.failed)
	var n int
	require.NoError(t, testcontainers.TestTx(t).QueryRow(ctx, `SELECT count(*) FROM events WHERE space_id = 'testtx-commit'`).Scan(&n))
	require.Zero(t, n)
}
