package spacelog_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/spacelog"
)

// A copy imported earlier is brought up to the source's head by its tail: the events appended
// since (varied: keys, derived keys, the secret), each hash computed again on the target and
// equal, the chain verifying there, replay equal to the source's, a retry under an idempotency
// key of the tail answered from its record on the target.
func TestCopyTail_ContinuesACopyToTheSourcesHead(t *testing.T) {
	ctx := context.Background()
	src, dst := setup(t), setup(t)
	const space = "tail.space"
	_, err := src.store.Append(ctx, &eventloom.AppendParams{SpaceID: space,
		Events: []eventloom.NewEvent{{Type: "message", Content: "first", Data: []byte(`{"role":"user"}`)}}})
	require.NoError(t, err)
	first, err := spacelog.Import(ctx, dst.admin, bytes.NewReader(export(t, src, space)), spacelog.ImportParams{Space: space})
	require.NoError(t, err)
	require.Equal(t, int64(1), first.HeadSeq)

	appendVaried(t, src, space) // its erasure is of seq 4, in the tail: refused below
	_, err = spacelog.CopyTail(ctx, src.app, dst.admin, spacelog.TailParams{Space: space, After: 1})
	require.ErrorIs(t, err, spacelog.ErrTailNotCopyable)

	// Without an erasure in the tail.
	const clean = "tail.clean"
	for i := range 3 {
		_, err := src.store.Append(ctx, &eventloom.AppendParams{SpaceID: clean, IdempotencyKey: fmt.Sprintf("k%d", i),
			Events: []eventloom.NewEvent{{Type: "message", Content: fmt.Sprintf("turn %d", i), Data: []byte(`{"role":"user"}`)}}})
		require.NoError(t, err)
	}
	_, err = spacelog.Import(ctx, dst.admin, bytes.NewReader(export(t, src, clean)), spacelog.ImportParams{Space: clean})
	require.NoError(t, err)
	keys, err := src.store.DerivedKeys(ctx, clean, "doc", "material")
	require.NoError(t, err)
	for i := 3; i < 2500; i += 500 {
		events := make([]eventloom.NewEvent, 0, 500)
		for j := i; j < i+500; j++ {
			events = append(events, eventloom.NewEvent{Type: "message", Content: fmt.Sprintf("turn %d ü", j), Data: []byte(`{"role":"user","n":1.50}`)})
		}
		_, err := src.store.Append(ctx, &eventloom.AppendParams{SpaceID: clean, Events: events, IdempotencyKey: keys[0] + fmt.Sprint(i)})
		require.NoError(t, err)
	}
	sum, err := spacelog.CopyTail(ctx, src.app, dst.admin, spacelog.TailParams{Space: clean, After: 3, Outbox: dst.box})
	require.NoError(t, err)
	require.Equal(t, int64(2500), sum.Events)
	require.Equal(t, int64(2503), sum.HeadSeq)
	require.Equal(t, int64(5), sum.IdempotencyKeys)
	require.True(t, sum.SpaceSecret)
	res, err := dst.store.Verify(ctx, clean)
	require.NoError(t, err)
	require.True(t, res.OK, "%+v", res)
	require.Equal(t, []byte(sum.HeadHash), []byte(res.HeadHash))
	require.Equal(t, replayAll(t, src.store, clean), replayAll(t, dst.store, clean))
	_, err = dst.store.Append(ctx, &eventloom.AppendParams{SpaceID: clean, Events: []eventloom.NewEvent{{Type: "message",
		Content: "turn 503 ü", Data: []byte(`{"role":"user","n":1.50}`)}}, IdempotencyKey: keys[0] + "503"})
	require.ErrorIs(t, err, eventloom.ErrConflict, "the tail's record is on the target: a different body under its key conflicts")

	// A copy that does not end where the tail begins is refused, and nothing is written.
	_, err = spacelog.CopyTail(ctx, src.app, dst.admin, spacelog.TailParams{Space: clean, After: 3})
	require.ErrorIs(t, err, spacelog.ErrNotContinued)
	res, err = dst.store.Verify(ctx, clean)
	require.NoError(t, err)
	require.Equal(t, int64(2503), res.HeadSeq)
	// The application role cannot continue an import.
	_, err = spacelog.CopyTail(ctx, src.app, dst.app, spacelog.TailParams{Space: clean, After: 2503})
	require.ErrorContains(t, err, "permission denied")
}
