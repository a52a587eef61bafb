package erasure

import (
	"context"
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
// transaction), through store, rebuilding projections with proj (which must be configured like
// the workers' projector: same text search configuration and AGE setting, or the rebuilt
// projections differ from the incremental ones).
func New(db pgexec.Executor, store *eventloom.Store, proj *projection.Projector, logger *slog.Logger) *Service {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, store: store, proj: proj, logger: logger}
}

// Result reports one erasure.
type Result struct {
	eventloom.Erasure
	// InferencesDeleted counts the model inferences read from the event that were deleted.
	InferencesDeleted int64 `json:"inferences_deleted"`
	// DerivedErased are the erasures of the proposals interference detection derived from the
	// event (a proposal.created whose data.inference names it repeats what the model read).
	DerivedErased []eventloom.Erasure `json:"derived_erased,omitempty"`
	// LatentModelDropped is true when the space's latent model was dropped (the topic_space
	// job builds a new one from the purged text).
	LatentModelDropped bool `json:"latent_model_dropped"`
	// Rebuild is the rebuild of the space's projections that purged the rest.
	Rebuild *projection.RebuildResult `json:"rebuild"`
	// Duration is the whole operation's wall time.
	Duration time.Duration `json:"duration_ns"`
}

// Erase erases p.Seq of p.SpaceID in one transaction (see the package comment). An unknown
// event is eventloom.ErrNotFound; one hashed under version 1, already erased or itself an
// erasure record is eventloom.ErrNotErasable; bad parameters are eventloom.ErrInvalid naming
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
		res.Rebuild, err = s.proj.RebuildTx(ctx, tx, p.SpaceID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("erase seq %d of space %q: %w", p.Seq, p.SpaceID, err)
	}
	res.Duration = time.Since(start)
	// The reason is logged, never the content (which is gone).
	s.logger.InfoContext(ctx, "event erased", "space_id", p.SpaceID, "seq", p.Seq,
		"erasure_seq", res.ErasureSeq, "events_replayed", res.Rebuild.Events,
		"embeddings_pruned", res.Rebuild.EmbeddingsPruned, "duration_ms", res.Duration.Milliseconds())
	return res, nil
}
