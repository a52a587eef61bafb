package checkout_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/testcontainers"
)

// realTexts returns up to n distinct sentences of at least 20 characters from the LongMemEval
// dev haystacks ($ZAXY_BENCH_DIR or ../../shared/bench), real conversational text.
func realTexts(b *testing.B, n int) []string {
	dir := os.Getenv("ZAXY_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "bench")
	}
	f, err := os.Open(filepath.Join(dir, "longmemeval_s_dev.json"))
	if err != nil {
		b.Fatalf("LongMemEval dev file: %v (set ZAXY_BENCH_DIR)", err)
	}
	defer f.Close()
	out, err := bench.Sentences(f, n)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkVectorLane_Recall loads 100,000 offline embeddings of real conversational
// sentences (LongMemEval dev) spread over 4 spaces, builds
// the HNSW index, and measures space-filtered top-10 queries against exact search: it
// reports recall@10 and p50/p95 latency in ms.
func BenchmarkVectorLane_Recall(b *testing.B) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(b)
	pool := db.AdminPool(b)
	emb := embedding.NewOffline()
	rng := rand.New(rand.NewPCG(3, 4))
	const spaces = 4
	all := realTexts(b, 100200)
	queries := all[len(all)-200:]
	corpus := all[:len(all)-200]
	total := len(corpus)
	var rows [][]any
	for i := 0; i < total; i += 1000 {
		texts := corpus[i:min(i+1000, total)]
		vs, err := emb.Embed(ctx, texts)
		if err != nil {
			b.Fatal(err)
		}
		for j, v := range vs {
			n := i + j
			rows = append(rows, []any{fmt.Sprintf("s%d", n%spaces), memoryitem.EventID(int64(n)), emb.Model(), emb.Dimensions(), pgvector.NewVector(v).String(), []byte{0}})
		}
	}
	if _, err := pool.Exec(ctx, `INSERT INTO spaces (space_id, head_seq, head_hash, head_at)
		SELECT 's' || g, 0, '\x00', now() FROM generate_series(0, 3) g`); err != nil {
		b.Fatal(err)
	}
	// COPY cannot cast text to vector, so stage the rows and insert them in one statement.
	conn, err := pool.Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `CREATE TEMP TABLE stage (space_id text, item_id text, model text, dim int, embedding text, text_hash bytea)`); err != nil {
		b.Fatal(err)
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"stage"}, []string{"space_id", "item_id", "model", "dim", "embedding", "text_hash"}, pgx.CopyFromRows(rows)); err != nil {
		b.Fatal(err)
	}
	// The spaces are past the HNSW threshold: their rows are promoted to the index.
	if _, err := conn.Exec(ctx, `INSERT INTO embeddings (space_id, item_id, model, dim, embedding, text_hash, indexed)
		SELECT space_id, item_id, model, dim, embedding::vector, text_hash, true FROM stage;
		INSERT INTO vector_spaces (space_id, model) SELECT DISTINCT space_id, model FROM stage`); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if _, err := conn.Exec(ctx, `SET maintenance_work_mem = '512MB'`); err != nil {
		b.Fatal(err)
	}
	var index string
	if err := conn.QueryRow(ctx, `SELECT zaxy_ensure_vector_index($1, $2)`, emb.Model(), emb.Dimensions()).Scan(&index); err != nil {
		b.Fatal(err)
	}
	// ZAXY_BENCH_HNSW="m = 32, ef_construction = 128" rebuilds the index with other
	// parameters, to compare them.
	if with := os.Getenv("ZAXY_BENCH_HNSW"); with != "" {
		if _, err := conn.Exec(ctx, fmt.Sprintf(`DROP INDEX %s; CREATE INDEX %s ON embeddings USING hnsw ((embedding::halfvec(%d)) halfvec_cosine_ops) WITH (%s) WHERE model = '%s'`,
			index, index, emb.Dimensions(), with, emb.Model())); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("HNSW build over %d vectors: %s", total, time.Since(start))
	if _, err := conn.Exec(ctx, `ANALYZE embeddings`); err != nil {
		b.Fatal(err)
	}

	rng.Shuffle(len(queries), func(i, j int) { queries[i], queries[j] = queries[j], queries[i] })
	qv, err := emb.Embed(ctx, queries)
	if err != nil {
		b.Fatal(err)
	}
	for _, ef := range []int{40, 100, 200} {
		b.Run(fmt.Sprintf("ef_search=%d", ef), func(b *testing.B) { measureVectorLane(b, pool, emb, qv, spaces, ef) })
	}
}

func measureVectorLane(b *testing.B, pool *pgxpool.Pool, emb embedding.Embedder, qv [][]float32, spaces, ef int) {
	ctx := context.Background()
	for b.Loop() {
		var recall float64
		var lat []time.Duration
		for i, v := range qv {
			p := checkout.VectorParams{SpaceID: fmt.Sprintf("s%d", i%spaces), Model: emb.Model(), Dimensions: emb.Dimensions(), Vector: v, K: 10, EfSearch: ef}
			t0 := time.Now()
			approx, err := checkout.Vector(ctx, pool, p)
			lat = append(lat, time.Since(t0))
			if err != nil {
				b.Fatal(err)
			}
			p.Exact = true
			exact, err := checkout.Vector(ctx, pool, p)
			if err != nil {
				b.Fatal(err)
			}
			found := 0
			for _, h := range approx {
				if slices.ContainsFunc(exact, func(e checkout.VectorHit) bool { return e.ItemID == h.ItemID || e.Distance == h.Distance }) {
					found++
				}
			}
			recall += float64(found) / float64(len(exact))
		}
		slices.Sort(lat)
		b.ReportMetric(recall/float64(len(qv)), "recall@10")
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50_ms")
		b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95_ms")
	}
}
