package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/zaxy/zaxy/maintenance"
)

// ReindexArgs asks for Zaxy's half-empty btree indexes to be rebuilt (maintenance.Reindex).
// It is a periodic job, every Config.ReindexInterval, and runs once when the client starts.
type ReindexArgs struct{}

// Kind is River's name for the job.
func (ReindexArgs) Kind() string { return "reindex" }

// InsertOpts makes the job unique while one waits or runs, and tries it once: a failed run
// (its leftovers dropped) is tried again at the next interval.
func (ReindexArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 1, UniqueOpts: river.UniqueOpts{
		ByArgs: true,
		ByState: []rivertype.JobState{
			rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
			rivertype.JobStateRetryable, rivertype.JobStateScheduled,
		},
	}}
}

// ReindexWorker rebuilds the indexes maintenance.Survey selects, one at a time.
type ReindexWorker struct {
	river.WorkerDefaults[ReindexArgs]
	pool *pgxpool.Pool
	cfg  maintenance.Config
}

// Work handles one run; maintenance.Reindex logs what it rebuilt and the bytes given back.
func (w *ReindexWorker) Work(ctx context.Context, job *river.Job[ReindexArgs]) error {
	if _, err := maintenance.Reindex(ctx, w.pool, w.cfg); err != nil {
		return fmt.Errorf("reindex job: %w", err)
	}
	return nil
}

// reindexJob is the periodic job of cfg, nil when its interval is 0 (off).
func reindexJob(cfg Config) *river.PeriodicJob {
	if cfg.ReindexInterval <= 0 {
		return nil
	}
	return river.NewPeriodicJob(
		river.PeriodicInterval(cfg.ReindexInterval),
		func() (river.JobArgs, *river.InsertOpts) { return ReindexArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true},
	)
}

// DefaultReindexInterval is how often the reindex job runs by default: daily.
const DefaultReindexInterval = 24 * time.Hour
