package erasure_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

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
	r := b.append(t, space, evs...)
	target := r[len(r)-1].Seq
	_, err := b.proj.ProjectSpace(ctx, space)
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

	_, err = b.store.EraseTx(ctx, tx, &eventloom.EraseParams{SpaceID: space, Seq: target, Reason: "race"})
	require.NoError(t, err)
	_, err = dbsqlc.New().InferencesDelete(ctx, tx, dbsqlc.InferencesDeleteParams{SpaceID: space, Seq: target})
	require.NoError(t, err)
	_, err = dbsqlc.New().LatentDrop(ctx, tx, space)
	require.NoError(t, err)
	_, err = b.proj.RebuildTx(ctx, tx, space)
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
