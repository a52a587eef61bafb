package jobs_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/validation"
)

// An append with ProjectLater (a checkout's surfaced record) commits without its projection
// job, still redacts, and EnqueueProjection enqueues the job afterwards; every other append
// enqueues in its own transaction.
func TestOutbox_ProjectLaterLeavesTheJobToItsCaller(t *testing.T) {
	ctx := context.Background()
	tx := testcontainers.TestTx(t)
	client, err := jobs.NewInsertOnlyClient(nil, nil)
	require.NoError(t, err)
	store := eventloom.NewStore(tx, jobs.NewOutbox(client), nil)
	jobsFor := func(head int64) int {
		return count(t, tx, `SELECT count(*) FROM river_job WHERE kind = 'project_space' AND args->>'space_id' = 'pl' AND (args->>'head_seq')::bigint = $1`, head)
	}
	allJobs := func() int { return count(t, tx, `SELECT count(*) FROM river_job WHERE kind = 'project_space'`) }

	later, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "pl", ProjectLater: true,
		Events: []eventloom.NewEvent{{Type: "message", Actor: "user", Content: "first"}, {Type: "message", Actor: "user", Content: "second"}}})
	require.NoError(t, err)
	require.Len(t, later.Receipts, 2)
	require.Zero(t, allJobs(), "no job in the append's transaction")
	head := later.Receipts[1].Seq
	require.NoError(t, store.EnqueueProjection(ctx, "pl", head))
	require.Equal(t, 1, jobsFor(head))

	secret, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "pl", ProjectLater: true,
		Events: []eventloom.NewEvent{{Type: "message", Actor: "user", Content: "the key is sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123"}}})
	require.NoError(t, err)
	require.Equal(t, 1, secret.Redactions, "the one-statement path never skips redaction")
	var content string
	require.NoError(t, tx.QueryRow(ctx, `SELECT content FROM events WHERE space_id = 'pl' AND seq = $1`, secret.Receipts[0].Seq).Scan(&content))
	require.NotContains(t, content, "sk-ant-api03")
	require.Equal(t, 1, allJobs())

	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "pl", ProjectLater: true, Events: []eventloom.NewEvent{{Type: "message"}}})
	require.ErrorIs(t, err, validation.ErrInvalid, "bad input is refused the same way")
	require.Equal(t, 3, count(t, tx, `SELECT count(*) FROM events WHERE space_id = 'pl'`))

	now, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "pl", Events: []eventloom.NewEvent{{Type: "message", Actor: "user", Content: "third"}}})
	require.NoError(t, err)
	require.Equal(t, 1, jobsFor(now.Receipts[0].Seq), "an ordinary append enqueues in its transaction")
}
