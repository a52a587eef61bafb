package erasure_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/erasure/internal/dbsqlc"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
)

// Writers of derived data read the text first and store later. An erasure committing in
// between must win: what they derived from the erased text is never stored.
func TestErase_DerivedWritersThatReadBeforeTheErasureStoreNothingOfIt(t *testing.T) {
	ctx := context.Background()
	b := setup(t)
	const space = "race"
	user := json.RawMessage(`{"role":"user"}`)
	var evs []eventloom.NewEvent
	for i := range 6 {
		evs = append(evs, eventloom.NewEvent{Type: "message", SessionID: fmt.Sprintf("s%d", i), Content: fmt.Sprintf("Plain note number %d about the garden", i), Data: user})
	}
	evs = append(evs, eventloom.NewEvent{Type: "message", SessionID: "s9", Content: marker + " visited the garden", Data: user})
	r := b.Append(t, space, evs...)
	target := r[len(r)-1].Seq
	_, err := b.Proj.ProjectSpace(ctx, space)
	require.NoError(t, err)

	// The erasure's transaction takes the space's erasure lock first, as Service.Erase does.
	tx, err := b.pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	err = eventloom.LockErasure(ctx, tx, space)
	require.NoError(t, err)

	// The embedder, the inferrer and the latent model read the marker's text now and then wait.
	done := make(chan error, 3)
	go func() { _, err := b.embedder.EmbedSpace(ctx, space); done <- err }()
	go func() { _, err := b.inferrer.InferSpace(ctx, space); done <- err }()
	go func() { _, err := b.latent.Refresh(ctx, space); done <- err }()
	require.Eventually(t, func() bool {
		var waiting int
		err := b.admin.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`).Scan(&waiting)
		return err == nil && waiting == 3
	}, 20*time.Second, 20*time.Millisecond, "all three writers wait for the erasure")

	_, err = b.Store.EraseTx(ctx, tx, &eventloom.EraseParams{SpaceID: space, Seq: target, Reason: "race"})
	require.NoError(t, err)
	_, err = dbsqlc.New().InferencesDelete(ctx, tx, dbsqlc.InferencesDeleteParams{SpaceID: space, Seq: target})
	require.NoError(t, err)
	_, err = dbsqlc.New().LatentDrop(ctx, tx, space)
	require.NoError(t, err)
	_, err = b.Proj.RebuildTx(ctx, tx, space)
	require.NoError(t, err)
	require.NoError(t, tx.Commit(ctx))
	for range 3 {
		require.NoError(t, <-done)
	}

	var n int
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT count(*) FROM embeddings WHERE space_id = $1 AND item_id = $2`,
		space, memoryitem.EventID(target)).Scan(&n))
	require.Zero(t, n, "a vector of the erased text was stored")
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT count(*) FROM embeddings WHERE space_id = $1`, space).Scan(&n))
	require.Equal(t, 6, n, "the other items were embedded")
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT count(*) FROM inferences WHERE space_id = $1 AND seq = $2`, space, target).Scan(&n))
	require.Zero(t, n, "an inference of the erased text was stored")
	require.Empty(t, hits(t, b.admin, marker, strings.ToLower(marker)))
}

// The reproduction of issue 30: a projector busy with one event of a space held its watermark
// lock, and an admin erasure of another event failed with 503 "lock watermark: timeout". The
// erasure no longer waits for the projector: with a projection transaction holding the space's
// watermark lock, it returns with the tombstone written (replay shows the event erased) and
// the projections not yet purged; once the lock is released, the next projection purges them
// and the erased text is found nowhere.
func TestErase_DoesNotWaitForABusyProjector(t *testing.T) {
	ctx := context.Background()
	b := setup(t)
	const space = "busy"
	user := json.RawMessage(`{"role":"user"}`)
	r := b.Append(t, space,
		eventloom.NewEvent{Type: "message", Content: "Plain note about the garden", Data: user},
		eventloom.NewEvent{Type: "message", Content: marker + " visited the garden", Data: user})
	target := r[1].Seq
	_, err := b.Proj.ProjectSpace(ctx, space) // projected, not embedded yet
	require.NoError(t, err)
	require.Contains(t, hits(t, b.admin, marker), "public.memory_items")

	// A projector's transaction holds the space's watermark lock (as one stuck in a slow event).
	busy, err := b.pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = busy.Rollback(ctx) }()
	_, err = busy.Exec(ctx, `SELECT projected_seq FROM projection_watermarks WHERE space_id = $1 FOR UPDATE`, space)
	require.NoError(t, err)

	// The erasure returns (no deadline: the old erasure waited for the lock, and failed on it
	// only after the server's lock timeout).
	done := make(chan error, 1)
	var res *erasure.Result
	go func() {
		var err error
		res, err = b.svc.Erase(ctx, &eventloom.EraseParams{SpaceID: space, Seq: target, Reason: "busy projector"})
		done <- err
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(2 * time.Minute):
		t.Fatal("the erasure waits for the projector's lock")
	}
	require.False(t, res.ProjectionsPurged, "a worker holds the space: it purges")
	require.Equal(t, res.ErasureSeq, res.PurgeSeq)
	var erased bool
	require.NoError(t, b.Store.ReplayAll(ctx, eventloom.ReplayParams{SpaceID: space}, func(e *eventloom.Event) error {
		if e.Seq == target {
			erased = e.Erased() && e.Content == ""
		}
		return nil
	}))
	require.True(t, erased, "the tombstone is written at once")

	// While the projections still hold the text, nothing derives from it again.
	_, err = b.embedder.EmbedSpace(ctx, space)
	require.NoError(t, err)
	_, err = b.inferrer.InferSpace(ctx, space)
	require.NoError(t, err)
	_, err = b.latent.Refresh(ctx, space)
	require.NoError(t, err)
	var n int
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT count(*) FROM embeddings WHERE space_id = $1`, space).Scan(&n))
	require.Zero(t, n, "no vector is stored while the projections may hold erased text")
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT count(*) FROM inferences WHERE space_id = $1 AND seq = $2`, space, target).Scan(&n))
	require.Zero(t, n, "no inference reads the tombstone")

	// The projector's transaction ends; the next projection purges.
	require.NoError(t, busy.Rollback(ctx))
	b.Project(t, space)
	b.derive(t, space)
	require.Empty(t, hits(t, b.admin, marker, strings.ToLower(marker)), "the erased text survives somewhere")
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT count(*) FROM embeddings WHERE space_id = $1`, space).Scan(&n))
	require.Equal(t, 1, n, "the other item is embedded after the purge")
	sum, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	_, err = b.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	again, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, sum, again, "the purge equals a rebuild")
}
