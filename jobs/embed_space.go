package jobs

import (
	"context"
	"log/slog"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/zaxy/zaxy/projection"
)

// EmbedSpaceArgs asks for the missing embeddings of a space's memory items.
type EmbedSpaceArgs struct {
	// SpaceID is the space to embed.
	SpaceID string `json:"space_id"`
}

// Kind is River's name for the job.
func (EmbedSpaceArgs) Kind() string { return "embed_space" }

// InsertOpts makes the job unique per space while one is waiting or running; the sweep job
// catches anything projected while a run was finishing.
func (EmbedSpaceArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{
		ByArgs: true,
		ByState: []rivertype.JobState{
			rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
			rivertype.JobStateRetryable, rivertype.JobStateScheduled,
		},
	}}
}

// EmbedSpaceWorker calls the embedding provider for a space's new memory items. A failing
// provider fails the job, which River retries with backoff; appends and projection go on.
type EmbedSpaceWorker struct {
	river.WorkerDefaults[EmbedSpaceArgs]
	embedder *projection.Embedder
	logger   *slog.Logger
}

// Work handles one job.
func (w *EmbedSpaceWorker) Work(ctx context.Context, job *river.Job[EmbedSpaceArgs]) error {
	n, err := w.embedder.EmbedSpace(ctx, job.Args.SpaceID)
	if err != nil {
		w.logger.WarnContext(ctx, "embedding failed; will retry", "space_id", job.Args.SpaceID, "model", w.embedder.Model(), "error", err)
		return err
	}
	w.logger.DebugContext(ctx, "embedded space", "space_id", job.Args.SpaceID, "model", w.embedder.Model(), "items", n)
	return nil
}
