package jobs_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/retrospective"
	"github.com/zaxy/zaxy/testcontainers"
)

func TestWorkers_ProjectedOutcomeGetsItsRetrospectiveCredit(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	client, err := jobs.NewClient(pool, jobs.Config{Workers: 4, Projector: proj,
		Retrospective: retrospective.NewAssigner(pool, eventloom.NewStore(pool, nil, nil), nil)})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { _ = client.Stop(context.Background()) })
	store := eventloom.NewStore(pool, jobs.NewOutbox(client), nil)
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "rc", Events: []eventloom.NewEvent{
		{Type: "message", SessionID: "notes", Content: "Deploys go through the blue pipeline.", Data: []byte(`{"role":"user"}`)},
		{Type: "checkout.surfaced", SessionID: "run", Data: []byte(`{"items":[{"item_id":"ev:1","seqs":[1],"tier":"query"}]}`)},
		{Type: "outcome.recorded", SessionID: "run", Data: []byte(`{"session_id":"run","status":"failure","summary":"the blue pipeline is gone","evidence":[1]}`)},
	}})
	require.NoError(t, err)
	// The blame is proposed for review (the default: no retrospective.configured).
	waitFor(t, "the blame, proposed and projected", func() bool {
		return count(t, pool, `SELECT count(*) FROM proposals p JOIN events e ON e.space_id = p.space_id AND e.seq = p.seq
			WHERE p.space_id = 'rc' AND p.kind = 'feedback' AND p.status = 'pending' AND e.data->'feedback'->'item_ids' = '["ev:1"]'
			  AND e.data->'feedback'->>'signal' = 'unhelpful'`) == 1
	})
	require.Zero(t, count(t, pool, `SELECT count(*) FROM reinforcements WHERE space_id = 'rc' AND item_id = 'ev:1' AND signal = 'unhelpful'`))
	require.Equal(t, 1, count(t, pool, `SELECT count(*) FROM events WHERE space_id = 'rc' AND actor = $1`, retrospective.Actor))
	require.Equal(t, 1, count(t, pool, `SELECT count(*) FROM river_job WHERE kind = 'retrospective_credit' AND args->>'session_id' = 'run'`))
	require.Zero(t, count(t, pool, `SELECT count(*) FROM river_job WHERE state IN ('discarded', 'retryable')`), "no job failed")
}

// An outcome whose retrospective_credit job was lost (projected by a projector that enqueued no
// follow-up, as when a worker stops between the projection's commit and the job's insert) is
// judged after the next sweep, once: the sweep enqueues what no pass has judged, and a judged
// outcome is never enqueued again.
func TestSweep_JudgesAnOutcomeWhoseCreditJobWasLost(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	bare := eventloom.NewStore(pool, nil, nil)
	_, err = bare.Append(ctx, &eventloom.AppendParams{SpaceID: "lost", Events: []eventloom.NewEvent{
		{Type: "message", SessionID: "notes", Content: "Deploys go through the blue pipeline.", Data: []byte(`{"role":"user"}`)},
		{Type: "checkout.surfaced", SessionID: "run", Data: []byte(`{"items":[{"item_id":"ev:1","seqs":[1],"tier":"query"}]}`)},
		{Type: "outcome.recorded", SessionID: "run", Data: []byte(`{"session_id":"run","status":"failure","summary":"the blue pipeline is gone","evidence":[1]}`)},
	}})
	require.NoError(t, err)
	_, err = proj.ProjectSpace(ctx, "lost") // projected, no follow-up job
	require.NoError(t, err)
	pending, err := retrospective.PendingOutcomes(ctx, pool, 10)
	require.NoError(t, err)
	require.Equal(t, []retrospective.SpacePendingOutcome{{SpaceID: "lost", PendingOutcome: retrospective.PendingOutcome{SessionID: "run", FirstSeq: 3}}}, pending)

	client, err := jobs.NewClient(pool, jobs.Config{Workers: 2, Projector: proj,
		Retrospective: retrospective.NewAssigner(pool, bare, nil)})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx)) // the sweep runs on start
	t.Cleanup(func() { _ = client.Stop(context.Background()) })
	waitFor(t, "the lost outcome judged", func() bool {
		return count(t, pool, `SELECT count(*) FROM retrospective_judged WHERE space_id = 'lost' AND outcome_seq = 3`) == 1
	})
	require.Equal(t, 1, count(t, pool, `SELECT count(*) FROM events WHERE space_id = 'lost' AND actor = $1`, retrospective.Actor))
	pending, err = retrospective.PendingOutcomes(ctx, pool, 10)
	require.NoError(t, err)
	require.Empty(t, pending, "a judged outcome is never enqueued again")

	// An outcome not projected yet is not pending: its projection enqueues it. (The workers
	// stop first, so no job projects it meanwhile.)
	require.NoError(t, client.Stop(ctx))
	_, err = bare.Append(ctx, &eventloom.AppendParams{SpaceID: "lost", Events: []eventloom.NewEvent{
		{Type: "outcome.recorded", SessionID: "run", Data: []byte(`{"session_id":"run","status":"success","summary":"fixed"}`)},
	}})
	require.NoError(t, err)
	pending, err = retrospective.PendingOutcomes(ctx, pool, 10)
	require.NoError(t, err)
	require.Empty(t, pending)
}
