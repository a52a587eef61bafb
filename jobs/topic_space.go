package jobs

import (
	"context"
	"log/slog"

	"github.com/riverqueue/river"

	"github.com/zaxy/zaxy/topic"
)

// TopicSpaceArgs asks for a space's topic model (its latent semantic model) to be brought up to date (package topic):
// rebuilt when the space has grown enough, otherwise new sessions' topics folded in.
type TopicSpaceArgs struct {
	// SpaceID is the space to refresh.
	SpaceID string `json:"space_id"`
}

// Kind is River's name for the job.
func (TopicSpaceArgs) Kind() string { return "topic_space" }

// InsertOpts makes the job unique per space while one is waiting or running, as embed_space.
func (TopicSpaceArgs) InsertOpts() river.InsertOpts { return EmbedSpaceArgs{}.InsertOpts() }

// TopicSpaceWorker refreshes a space's topic model.
type TopicSpaceWorker struct {
	river.WorkerDefaults[TopicSpaceArgs]
	refresher *topic.Refresher
	logger    *slog.Logger
}

// Work handles one job.
func (w *TopicSpaceWorker) Work(ctx context.Context, job *river.Job[TopicSpaceArgs]) error {
	res, err := w.refresher.Refresh(ctx, job.Args.SpaceID)
	if err != nil {
		return err
	}
	w.logger.DebugContext(ctx, "refreshed topic model", "space_id", job.Args.SpaceID, "rebuilt", res.Rebuilt,
		"docs", res.Docs, "dims", res.Dims, "terms", res.Terms, "topics", res.Topics, "ms", res.Took.Milliseconds())
	return nil
}
