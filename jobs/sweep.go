package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/sql"
)

// SweepArgs is the periodic check that every lagging space has projection work, and every
// space with unembedded items, a stale latent model or (with the LLM extractor on) unread
// messages has that work. It heals anything a lost job left behind
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
	projector *projection.Projector
	embedder  *projection.Embedder
	inferrer  *projection.Inferrer
	latent    *latent.Refresher
	logger    *slog.Logger
}

// Work handles one sweep.
func (w *SweepWorker) Work(ctx context.Context, job *river.Job[SweepArgs]) error {
	client := river.ClientFromContext[pgx.Tx](ctx)
	pool := w.projector.Pool()
	rows, err := pool.Query(ctx, sql.Query("projection/lagging_spaces"), sweepLimit)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	var params []river.InsertManyParams
	var space string
	var head int64
	if _, err := pgx.ForEachRow(rows, []any{&space, &head}, func() error {
		params = append(params, river.InsertManyParams{Args: ProjectSpaceArgs{SpaceID: space, HeadSeq: head}})
		return nil
	}); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	// Spaces with pending work of one kind: one space id per row of query.
	pending := func(query string, args []any, job func(space string) river.JobArgs) error {
		rows, err := pool.Query(ctx, sql.Query(query), args...)
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		_, err = pgx.ForEachRow(rows, []any{&space}, func() error {
			params = append(params, river.InsertManyParams{Args: job(space)})
			return nil
		})
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		return nil
	}
	if w.embedder != nil {
		if err := pending("projection/embed_spaces_pending", []any{w.embedder.Model(), sweepLimit},
			func(s string) river.JobArgs { return EmbedSpaceArgs{SpaceID: s} }); err != nil {
			return err
		}
	}
	if w.inferrer != nil {
		if err := pending("projection/infer_spaces_pending", []any{w.inferrer.Model(), sweepLimit},
			func(s string) river.JobArgs { return InferSpaceArgs{SpaceID: s} }); err != nil {
			return err
		}
	}
	if w.latent != nil {
		if err := pending("latent/spaces_pending", []any{w.latent.MinDocs(), sweepLimit},
			func(s string) river.JobArgs { return LatentSpaceArgs{SpaceID: s} }); err != nil {
			return err
		}
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
