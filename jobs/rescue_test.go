package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

func TestClient_DefaultsRescueStuckJobsInMinutes(t *testing.T) {
	c := jobs.Config{}.WithDefaults()
	require.Equal(t, jobs.DefaultJobTimeout, c.JobTimeout)
	require.Equal(t, jobs.DefaultRescueStuckJobsAfter, c.RescueStuckJobsAfter)
	require.Less(t, c.RescueStuckJobsAfter, time.Hour, "River's own default (an hour) is too long")
	require.GreaterOrEqual(t, c.RescueStuckJobsAfter, c.JobTimeout)

	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	proj, err := projection.New(context.Background(), pool, projection.Config{})
	require.NoError(t, err)
	_, err = jobs.NewClient(pool, jobs.Config{Projector: proj, JobTimeout: time.Minute, RescueStuckJobsAfter: 30 * time.Second})
	require.ErrorContains(t, err, "RescueStuckJobsAfter")
}

// A job left running by a killed process (attempted long ago) is rescued by the leader's
// rescuer; one that started recently is left alone.
func TestClient_RescuesAJobLeftRunningByAKilledProcess(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)

	inserter, err := jobs.NewInsertOnlyClient(pool, nil)
	require.NoError(t, err)
	later := &river.InsertOpts{ScheduledAt: time.Now().Add(time.Hour)}
	stale, err := inserter.Insert(ctx, jobs.ProjectSpaceArgs{SpaceID: "ghost-one", HeadSeq: 1}, later)
	require.NoError(t, err)
	fresh, err := inserter.Insert(ctx, jobs.ProjectSpaceArgs{SpaceID: "ghost-two", HeadSeq: 1}, later)
	require.NoError(t, err)
	// What a worker that was killed mid-job leaves behind: running, attempted, never finished.
	_, err = pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_by = '{killed-host}',
		attempted_at = now() - CASE WHEN id = $1 THEN interval '10 minutes' ELSE interval '10 seconds' END,
		scheduled_at = now() - interval '1 hour' WHERE id IN ($1, $2)`, stale.Job.ID, fresh.Job.ID)
	require.NoError(t, err)

	client, err := jobs.NewClient(pool, jobs.Config{Projector: proj, Workers: 1, JobTimeout: time.Minute, RescueStuckJobsAfter: 5 * time.Minute})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = client.Stop(sctx)
	})

	waitFor(t, "the stale job to be rescued", func() bool {
		return count(t, pool, `SELECT count(*) FROM river_job WHERE id = $1 AND errors::text LIKE '%rescued%'`, stale.Job.ID) == 1
	})
	require.Equal(t, 1, count(t, pool, `SELECT count(*) FROM river_job WHERE id = $1 AND state = 'running' AND errors IS NULL`, fresh.Job.ID),
		"a job running for 10 seconds is not stuck")
}
