package erasure

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/erasure/internal/dbsqlc"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/projection"
)

// Service erases events.
type Service struct {
	db     pgexec.Executor
	store  *eventloom.Store
	proj   *projection.Projector
	logger *slog.Logger
}

// New returns a Service that erases in one transaction begun on db (a pool, or a connection or
// transaction), through store. After the erasure commits it asks proj (which must be configured
// like the workers' projector: same text search configuration and AGE setting, or the purged
// projections differ from the incremental ones) to project the space, which purges the
// projections, unless a worker holds the space: that worker purges them when it reaches the
// erasure record.
func New(db pgexec.Executor, store *eventloom.Store, proj *projection.Projector, logger *slog.Logger) *Service {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, store: store, proj: proj, logger: logger}
}

// Erase erases p.Seq of p.SpaceID in one transaction (see the package comment) that never
// waits for the space's projector: the erasure record, the tombstone and the erasure of the
// derived proposals commit at once, and the projections are purged after (Result.PurgeSeq). An
// unknown event is eventloom.ErrNotFound; one hashed under version 1, already erased or itself
// an erasure record is eventloom.ErrNotErasable; bad parameters are validation.ErrInvalid naming
// the field. Nothing is changed unless everything is.
func (s *Service) Erase(ctx context.Context, p *eventloom.EraseParams) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	res := &Result{}
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		// First the space's erasure lock: writers of derived data wait, then look again.
		if err := eventloom.LockErasure(ctx, tx, p.SpaceID); err != nil {
			return fmt.Errorf("lock space: %w", err)
		}
		e, err := s.store.EraseTx(ctx, tx, p)
		if err != nil {
			return err
		}
		res.Erasure = *e
		res.PurgeSeq = e.ErasureSeq
		q := dbsqlc.New()
		derived, err := q.DerivedProposals(ctx, tx, dbsqlc.DerivedProposalsParams{SpaceID: p.SpaceID, Seq: p.Seq})
		if err != nil {
			return fmt.Errorf("find derived proposals: %w", err)
		}
		for _, seq := range derived {
			d, err := s.store.EraseTx(ctx, tx, &eventloom.EraseParams{SpaceID: p.SpaceID, Seq: seq, Actor: p.Actor,
				Reason: fmt.Sprintf("derived from erased event %d", p.Seq)})
			if err != nil {
				return fmt.Errorf("erase derived proposal %d: %w", seq, err)
			}
			res.DerivedErased = append(res.DerivedErased, *d)
			res.PurgeSeq = max(res.PurgeSeq, d.ErasureSeq)
		}
		res.InferencesDeleted, err = q.InferencesDelete(ctx, tx, dbsqlc.InferencesDeleteParams{SpaceID: p.SpaceID, Seq: p.Seq})
		if err != nil {
			return fmt.Errorf("delete inferences: %w", err)
		}
		dropped, err := q.LatentDrop(ctx, tx, p.SpaceID)
		if err != nil {
			return fmt.Errorf("drop latent model: %w", err)
		}
		res.LatentModelDropped = dropped > 0
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("erase seq %d of space %q: %w", p.Seq, p.SpaceID, err)
	}
	res.ProjectionsPurged = s.purge(ctx, p.SpaceID, res.PurgeSeq)
	res.Duration = time.Since(start)
	// The reason is logged, never the content (which is gone).
	s.logger.InfoContext(ctx, "event erased", "space_id", p.SpaceID, "seq", p.Seq,
		"erasure_seq", res.ErasureSeq, "projections_purged", res.ProjectionsPurged, "duration_ms", res.Duration.Milliseconds())
	return res, nil
}

// purge projects space now unless a worker holds it, and reports whether its projections have
// reached upTo (and so are purged). It never waits for a worker: a busy space is purged by
// the worker holding it, or by the projection job enqueued here. The erasure has committed, so
// a failure here is logged and left to the workers.
func (s *Service) purge(ctx context.Context, space string, upTo int64) bool {
	if err := s.store.EnqueueProjection(ctx, space, upTo); err != nil {
		s.logger.WarnContext(ctx, "erasure: enqueue projection", "space_id", space, "error", err)
	}
	if s.proj == nil {
		return false
	}
	r, err := s.proj.ProjectSpace(ctx, space)
	if err != nil {
		if !errors.Is(err, projection.ErrBusy) {
			s.logger.WarnContext(ctx, "erasure: project the space", "space_id", space, "error", err)
		}
		return false
	}
	return r.ProjectedSeq >= upTo
}
