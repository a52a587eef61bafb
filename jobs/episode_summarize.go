package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/zaxy/zaxy/latent"
)

// EpisodeSummarizeArgs asks the optional LLM-assisted summarizer to summarize a space's current
// episodes that have no summary by its model yet (docs/latent.md, "LLM-assisted summaries").
type EpisodeSummarizeArgs struct {
	// SpaceID is the space to summarize.
	SpaceID string `json:"space_id"`
}

// Kind is River's name for the job.
func (EpisodeSummarizeArgs) Kind() string { return "episode_summarize" }

// InsertOpts makes the job unique per space while one is waiting or running.
func (EpisodeSummarizeArgs) InsertOpts() river.InsertOpts { return EmbedSpaceArgs{}.InsertOpts() }

// summarizeFollowUp is how soon an episode_summarize runs again when it left episodes for later.
const summarizeFollowUp = time.Second

// EpisodeSummarizeWorker calls the model; a failing model fails the job, which River retries
// (what was stored before the failure stays).
type EpisodeSummarizeWorker struct {
	river.WorkerDefaults[EpisodeSummarizeArgs]
	summaries *latent.SummaryWriter
	logger    *slog.Logger
}

// Work handles one job.
func (w *EpisodeSummarizeWorker) Work(ctx context.Context, job *river.Job[EpisodeSummarizeArgs]) error {
	res, err := w.summaries.SummarizeSpace(ctx, job.Args.SpaceID)
	if err != nil {
		w.logger.WarnContext(ctx, "episode summaries failed; will retry", "space_id", job.Args.SpaceID, "model", w.summaries.Model(), "error", err)
		return err
	}
	w.logger.DebugContext(ctx, "summarized episodes", "space_id", job.Args.SpaceID, "model", w.summaries.Model(),
		"written", res.Written, "gone", res.Gone, "more", res.More)
	if res.More {
		return river.JobSnooze(summarizeFollowUp)
	}
	return nil
}
