package projection

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/sql"
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
	if _, err := p.pool.Exec(ctx, sql.Query("projection/watermark_ensure"), space); err != nil {
		return nil, fmt.Errorf("rebuild %q: %w", space, mapFK(err, space))
	}
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
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
	if _, err := tx.Exec(ctx, sql.Query("projection/watermark_ensure"), space); err != nil {
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
	var wm int64
	if err := tx.QueryRow(ctx, sql.Query("projection/watermark_lock_wait"), space).Scan(&wm); err != nil {
		return fmt.Errorf("lock watermark: %w", err)
	}
	if _, err := tx.Exec(ctx, sql.Query("projection/discard"), space); err != nil {
		return fmt.Errorf("discard projections: %w", err)
	}
	if p.age {
		if _, err := tx.Exec(ctx, sql.Query("projection/age_drop"), space); err != nil {
			return fmt.Errorf("discard graph mirror: %w", err)
		}
	}
	if _, err := tx.Exec(ctx, sql.Query("projection/discard_items"), space); err != nil {
		return fmt.Errorf("discard projections: %w", err)
	}
	for {
		n, last, err := p.projectBatchTx(ctx, tx, space, true)
		if err != nil {
			return err
		}
		res.Events += n
		if n > 0 {
			res.ProjectedSeq = last
		}
		if n < p.cfg.BatchSize {
			tag, err := tx.Exec(ctx, sql.Query("projection/embed_prune"), space)
			if err != nil {
				return fmt.Errorf("prune embeddings: %w", err)
			}
			res.EmbeddingsPruned = tag.RowsAffected()
			return nil
		}
	}
}

// Spaces lists every space in the log.
func (p *Projector) Spaces(ctx context.Context) ([]string, error) {
	rows, err := p.pool.Query(ctx, `SELECT space_id FROM spaces ORDER BY space_id`)
	if err != nil {
		return nil, fmt.Errorf("list spaces: %w", err)
	}
	spaces, err := pgx.CollectRows(rows, pgx.RowTo[string])
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
}

// Checksum digests space's projections (every row except embeddings, which are computed
// asynchronously from the memory items' text). An incrementally projected space and its
// rebuild have the same digest.
func (p *Projector) Checksum(ctx context.Context, space string) (*Checksum, error) {
	c := &Checksum{SpaceID: space}
	err := pgx.BeginTxFunc(ctx, p.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, sql.Query("projection/checksum"), space).Scan(&c.Digest, &c.Entities, &c.Mentions, &c.Facts, &c.Invalidations, &c.Items, &c.Terms, &c.Speakers)
	})
	if err != nil {
		return nil, fmt.Errorf("checksum %q: %w", space, err)
	}
	return c, nil
}

// Status is a space's projection progress.
type Status struct {
	SpaceID      string     `json:"space_id"`
	HeadSeq      int64      `json:"head_seq"`
	ProjectedSeq int64      `json:"projected_seq"`
	Lag          int64      `json:"lag"`
	HeadAt       time.Time  `json:"head_at"`
	ProjectedAt  *time.Time `json:"projected_at,omitempty"`
}

// Lag returns the projection status of space, or of every space when space is "".
func Lag(ctx context.Context, q Querier, space string) ([]Status, error) {
	rows, err := q.Query(ctx, sql.Query("projection/status"), space)
	if err != nil {
		return nil, fmt.Errorf("read projection status: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Status, error) {
		var s Status
		err := row.Scan(&s.SpaceID, &s.HeadSeq, &s.ProjectedSeq, &s.Lag, &s.HeadAt, &s.ProjectedAt)
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("read projection status: %w", err)
	}
	return out, nil
}

// Querier is what read-only helpers need: a pool, a connection or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}
