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
	if w.embedder != nil {
		rows, err := pool.Query(ctx, sql.Query("projection/embed_spaces_pending"), w.embedder.Model(), sweepLimit)
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		if _, err := pgx.ForEachRow(rows, []any{&space}, func() error {
			params = append(params, river.InsertManyParams{Args: EmbedSpaceArgs{SpaceID: space}})
			return nil
		}); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	if w.inferrer != nil {
		rows, err := pool.Query(ctx, sql.Query("projection/infer_spaces_pending"), w.inferrer.Model(), sweepLimit)
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		if _, err := pgx.ForEachRow(rows, []any{&space}, func() error {
			params = append(params, river.InsertManyParams{Args: InferSpaceArgs{SpaceID: space}})
			return nil
		}); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	if w.latent != nil {
		rows, err := pool.Query(ctx, sql.Query("latent/spaces_pending"), w.latent.MinDocs(), sweepLimit)
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		if _, err := pgx.ForEachRow(rows, []any{&space}, func() error {
			params = append(params, river.InsertManyParams{Args: LatentSpaceArgs{SpaceID: space}})
			return nil
		}); err != nil {
			return fmt.Errorf("sweep: %w", err)
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
