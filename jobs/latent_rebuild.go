package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/zaxy/zaxy/latent"
)

// LatentRebuildArgs asks for a space's latent artifacts to be brought up to its projection
// watermark (package latent): incrementally, from the artifacts' own watermark.
type LatentRebuildArgs struct {
	// SpaceID is the space to build.
	SpaceID string `json:"space_id"`
}

// Kind is River's name for the job.
func (LatentRebuildArgs) Kind() string { return "latent_rebuild" }

// InsertOpts makes the job unique per space while one is waiting or running, as embed_space;
// the sweep catches anything projected while a run was finishing.
func (LatentRebuildArgs) InsertOpts() river.InsertOpts { return EmbedSpaceArgs{}.InsertOpts() }

// latentFollowUp is how soon a latent_rebuild runs again when the space moved on while it ran.
const latentFollowUp = time.Second

// LatentRebuildWorker builds a space's latent artifacts.
type LatentRebuildWorker struct {
	river.WorkerDefaults[LatentRebuildArgs]
	builder *latent.Builder
	// summarize: the episode_summarize worker runs, so a build that wrote artifacts enqueues it.
	summarize bool
	logger    *slog.Logger
}

// Work handles one job.
func (w *LatentRebuildWorker) Work(ctx context.Context, job *river.Job[LatentRebuildArgs]) error {
	res, err := w.builder.Build(ctx, job.Args.SpaceID)
	if err != nil {
		return err
	}
	w.logger.DebugContext(ctx, "built latent artifacts", "space_id", job.Args.SpaceID, "from_seq", res.FromSeq,
		"to_seq", res.ToSeq, "written", res.Written, "staled", res.Staled, "proposed", res.Proposed)
	if w.summarize && res.Written > 0 {
		if _, err := river.ClientFromContext[pgx.Tx](ctx).Insert(ctx, EpisodeSummarizeArgs{SpaceID: job.Args.SpaceID}, nil); err != nil {
			return err
		}
	}
	if res.Proposed > 0 {
		// The proposals are events: project them now rather than at the next sweep, and build
		// again shortly so the artifacts read as proposed.
		if _, err := river.ClientFromContext[pgx.Tx](ctx).Insert(ctx, ProjectSpaceArgs{SpaceID: job.Args.SpaceID}, nil); err != nil {
			return err
		}
		return river.JobSnooze(latentFollowUp)
	}
	// A projection that committed while this job ran could not enqueue another (the job is
	// unique while running): run again shortly rather than wait for the sweep.
	behind, err := w.builder.Behind(ctx, job.Args.SpaceID)
	if err != nil {
		return err
	}
	if behind {
		return river.JobSnooze(latentFollowUp)
	}
	return nil
}
