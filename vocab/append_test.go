package vocab_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/validation"
)

// TestAppend_RejectsBadTypedDataAndAppendsNothing is the round trip through the Eventloom:
// an append whose typed data breaks the vocabulary is ErrInvalid naming the field, and not
// one event of the batch is stored.
func TestAppend_RejectsBadTypedDataAndAppendsNothing(t *testing.T) {
	t.Parallel()
	tx := testcontainers.TestTx(t)
	store := eventloom.NewStore(tx, nil, nil)
	ctx := context.Background()
	count := func(space string) int {
		var n int
		require.NoError(t, tx.QueryRow(ctx, `SELECT count(*) FROM events WHERE space_id = $1`, space).Scan(&n))
		return n
	}
	noSubject := eventloom.NewEvent{Type: "fact.asserted", Data: json.RawMessage(`{"predicate":"likes","value":"tea"}`)}

	// One event: the field is named relative to the event.
	_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "v1", Events: []eventloom.NewEvent{noSubject}})
	require.ErrorIs(t, err, validation.ErrInvalid)
	var ve *validation.Error
	require.True(t, errors.As(err, &ve))
	require.Equal(t, "data.subject", ve.Field)
	require.ErrorContains(t, err, "data.subject")
	require.Zero(t, count("v1"))

	// A batch: the valid first event is not appended either.
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "v2", Events: []eventloom.NewEvent{
		{Type: "message", Content: "fine", Data: json.RawMessage(`{"role":"user"}`)},
		noSubject,
	}})
	require.ErrorIs(t, err, validation.ErrInvalid)
	require.True(t, errors.As(err, &ve))
	require.Equal(t, "events[1].data.subject", ve.Field)
	require.Zero(t, count("v2"))
	_, err = store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "v2"})
	require.ErrorIs(t, err, eventloom.ErrNotFound, "nothing was appended, so the space does not exist")

	// The corrected event is accepted and is the space's first.
	fixed := noSubject
	fixed.Data = json.RawMessage(`{"subject":"Ann","predicate":"likes","value":"tea"}`)
	res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "v1", Events: []eventloom.NewEvent{fixed}})
	require.NoError(t, err)
	require.Equal(t, int64(1), res.Receipts[0].Seq)
	require.Equal(t, 1, count("v1"))
}
