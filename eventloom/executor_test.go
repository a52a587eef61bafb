package eventloom_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// TestStore_WorksInsideACallersTransactionAndLeavesNothingAfterRollback: a Store built on a
// transaction (not a pool) appends in savepoints, replays and verifies what it appended in
// that transaction, and a rollback leaves the database as it was. The caller's transaction is
// a savepoint of the test transaction, which rolls back the same way.
func TestStore_WorksInsideACallersTransactionAndLeavesNothingAfterRollback(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	outer := testcontainers.TestTx(t)
	tx, err := outer.Begin(ctx)
	require.NoError(t, err)
	store := eventloom.NewStore(tx, nil, nil)

	res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "in-tx", Events: []eventloom.NewEvent{msg("a"), msg("b")}})
	require.NoError(t, err)
	require.Len(t, res.Receipts, 2)
	page, err := store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "in-tx"})
	require.NoError(t, err)
	require.Len(t, page.Events, 2)
	for _, method := range []string{eventloom.MethodGo, eventloom.MethodSQL} {
		v, err := store.VerifyWith(ctx, "in-tx", method)
		require.NoError(t, err)
		require.True(t, v.OK, method)
		require.Equal(t, int64(2), v.Events, method)
	}
	// An append the database refuses (a reused idempotency key with another body) is undone
	// in its savepoint and leaves the transaction usable.
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "in-tx", IdempotencyKey: "k1", Events: []eventloom.NewEvent{msg("c")}})
	require.NoError(t, err)
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "in-tx", IdempotencyKey: "k1", Events: []eventloom.NewEvent{msg("other")}})
	require.True(t, errors.Is(err, eventloom.ErrConflict), "got %v", err)
	page, err = store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "in-tx"})
	require.NoError(t, err)
	require.Len(t, page.Events, 3, "the refused append left nothing")
	exists, err := store.SpaceExists(ctx, "in-tx")
	require.NoError(t, err)
	require.True(t, exists)

	require.NoError(t, tx.Rollback(ctx))
	exists, err = eventloom.NewStore(outer, nil, nil).SpaceExists(ctx, "in-tx")
	require.NoError(t, err)
	require.False(t, exists, "the rolled-back appends are gone")
}
