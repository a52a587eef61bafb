package jobs_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

func TestWorkers_DecaySalienceOfSpacesInUseOncePerSpace(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	client, err := jobs.NewClient(pool, jobs.Config{Workers: 2, Projector: proj})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { _ = client.Stop(context.Background()) })
	store := eventloom.NewStore(pool, jobs.NewOutbox(client), nil)

	old := time.Now().AddDate(0, 0, -200)
	for _, space := range []string{"used", "idle"} {
		_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{
			{Type: "message", Content: "an old note about the audit topic", OccurredAt: &old, Data: json.RawMessage(`{"role":"user"}`)},
		}})
		require.NoError(t, err)
	}
	// Only "used" is ever consulted: its first use was 199 days ago.
	used := old.AddDate(0, 0, 1)
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "used", Events: []eventloom.NewEvent{
		{Type: "feedback.recorded", OccurredAt: &used, Data: json.RawMessage(`{"target_seqs":[1],"signal":"unhelpful"}`)},
	}})
	require.NoError(t, err)
	// The sweep runs on start; it may have run before the appends, so ask for another.
	_, err = client.Insert(ctx, jobs.SweepArgs{}, nil)
	require.NoError(t, err)
	waitFor(t, "the salience_decay run of the space in use", func() bool {
		return count(t, pool, `SELECT count(*) FROM salience_decay_runs WHERE space_id = 'used'`) == 1
	})
	require.Equal(t, 1, count(t, pool, `SELECT count(*) FROM salience_decayed WHERE space_id = 'used' AND item_id = 'ev:1' AND attenuated`))
	require.Zero(t, count(t, pool, `SELECT count(*) FROM salience_decay_runs WHERE space_id = 'idle'`), "a space nobody consults forgets nothing")

	// Unique per space: a second request while one waits is not inserted twice; another
	// space's is.
	later := &river.InsertOpts{ScheduledAt: time.Now().Add(time.Hour)}
	res1, err := client.Insert(ctx, jobs.SalienceDecayArgs{SpaceID: "x"}, later)
	require.NoError(t, err)
	res2, err := client.Insert(ctx, jobs.SalienceDecayArgs{SpaceID: "x"}, later)
	require.NoError(t, err)
	require.True(t, res2.UniqueSkippedAsDuplicate)
	require.Equal(t, res1.Job.ID, res2.Job.ID)
	res3, err := client.Insert(ctx, jobs.SalienceDecayArgs{SpaceID: "y"}, later)
	require.NoError(t, err)
	require.False(t, res3.UniqueSkippedAsDuplicate)
}
