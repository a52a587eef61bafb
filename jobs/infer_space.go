package jobs

import (
	"context"
	"log/slog"

	"github.com/riverqueue/river"

	"github.com/zaxy/zaxy/projection"
)

// InferSpaceArgs asks the optional LLM-assisted extractor to read a space's new messages and
// chunks.
type InferSpaceArgs struct {
	// SpaceID is the space to read.
	SpaceID string `json:"space_id"`
}

// Kind is River's name for the job.
func (InferSpaceArgs) Kind() string { return "infer_space" }

// InsertOpts makes the job unique per space while one is waiting or running.
func (InferSpaceArgs) InsertOpts() river.InsertOpts { return EmbedSpaceArgs{}.InsertOpts() }

// InferSpaceWorker calls the model; a failing model fails the job, which River retries.
type InferSpaceWorker struct {
	river.WorkerDefaults[InferSpaceArgs]
	inferrer *projection.Inferrer
	logger   *slog.Logger
}

// Work handles one job.
func (w *InferSpaceWorker) Work(ctx context.Context, job *river.Job[InferSpaceArgs]) error {
	n, err := w.inferrer.InferSpace(ctx, job.Args.SpaceID)
	if err != nil {
		w.logger.WarnContext(ctx, "inference failed; will retry", "space_id", job.Args.SpaceID, "model", w.inferrer.Model(), "error", err)
		return err
	}
	w.logger.DebugContext(ctx, "inferred space", "space_id", job.Args.SpaceID, "model", w.inferrer.Model(), "events", n)
	return nil
}
