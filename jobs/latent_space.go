package jobs

import (
	"context"
	"log/slog"

	"github.com/riverqueue/river"

	"github.com/zaxy/zaxy/latent"
)

// LatentSpaceArgs asks for a space's latent model to be brought up to date (package latent):
// rebuilt when the space has grown enough, otherwise new sessions' topics folded in.
type LatentSpaceArgs struct {
	// SpaceID is the space to refresh.
	SpaceID string `json:"space_id"`
}

// Kind is River's name for the job.
func (LatentSpaceArgs) Kind() string { return "latent_space" }

// InsertOpts makes the job unique per space while one is waiting or running, as embed_space.
func (LatentSpaceArgs) InsertOpts() river.InsertOpts { return EmbedSpaceArgs{}.InsertOpts() }

// LatentSpaceWorker refreshes a space's latent model.
type LatentSpaceWorker struct {
	river.WorkerDefaults[LatentSpaceArgs]
	refresher *latent.Refresher
	logger    *slog.Logger
}

// Work handles one job.
func (w *LatentSpaceWorker) Work(ctx context.Context, job *river.Job[LatentSpaceArgs]) error {
	res, err := w.refresher.Refresh(ctx, job.Args.SpaceID)
	if err != nil {
		return err
	}
	w.logger.DebugContext(ctx, "refreshed latent model", "space_id", job.Args.SpaceID, "rebuilt", res.Rebuilt,
		"docs", res.Docs, "dims", res.Dims, "terms", res.Terms, "topics", res.Topics, "ms", res.Took.Milliseconds())
	return nil
}
