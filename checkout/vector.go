package checkout

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/sql"
)

// VectorHit is one item the vector lane found.
type VectorHit struct {
	ItemID   string
	Distance float64
}

// VectorParams is a vector lane query.
type VectorParams struct {
	SpaceID string
	// Model and Dimensions name the embedding model; only its vectors are compared.
	Model      string
	Dimensions int
	// Vector is the query embedding, of length Dimensions.
	Vector []float32
	// K is how many items to return. Defaults to 20.
	K int
	// EfSearch is HNSW's candidate list size (hnsw.ef_search). Defaults to 100.
	EfSearch int
	// Exact scans every vector of the space instead of using the HNSW index.
	Exact bool
	// ExactMax is the most vectors a space may have to be scanned exactly anyway; 0 means
	// projection.HNSWThreshold (below it a space's vectors are not in the index), negative
	// means always use the index path.
	ExactMax int
}

// exactScanMax is the largest number of vectors a space may have for the vector lane to scan
// them exactly: up to projection.HNSWThreshold a space's vectors are not in the HNSW index.
const exactScanMax = projection.HNSWThreshold

// hnswMaxK caps the rows the vector lane takes through the HNSW index (exact scans return K).
const hnswMaxK = 40

// Vector returns the K items of a space nearest to the query vector by cosine distance,
// nearest first. It uses the model's partial HNSW index with iterative scans, so a space
// filter still yields K rows; Exact scans instead (for ground truth and tiny spaces).
func Vector(ctx context.Context, pool *pgxpool.Pool, p VectorParams) ([]VectorHit, error) {
	if p.K == 0 {
		p.K = 20
	}
	if p.EfSearch == 0 {
		p.EfSearch = 100
	}
	if len(p.Vector) != p.Dimensions || p.Dimensions < 1 || p.Dimensions > 4000 {
		return nil, fmt.Errorf("vector lane: query vector has %d dimensions, the model %s has %d", len(p.Vector), p.Model, p.Dimensions)
	}
	vec := projection.VectorText(p.Vector)
	var hits []VectorHit
	err := pgx.BeginTxFunc(ctx, pool, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		query := "checkout/vector_hnsw"
		if p.ExactMax == 0 {
			p.ExactMax = exactScanMax
		}
		if !p.Exact && p.ExactMax > 0 {
			if err := tx.QueryRow(ctx, sql.Query("checkout/vector_small"), p.SpaceID, p.Model, p.ExactMax).Scan(&p.Exact); err != nil {
				return err
			}
		}
		if p.Exact {
			query = "checkout/vector_exact"
			if _, err := tx.Exec(ctx, "SET LOCAL enable_indexscan = off"); err != nil {
				return err
			}
		} else if _, err := tx.Exec(ctx, "SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)", strconv.Itoa(p.EfSearch)); err != nil {
			return err
		}
		k := p.K
		if !p.Exact {
			// Every extra row through the index costs a deeper graph walk.
			k = min(k, hnswMaxK)
		}
		// The HNSW index is on embedding::halfvec(dim), so the query must name the same
		// dimension as a literal; it is an integer we checked above.
		text := fmt.Sprintf(sql.Query(query), p.Dimensions)
		rows, err := tx.Query(ctx, text, p.SpaceID, p.Model, vec, k)
		if err != nil {
			return err
		}
		hits, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (VectorHit, error) {
			var h VectorHit
			err := row.Scan(&h.ItemID, &h.Distance)
			return h, err
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("vector lane: %w", err)
	}
	return hits, nil
}
