package projection

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pgvector/pgvector-go"

	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection/internal/dbsqlc"
)

// ErrEmbedding means the embedding provider returned something unusable (wrong dimension,
// wrong count, non-finite values) or the model is known with another dimension.
var ErrEmbedding = errors.New("unusable embeddings")

// Embedder fills the embeddings of memory items with one model. The provider is called
// outside any transaction, so a slow or dead provider delays vectors and never blocks
// appends or projection.
type Embedder struct {
	db        pgexec.Executor
	provider  embedding.Embedder
	batchSize int
	threshold int
	mu        sync.Mutex
	ensured   bool
}

// NewEmbedder returns an Embedder storing provider's vectors through db (a pool, or a
// connection or transaction), batchSize items per provider call (default 64).
func NewEmbedder(db pgexec.Executor, provider embedding.Embedder, batchSize int) *Embedder {
	if batchSize <= 0 {
		batchSize = 64
	}
	return &Embedder{db: db, provider: provider, batchSize: batchSize, threshold: memoryitem.HNSWThreshold}
}

// PendingSpaces returns up to limit spaces with memory items that have no vector of this
// Embedder's model yet, in space order.
func (e *Embedder) PendingSpaces(ctx context.Context, limit int) ([]string, error) {
	spaces, err := queries.EmbedSpacesPending(ctx, e.db, dbsqlc.EmbedSpacesPendingParams{Model: e.provider.Model(), MaxRows: clampInt32(limit)})
	if err != nil {
		return nil, fmt.Errorf("read spaces pending embedding: %w", err)
	}
	return spaces, nil
}

// SetHNSWThreshold changes how many vectors a space holds before it is promoted to the HNSW
// index (default memoryitem.HNSWThreshold); for tests and operators tuning large installations.
func (e *Embedder) SetHNSWThreshold(n int) { e.threshold = n }

// Model is the provider's "name@version".
func (e *Embedder) Model() string { return e.provider.Model() }

// ensureIndex registers the model and creates its HNSW index, once per process.
func (e *Embedder) ensureIndex(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ensured {
		return nil
	}
	err := queries.EnsureVectorIndex(ctx, e.db, dbsqlc.EnsureVectorIndexParams{Model: e.provider.Model(), Dimensions: int32(e.provider.Dimensions())})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "ZX010" {
		return fmt.Errorf("%w: %s", ErrEmbedding, pgErr.Message)
	}
	if err != nil {
		return fmt.Errorf("ensure vector index: %w", err)
	}
	e.ensured = true
	return nil
}

// EmbedSpace embeds every memory item of space that has no vector for the model yet, and
// returns how many it stored.
func (e *Embedder) EmbedSpace(ctx context.Context, space string) (int, error) {
	if err := e.ensureIndex(ctx); err != nil {
		return 0, fmt.Errorf("embed space %q: %w", space, err)
	}
	return e.embed(ctx, space)
}

// EmbedSpaceBulk is EmbedSpace for a first bulk load: it stores the vectors without creating
// the model's HNSW index, which EnsureIndex then builds in one pass (much faster than
// inserting into an existing index). Searches before EnsureIndex scan exactly.
func (e *Embedder) EmbedSpaceBulk(ctx context.Context, space string) (int, error) {
	return e.embed(ctx, space)
}

// EnsureIndex registers the model and creates its HNSW index if it does not exist yet.
func (e *Embedder) EnsureIndex(ctx context.Context) error { return e.ensureIndex(ctx) }

func (e *Embedder) embed(ctx context.Context, space string) (int, error) {
	total := 0
	// The pass reads the space's pending items in (seq, item id) order, each batch after the
	// last one read: an item the insert skips (its text changed meanwhile) waits for the next
	// pass instead of being read again in this one.
	after := dbsqlc.EmbedPendingParams{SpaceID: space, Model: e.provider.Model(), MaxRows: clampInt32(e.batchSize)}
	for {
		pending, err := queries.EmbedPending(ctx, e.db, after)
		if err != nil {
			return total, fmt.Errorf("embed space %q: read pending: %w", space, err)
		}
		if n := len(pending); n > 0 {
			after.AfterSeq, after.AfterItem = pending[n-1].Seq, pending[n-1].ItemID
		}
		ids, texts := make([]string, len(pending)), make([]string, len(pending))
		for i, p := range pending {
			ids[i], texts[i] = p.ItemID, p.Text
		}
		if len(ids) == 0 {
			return total, nil
		}
		vectors, err := e.provider.Embed(ctx, texts)
		if err != nil {
			return total, fmt.Errorf("embed space %q with %s: %w", space, e.provider.Model(), err)
		}
		encoded, err := encodeVectors(vectors, len(texts), e.provider.Dimensions())
		if err != nil {
			return total, fmt.Errorf("embed space %q with %s: %w", space, e.provider.Model(), err)
		}
		hashes := make([][]byte, len(texts))
		for i, t := range texts {
			sum := sha256.Sum256([]byte(t))
			hashes[i] = sum[:]
		}
		// Under the space's erasure lock, shared: an erasure since the texts were read has
		// committed by then, and embed_insert no longer finds the erased items.
		var stored int64
		err = pgx.BeginFunc(ctx, e.db, func(tx pgx.Tx) error {
			if err := eventloom.LockErasureShared(ctx, tx, space); err != nil {
				return err
			}
			stored, err = queries.EmbedInsert(ctx, tx, dbsqlc.EmbedInsertParams{SpaceID: space, Model: e.provider.Model(),
				Dim: int32(e.provider.Dimensions()), ItemIds: ids, Embeddings: encoded, TextHashes: hashes})
			return err
		})
		if err != nil {
			return total, fmt.Errorf("embed space %q: store: %w", space, err)
		}
		total += int(stored)
		if stored == 0 || len(ids) < e.batchSize {
			// Done (or everything vanished meanwhile; a later pass continues).
			if err := queries.EmbedPromote(ctx, e.db, dbsqlc.EmbedPromoteParams{SpaceID: space, Model: e.provider.Model(), Threshold: int64(e.threshold)}); err != nil {
				return total, fmt.Errorf("embed space %q: promote to the HNSW index: %w", space, err)
			}
			return total, nil
		}
	}
}

// encodeVectors checks the provider's answer and wraps each vector as a pgvector.Vector (sent
// in pgvector's binary form: the pool registers the type on every connection).
func encodeVectors(vectors [][]float32, want, dim int) ([]*pgvector.Vector, error) {
	if len(vectors) != want {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", ErrEmbedding, len(vectors), want)
	}
	out := make([]*pgvector.Vector, len(vectors))
	for i, v := range vectors {
		if len(v) != dim {
			return nil, fmt.Errorf("%w: vector %d has dimension %d, the model's is %d", ErrEmbedding, i, len(v), dim)
		}
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("%w: vector %d has a non-finite value", ErrEmbedding, i)
			}
		}
		vec := pgvector.NewVector(v)
		out[i] = &vec
	}
	return out, nil
}
