package checkout

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/internal/pgexec"
)

// DefaultEfSearch is the vector lane's hnsw.ef_search unless configured (Config.EfSearch,
// VectorParams.EfSearch). The lane takes at most the mechanism's HNSWMaxK (40) rows through the
// index with iterative scans, so a smaller value walks no less than 40 would. On one space of
// 100,000 LongMemEval sentences (word-vector embedder, halfvec(484) HNSW, m 32,
// ef_construction 128) the lane's query found 0.9985 of the exact path's top 10 at 40 and 0.999
// at 100 (top 40: 0.991 and 0.997) over 200 questions, and the walk touches about half the
// pages (1,800 against 3,800) and takes about half the server's CPU (3 ms against 6 ms a query);
// on 10,000 of those sentences 0.9935 against 0.999 (60: 0.9985): docs/benchmarks.md, "Vector
// lane: where an HNSW scan's time goes". Spaces at or below
// memoryitem.HNSWThreshold vectors are scanned exactly and never use it.
const DefaultEfSearch = 40

// VectorHit is one item the vector lane found.
type VectorHit struct {
	ItemID   string  `db:"item_id"`
	Distance float64 `db:"distance"`
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
	// EfSearch is HNSW's candidate list size (hnsw.ef_search). Defaults to DefaultEfSearch.
	EfSearch int
	// Exact scans every vector of the space instead of using the HNSW index.
	Exact bool
	// AsOf, when set, keeps only items that had occurred by then (memory_items.occurred_at),
	// as the other lanes do.
	AsOf *time.Time
	// Promoted, when set, is whether the space is in the model's HNSW index, already read
	// (VectorPromoted); nil reads it first.
	Promoted *bool
	// MaxIndexRows caps the rows taken through the HNSW index (exact scans return K): every
	// extra row costs a deeper graph walk. Defaults to the first mechanism record's HNSWMaxK.
	MaxIndexRows int
}

// VectorPromoted reports whether a space's vectors of model are in the model's HNSW index.
func VectorPromoted(ctx context.Context, db pgexec.Executor, space, model string) (bool, error) {
	ok, err := queries.VectorPromoted(ctx, db, dbsqlc.VectorPromotedParams{SpaceID: space, Model: model})
	if err != nil {
		return false, fmt.Errorf("vector lane: %w", err)
	}
	return ok, nil
}

// Vector returns the K items of a space nearest to the query vector by cosine distance,
// nearest first. A space promoted to the model's HNSW index (more than
// memoryitem.HNSWThreshold vectors) is searched through the index with iterative scans, so
// the space filter still yields K rows; any other space, or Exact, is scanned exactly (perfect
// recall, and cheaper than the index for a few thousand vectors). Two round trips: whether the
// space is promoted (none when Promoted says), then the search with its settings in one
// pipelined, implicitly transactional batch.
func Vector(ctx context.Context, pool pgexec.Executor, p VectorParams) ([]VectorHit, error) {
	if p.K == 0 {
		p.K = 20
	}
	if p.EfSearch == 0 {
		p.EfSearch = DefaultEfSearch
	}
	if p.MaxIndexRows <= 0 {
		p.MaxIndexRows = mechanism1.HNSWMaxK
	}
	if len(p.Vector) != p.Dimensions || p.Dimensions < 1 || p.Dimensions > 4000 {
		return nil, fmt.Errorf("vector lane: query vector has %d dimensions, the model %s has %d", len(p.Vector), p.Model, p.Dimensions)
	}
	promoted := false
	switch {
	case p.Exact:
	case p.Promoted != nil:
		promoted = *p.Promoted
	default:
		var err error
		if promoted, err = VectorPromoted(ctx, pool, p.SpaceID, p.Model); err != nil {
			return nil, err
		}
	}
	k := p.K
	b := &pgx.Batch{}
	if promoted {
		k = min(k, p.MaxIndexRows)
		dbsqlc.QueueVectorHNSWSettings(b, strconv.Itoa(p.EfSearch))
	} else {
		// Ground truth: no index may stand in for the scan.
		dbsqlc.QueueVectorExactSettings(b)
	}
	// The HNSW index is on embedding::halfvec(dim), so the query must name the same dimension
	// as a literal; it is an integer checked above. The batch runs in one implicit transaction,
	// so the settings above hold for this query only.
	var hits []VectorHit
	a := vectorArgs{HNSW: promoted, Dimensions: p.Dimensions, SpaceID: p.SpaceID, Model: p.Model, Vector: p.Vector, K: k, AsOf: p.AsOf}
	queueVector(b, a, func(h []VectorHit, err error) error {
		hits = h
		return err
	})
	if err := pool.SendBatch(ctx, b).Close(); err != nil {
		return nil, fmt.Errorf("vector lane: %w", err)
	}
	return hits, nil
}
