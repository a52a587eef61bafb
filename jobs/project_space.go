package jobs

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/projection"
)

// ProjectSpaceArgs asks for a space's projections to be brought up to date. One is enqueued
// in every append's transaction (the outbox), so a committed event always has a job after it.
type ProjectSpaceArgs struct {
	// SpaceID is the space whose log grew.
	SpaceID string `json:"space_id"`
	// HeadSeq is the last seq of the append that enqueued the job.
	HeadSeq int64 `json:"head_seq"`
}

// Kind is River's name for the job.
func (ProjectSpaceArgs) Kind() string { return "project_space" }

// busySnooze is how long a job waits when another worker is projecting its space.
const busySnooze = time.Second

// ProjectSpaceWorker projects a space's new events, then asks for their embeddings, the
// space's topic model refresh and latent artifacts (when on), inferences (when the
// LLM-assisted extractor is on) and the retrospective credit of the outcomes it projected.
type ProjectSpaceWorker struct {
	river.WorkerDefaults[ProjectSpaceArgs]
	projector *projection.Projector
	db        pgexec.Executor
	embedding bool
	inference bool
	topic     bool
	latent    bool
	retro     bool
	logger    *slog.Logger
}

// Work handles one job. When another worker holds the space, the job is done if that worker
// has already passed HeadSeq, and snoozes otherwise, so no event is left unprojected.
func (w *ProjectSpaceWorker) Work(ctx context.Context, job *river.Job[ProjectSpaceArgs]) error {
	res, err := w.projector.ProjectSpace(ctx, job.Args.SpaceID)
	if errors.Is(err, projection.ErrBusy) {
		lag, lerr := projection.Lag(ctx, w.db, job.Args.SpaceID)
		if lerr == nil && len(lag) == 1 && lag[0].ProjectedSeq >= job.Args.HeadSeq {
			return nil
		}
		return river.JobSnooze(busySnooze)
	}
	if err != nil {
		return err
	}
	w.logger.DebugContext(ctx, "projected space", "space_id", job.Args.SpaceID, "applied", res.Applied, "projected_seq", res.ProjectedSeq)
	if res.Applied == 0 {
		return nil
	}
	var follow []river.InsertManyParams
	if w.embedding {
		follow = append(follow, river.InsertManyParams{Args: EmbedSpaceArgs{SpaceID: job.Args.SpaceID}})
	}
	if w.inference {
		follow = append(follow, river.InsertManyParams{Args: InferSpaceArgs{SpaceID: job.Args.SpaceID}})
	}
	if w.topic {
		follow = append(follow, river.InsertManyParams{Args: TopicSpaceArgs{SpaceID: job.Args.SpaceID}})
	}
	if w.latent {
		follow = append(follow, river.InsertManyParams{Args: LatentRebuildArgs{SpaceID: job.Args.SpaceID}})
	}
	if w.retro {
		// Seqs are gapless per space and the run applied every event past the old watermark.
		jobs, err := retrospectiveFollowUps(ctx, w, job.Args.SpaceID, res.ProjectedSeq-int64(res.Applied), res.ProjectedSeq)
		if err != nil {
			return err
		}
		follow = append(follow, jobs...)
	}
	if len(follow) > 0 {
		if _, err := river.ClientFromContext[pgx.Tx](ctx).InsertMany(ctx, follow); err != nil {
			return err
		}
	}
	return nil
}
