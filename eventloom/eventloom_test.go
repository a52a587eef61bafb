package eventloom_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/testcontainers"
)

func newStore(t *testing.T) (*eventloom.Store, *testcontainers.Database) { return newStoreTB(t) }

func newStoreTB(t testing.TB) (*eventloom.Store, *testcontainers.Database) {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	client, err := jobs.NewInsertOnlyClient(pool, nil)
	require.NoError(t, err)
	return eventloom.NewStore(pool, jobs.NewOutbox(client), nil), db
}

func msg(content string) eventloom.NewEvent {
	return eventloom.NewEvent{Type: "message", Content: content, Data: []byte(`{"role":"user"}`)}
}

func TestAppend_ChainsAndVerifies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStore(t)
	res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "s1", Events: []eventloom.NewEvent{msg("a"), msg("b"), msg("c")}})
	require.NoError(t, err)
	require.Len(t, res.Receipts, 3)
	require.Equal(t, []byte(eventloom.ZeroHash), []byte(res.Receipts[0].PrevHash))
	for i, r := range res.Receipts {
		require.Equal(t, int64(i+1), r.Seq)
		if i > 0 {
			require.Equal(t, res.Receipts[i-1].Hash, r.PrevHash)
		}
	}
	page, err := store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "s1"})
	require.NoError(t, err)
	require.Equal(t, "b", page.Events[1].Content)
	for _, method := range []string{eventloom.MethodGo, eventloom.MethodSQL} {
		v, err := store.VerifyWith(ctx, "s1", method)
		require.NoError(t, err)
		require.True(t, v.OK, method)
		require.Equal(t, int64(3), v.Events)
		require.Equal(t, res.Receipts[2].Hash, v.HeadHash)
	}
}

func TestVerify_CatchesTampering(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		tamper string
		broken int64
	}{
		{"edit content", `UPDATE events SET content = 'forged' WHERE space_id = 's' AND seq = 4`, 4},
		{"edit prev_hash", `UPDATE events SET prev_hash = sha256('x') WHERE space_id = 's' AND seq = 3`, 3},
		{"delete middle row", `DELETE FROM events WHERE space_id = 's' AND seq = 5`, 5},
		{"swap two rows", `UPDATE events SET seq = 100 WHERE space_id = 's' AND seq = 2; UPDATE events SET seq = 2 WHERE space_id = 's' AND seq = 6; UPDATE events SET seq = 6 WHERE space_id = 's' AND seq = 100`, 2},
		{"delete last row", `DELETE FROM events WHERE space_id = 's' AND seq = 8`, 8},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			store, db := newStore(t)
			evs := make([]eventloom.NewEvent, 8)
			for i := range evs {
				evs[i] = msg(fmt.Sprintf("event %d", i+1))
			}
			_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "s", Events: evs})
			require.NoError(t, err)
			admin := db.AdminPool(t)
			err = pgx.BeginFunc(ctx, admin, func(tx pgx.Tx) error {
				if _, err := tx.Exec(ctx, `SET LOCAL session_replication_role = replica`); err != nil {
					return err
				}
				_, err := tx.Exec(ctx, tc.tamper)
				return err
			})
			require.NoError(t, err)
			for _, method := range []string{eventloom.MethodGo, eventloom.MethodSQL} {
				v, err := store.VerifyWith(ctx, "s", method)
				require.NoError(t, err)
				require.False(t, v.OK, method)
				require.Equal(t, tc.broken, v.BrokenSeq, "%s: %s", method, v.Reason)
			}
		})
	}
}

func TestAppend_RejectsUpdateDeleteTruncate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, db := newStore(t)
	_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "s", Events: []eventloom.NewEvent{msg("a")}})
	require.NoError(t, err)
	for _, who := range []string{"app", "owner"} {
		pool := store.Pool()
		if who == "owner" {
			pool = db.AdminPool(t)
		}
		for _, q := range []string{
			`UPDATE events SET content = 'x'`,
			`DELETE FROM events`,
			`TRUNCATE events CASCADE`,
		} {
			_, err := pool.Exec(ctx, q)
			require.Error(t, err, "%s: %s", who, q)
		}
	}
	// The owner is stopped by the triggers themselves (SQLSTATE ZX001).
	_, err = db.AdminPool(t).Exec(ctx, `DELETE FROM events`)
	require.ErrorContains(t, err, "append-only")
	v, err := store.Verify(ctx, "s")
	require.NoError(t, err)
	require.True(t, v.OK)
}

func TestAppend_ConcurrentWritersOneSpaceAreGapless(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStore(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "busy", Events: []eventloom.NewEvent{msg("x")}}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	v, err := store.Verify(ctx, "busy")
	require.NoError(t, err)
	require.True(t, v.OK, v.Reason)
	require.Equal(t, int64(4000), v.Events)
	require.Equal(t, int64(4000), v.HeadSeq)
}

func TestAppend_Idempotency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStore(t)
	p := &eventloom.AppendParams{SpaceID: "s", IdempotencyKey: "k1", Events: []eventloom.NewEvent{msg("a"), msg("b")}}
	first, err := store.Append(ctx, p)
	require.NoError(t, err)
	again, err := store.Append(ctx, p)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	require.Equal(t, first.Receipts, again.Receipts)
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "s", IdempotencyKey: "k1", Events: []eventloom.NewEvent{msg("other")}})
	require.ErrorIs(t, err, eventloom.ErrConflict)
	v, err := store.Verify(ctx, "s")
	require.NoError(t, err)
	require.Equal(t, int64(2), v.Events)
}

func TestAppend_RolledBackAppendLeavesNoJob(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStore(t)
	pool := store.Pool()
	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	_, err = store.AppendTx(ctx, tx, &eventloom.AppendParams{SpaceID: "s", Events: []eventloom.NewEvent{msg("a")}})
	require.NoError(t, err)
	var inTx int
	require.NoError(t, tx.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'project_space'`).Scan(&inTx))
	require.Equal(t, 1, inTx)
	require.NoError(t, tx.Rollback(ctx))
	var after, events int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM river_job`).Scan(&after))
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&events))
	require.Zero(t, after)
	require.Zero(t, events)
}

func TestAppend_BadBatchAppendsNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStore(t)
	_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "s", Events: []eventloom.NewEvent{msg("a"), {Type: "Bad Type"}}})
	var ve *eventloom.ValidationError
	require.True(t, errors.As(err, &ve))
	require.Equal(t, "events[1].type", ve.Field)
	_, err = store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "s"})
	require.ErrorIs(t, err, eventloom.ErrNotFound)
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "Bad Space", Events: []eventloom.NewEvent{msg("a")}})
	require.ErrorIs(t, err, eventloom.ErrInvalid)
}

func TestAppend_SpacesDoNotWaitForEachOther(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStore(t)
	pool := store.Pool()

	// Hold space "a"'s chain lock in an open transaction.
	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx) //nolint:errcheck
	_, err = store.AppendTx(ctx, tx, &eventloom.AppendParams{SpaceID: "a", Events: []eventloom.NewEvent{msg("held")}})
	require.NoError(t, err)

	// Another space appends at once.
	quick, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err = store.Append(quick, &eventloom.AppendParams{SpaceID: "b", Events: []eventloom.NewEvent{msg("free")}})
	require.NoError(t, err)

	// The same space waits for the holder.
	short, cancel2 := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel2()
	_, err = store.Append(short, &eventloom.AppendParams{SpaceID: "a", Events: []eventloom.NewEvent{msg("blocked")}})
	require.Error(t, err)
	require.NoError(t, tx.Commit(ctx))
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "a", Events: []eventloom.NewEvent{msg("after")}})
	require.NoError(t, err)
	v, err := store.Verify(ctx, "a")
	require.NoError(t, err)
	require.True(t, v.OK)
	require.Equal(t, int64(2), v.Events)
}
