package metamemory_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

// fokBenchSpace is the space BenchmarkFeelingOfKnowing asks: the one `zaxy bench checkout
// --keep` loads, so such a database can be reused.
const fokBenchSpace = "bench"

// BenchmarkFeelingOfKnowing times Service.Feel at 100,000 memories of real conversational
// sentences (LongMemEval dev, as `zaxy bench checkout` loads them): the first answer (which
// builds the space's sketch, reported as build_ms) and then every answer from the cached sketch
// (p50_ms, p95_ms; one round trip each). Set ZAXY_BENCH_FOK_URL to a database `zaxy bench
// checkout --keep` loaded to skip the load; otherwise it loads $ZAXY_BENCH_MEMORIES (default
// 100000) memories into a test database first (a few minutes). Run with -benchtime=2000x.
func BenchmarkFeelingOfKnowing(b *testing.B) {
	ctx := context.Background()
	n := 100000
	if v := os.Getenv("ZAXY_BENCH_MEMORIES"); v != "" {
		fmt.Sscan(v, &n)
	}
	dir := os.Getenv("ZAXY_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "bench")
	}
	f, err := os.Open(filepath.Join(dir, "longmemeval_s_dev.json"))
	if err != nil {
		b.Fatalf("LongMemEval dev file: %v (set ZAXY_BENCH_DIR)", err)
	}
	texts, err := bench.Sentences(f, n+500)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	queries := texts[len(texts)-500:]
	var pool *pgxpool.Pool
	if url := os.Getenv("ZAXY_BENCH_FOK_URL"); url != "" {
		cfg, err := pgxpool.ParseConfig(url)
		if err != nil {
			b.Fatal(err)
		}
		pgexec.Configure(cfg)
		if pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
			b.Fatal(err)
		}
		defer pool.Close()
	} else {
		pool = testcontainers.NewDatabase(b).AppPool(b)
		loadFokBench(ctx, b, pool, texts[:n])
	}
	svc := metamemory.New(pool, metamemory.Config{})
	t0 := time.Now()
	first, err := svc.Feel(ctx, &metamemory.Request{SpaceID: fokBenchSpace, Query: queries[0]})
	if err != nil {
		b.Fatal(err)
	}
	build := time.Since(t0)
	var took []time.Duration
	judged := map[string]int{}
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		f, err := svc.Feel(ctx, &metamemory.Request{SpaceID: fokBenchSpace, Query: queries[i%len(queries)]})
		took = append(took, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		if !f.Sketch.Cached {
			b.Fatal("the sketch should stay cached: nothing is appended")
		}
		judged[f.Judgement]++
	}
	slices.Sort(took)
	b.ReportMetric(float64(build.Microseconds())/1000, "build_ms")
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50_ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95_ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99_ms")
	b.ReportMetric(float64(first.Signals.SpaceItems), "items")
	b.ReportMetric(float64(first.Sketch.Lexemes), "lexemes")
	b.Logf("judgements over the queries: %v", judged)
}

// loadFokBench appends texts as chat messages to fokBenchSpace and projects them.
func loadFokBench(ctx context.Context, b *testing.B, pool *pgxpool.Pool, texts []string) {
	store := eventloom.NewStore(pool, nil, nil)
	for i := 0; i < len(texts); i += 1000 {
		var batch []eventloom.NewEvent
		for j := i; j < min(i+1000, len(texts)); j++ {
			batch = append(batch, eventloom.NewEvent{Type: "message", SessionID: fmt.Sprintf("s%d", j/20), Content: texts[j],
				Data: json.RawMessage(`{"role":"user"}`)})
		}
		if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: fokBenchSpace, Events: batch}); err != nil {
			b.Fatal(err)
		}
	}
	proj, err := projection.New(ctx, pool, projection.Config{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := proj.ProjectSpace(ctx, fokBenchSpace); err != nil {
		b.Fatal(err)
	}
}
