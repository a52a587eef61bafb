package projection

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/internal/pgexec"
)

// RebuildResult reports a rebuild.
type RebuildResult struct {
	// SpaceID is the rebuilt space.
	SpaceID string `json:"space_id"`
	// Events is how many events were replayed.
	Events int `json:"events"`
	// ProjectedSeq is the watermark afterwards.
	ProjectedSeq int64 `json:"projected_seq"`
	// EmbeddingsPruned counts the vectors dropped because their item is gone or changed;
	// the others are kept, being a pure function of the model and the unchanged text.
	EmbeddingsPruned int64 `json:"embeddings_pruned"`
	// Duration is how long it took.
	Duration time.Duration `json:"duration_ns"`
}

// Rebuild discards space's projections and replays its whole log, in one transaction:
// readers see the old projections until the new ones commit, and workers wait. Embeddings
// whose item came back with the same text are kept; the rest are pruned, and the embedding
// job (or Embedder.EmbedSpace) computes the missing ones.
func (p *Projector) Rebuild(ctx context.Context, space string) (*RebuildResult, error) {
	start := time.Now()
	res := &RebuildResult{SpaceID: space}
	if err := queries.WatermarkEnsure(ctx, p.db, space); err != nil {
		return nil, fmt.Errorf("rebuild %q: %w", space, mapFK(err, space))
	}
	err := pgx.BeginFunc(ctx, p.db, func(tx pgx.Tx) error {
		return p.rebuildTx(ctx, tx, space, res)
	})
	if err != nil {
		return nil, fmt.Errorf("rebuild %q: %w", space, err)
	}
	res.Duration = time.Since(start)
	return res, nil
}

// RebuildTx does what Rebuild does inside the caller's transaction (an erasure purges a
// space's projections this way, in the transaction that erases the event). The space must
// exist.
func (p *Projector) RebuildTx(ctx context.Context, tx pgx.Tx, space string) (*RebuildResult, error) {
	start := time.Now()
	res := &RebuildResult{SpaceID: space}
	if err := queries.WatermarkEnsure(ctx, tx, space); err != nil {
		return nil, fmt.Errorf("rebuild %q: %w", space, mapFK(err, space))
	}
	if err := p.rebuildTx(ctx, tx, space, res); err != nil {
		return nil, fmt.Errorf("rebuild %q: %w", space, err)
	}
	res.Duration = time.Since(start)
	return res, nil
}

// rebuildTx discards space's projections and replays its log in tx.
func (p *Projector) rebuildTx(ctx context.Context, tx pgx.Tx, space string, res *RebuildResult) error {
	if _, err := queries.WatermarkLockWait(ctx, tx, space); err != nil {
		return fmt.Errorf("lock watermark: %w", err)
	}
	if err := p.discardTx(ctx, tx, space); err != nil {
		return err
	}
	head, err := queries.SpaceHead(ctx, tx, space)
	if err != nil {
		return fmt.Errorf("read the log's head: %w", err)
	}
	return p.replayTx(ctx, tx, space, head, res)
}

// discardTx discards space's projections and resets its watermark; tx holds the watermark lock.
func (p *Projector) discardTx(ctx context.Context, tx pgx.Tx, space string) error {
	if err := queries.Discard(ctx, tx, space); err != nil {
		return fmt.Errorf("discard projections: %w", err)
	}
	if p.age {
		if err := queries.AGEDrop(ctx, tx, space); err != nil {
			return fmt.Errorf("discard graph mirror: %w", err)
		}
	}
	if err := queries.DiscardItems(ctx, tx, space); err != nil {
		return fmt.Errorf("discard projections: %w", err)
	}
	return nil
}

// replayTx applies space's events up to seq upTo onto discarded projections, then prunes the
// embeddings whose item is gone or changed. A replay stops at the head it was given: an event
// appended meanwhile (an erasure record among them) is left to the next batch, which purges
// again if it must.
func (p *Projector) replayTx(ctx context.Context, tx pgx.Tx, space string, upTo int64, res *RebuildResult) error {
	for upTo > 0 {
		n, last, err := p.projectBatchTx(ctx, tx, space, batchOpts{wait: true, upTo: upTo})
		if err != nil {
			return err
		}
		res.Events += n
		if n > 0 {
			res.ProjectedSeq = last
		}
		if n == 0 || last >= upTo {
			break
		}
	}
	pruned, err := queries.EmbedPrune(ctx, tx, space)
	if err != nil {
		return fmt.Errorf("prune embeddings: %w", err)
	}
	res.EmbeddingsPruned = pruned
	return nil
}

// Spaces lists every space in the log.
func (p *Projector) Spaces(ctx context.Context) ([]string, error) {
	spaces, err := queries.SpacesList(ctx, p.db)
	if err != nil {
		return nil, fmt.Errorf("list spaces: %w", err)
	}
	return spaces, nil
}

// Checksum is a deterministic digest of a space's projected state with its row counts.
type Checksum struct {
	SpaceID       string `json:"space_id"`
	Digest        string `json:"digest"`
	Entities      int64  `json:"entities"`
	Mentions      int64  `json:"mentions"`
	Facts         int64  `json:"facts"`
	Invalidations int64  `json:"invalidations"`
	Items         int64  `json:"items"`
	// Terms counts the space's distinct lexemes (rows of term_stats).
	Terms int64 `json:"terms"`
	// Speakers counts the names that speak in the space (rows of speaker_names).
	Speakers int64 `json:"speakers"`
	// Proposals counts the space's proposals under review or decided (rows of proposals).
	Proposals int64 `json:"proposals"`
	// Reinforcements counts the rows of the reinforcement ledger.
	Reinforcements int64 `json:"reinforcements"`
	// Artifacts counts the space's latent artifacts, stale ones included (rows of
	// latent_artifacts, package latent).
	Artifacts int64 `json:"artifacts"`
}

// Checksum digests space's projections (every row except embeddings, which are computed
// asynchronously from the memory items' text). An incrementally projected space and its
// rebuild have the same digest.
func (p *Projector) Checksum(ctx context.Context, space string) (*Checksum, error) {
	tx, err := pgexec.BeginTx(ctx, p.db, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, fmt.Errorf("checksum %q: %w", space, err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // read only
	r, err := queries.Checksum(ctx, tx, space)
	if err != nil {
		return nil, fmt.Errorf("checksum %q: %w", space, err)
	}
	return &Checksum{SpaceID: space, Digest: r.Digest, Entities: r.Entities, Mentions: r.Mentions, Facts: r.Facts,
		Invalidations: r.Invalidations, Items: r.Items, Terms: r.Terms, Speakers: r.Speakers, Proposals: r.Proposals,
		Reinforcements: r.Reinforcements, Artifacts: r.Artifacts}, nil
}

// Lag returns the projection status of space, or of every space when space is "".
func Lag(ctx context.Context, db Querier, space string) ([]Status, error) {
	rows, err := queries.Status(ctx, db, space)
	if err != nil {
		return nil, fmt.Errorf("read projection status: %w", err)
	}
	out := make([]Status, len(rows))
	for i, r := range rows {
		out[i] = Status{SpaceID: r.SpaceID, HeadSeq: r.HeadSeq, ProjectedSeq: r.ProjectedSeq, Lag: r.Lag,
			HeadAt: r.HeadAt, ProjectedAt: r.ProjectedAt}
	}
	return out, nil
}

// SpaceHead is a space and the seq of its last event.
type SpaceHead struct {
	SpaceID string
	HeadSeq int64
}

// LaggingSpaces returns up to limit spaces whose projections are behind their log, in space
// order, with their heads (the sweep enqueues projection work for them).
func LaggingSpaces(ctx context.Context, db Querier, limit int) ([]SpaceHead, error) {
	rows, err := queries.LaggingSpaces(ctx, db, clampInt32(limit))
	if err != nil {
		return nil, fmt.Errorf("read lagging spaces: %w", err)
	}
	out := make([]SpaceHead, len(rows))
	for i, r := range rows {
		out[i] = SpaceHead{SpaceID: r.SpaceID, HeadSeq: r.HeadSeq}
	}
	return out, nil
}

// Querier is what this package's helpers need: a pool, a connection or a transaction.
type Querier = pgexec.Executor

// clampInt32 is n as a LIMIT parameter (sqlc types LIMIT as int4).
func clampInt32(n int) int32 { return int32(max(min(n, math.MaxInt32), 0)) }
