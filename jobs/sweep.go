package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/retrospective"
	"github.com/zaxy/zaxy/topic"
)

// SweepArgs is the periodic check that every lagging space has projection work, and every
// space with unembedded items, a stale topic model or (with the LLM extractor on) unread
// messages has that work, every projected outcome no retrospective pass judged gets its
// retrospective_credit job, and every space whose memory is in use gets its salience decayed
// once an hour (salience_decay). It heals anything a lost job left behind
// (events loaded with plain SQL, a job discarded after its retries).
type SweepArgs struct{}

// Kind is River's name for the job.
func (SweepArgs) Kind() string { return "sweep" }

// sweepInterval is how often the sweep runs.
const sweepInterval = 30 * time.Second

// sweepLimit caps the spaces one sweep enqueues work for.
const sweepLimit = 1000

// SweepWorker enqueues projection and embedding jobs for spaces that need them.
type SweepWorker struct {
	river.WorkerDefaults[SweepArgs]
	db       pgexec.Executor
	embedder *projection.Embedder
	inferrer *projection.Inferrer
	topic    *topic.Refresher
	latent   *latent.Builder
	// summaries: the episode_summarize worker runs, so spaces with unsummarized episodes are
	// enqueued.
	summaries *latent.SummaryWriter
	// retro: the retrospective_credit worker runs, so outcomes no pass judged are enqueued.
	retro  bool
	logger *slog.Logger
}

// Work handles one sweep.
func (w *SweepWorker) Work(ctx context.Context, job *river.Job[SweepArgs]) error {
	client := river.ClientFromContext[pgx.Tx](ctx)
	lagging, err := projection.LaggingSpaces(ctx, w.db, sweepLimit)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	var params []river.InsertManyParams
	for _, h := range lagging {
		params = append(params, river.InsertManyParams{Args: ProjectSpaceArgs{SpaceID: h.SpaceID, HeadSeq: h.HeadSeq}})
	}
	// Spaces with pending work of one kind, each getting job(space).
	pending := func(spaces []string, err error, job func(space string) river.JobArgs) error {
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		for _, space := range spaces {
			params = append(params, river.InsertManyParams{Args: job(space)})
		}
		return nil
	}
	if w.embedder != nil {
		spaces, err := w.embedder.PendingSpaces(ctx, sweepLimit)
		if err := pending(spaces, err, func(s string) river.JobArgs { return EmbedSpaceArgs{SpaceID: s} }); err != nil {
			return err
		}
	}
	if w.inferrer != nil {
		spaces, err := w.inferrer.PendingSpaces(ctx, sweepLimit)
		if err := pending(spaces, err, func(s string) river.JobArgs { return InferSpaceArgs{SpaceID: s} }); err != nil {
			return err
		}
	}
	if w.topic != nil {
		spaces, err := w.topic.PendingSpaces(ctx, sweepLimit)
		if err := pending(spaces, err, func(s string) river.JobArgs { return TopicSpaceArgs{SpaceID: s} }); err != nil {
			return err
		}
	}
	if w.latent != nil {
		spaces, err := w.latent.PendingSpaces(ctx, sweepLimit)
		if err := pending(spaces, err, func(s string) river.JobArgs { return LatentRebuildArgs{SpaceID: s} }); err != nil {
			return err
		}
	}
	if w.summaries != nil {
		spaces, err := w.summaries.PendingSpaces(ctx, sweepLimit)
		if err := pending(spaces, err, func(s string) river.JobArgs { return EpisodeSummarizeArgs{SpaceID: s} }); err != nil {
			return err
		}
	}
	if w.retro {
		outcomes, err := retrospective.PendingOutcomes(ctx, w.db, sweepLimit)
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		for _, o := range outcomes {
			params = append(params, river.InsertManyParams{Args: RetrospectiveCreditArgs{SpaceID: o.SpaceID, SessionID: o.SessionID, FromSeq: o.FirstSeq}})
		}
	}
	spaces, err := projection.DecayPendingSpaces(ctx, w.db, time.Now(), sweepLimit)
	if err := pending(spaces, err, func(s string) river.JobArgs { return SalienceDecayArgs{SpaceID: s} }); err != nil {
		return err
	}
	if len(params) == 0 {
		return nil
	}
	if _, err := client.InsertMany(ctx, params); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	w.logger.DebugContext(ctx, "sweep enqueued work", "jobs", len(params))
	return nil
}
