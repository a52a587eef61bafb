package jobs

import (
	"context"
	"log/slog"

	"github.com/riverqueue/river"
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

// ProjectSpaceWorker projects a space's new events. Projections arrive with the projections
// issue; until then it acknowledges the work so the queue drains.
type ProjectSpaceWorker struct {
	river.WorkerDefaults[ProjectSpaceArgs]
	logger *slog.Logger
}

// Work handles one job.
func (w *ProjectSpaceWorker) Work(ctx context.Context, job *river.Job[ProjectSpaceArgs]) error {
	w.logger.DebugContext(ctx, "project space", "space_id", job.Args.SpaceID, "head_seq", job.Args.HeadSeq)
	return nil
}
