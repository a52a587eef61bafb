package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

// keywordBenchSpace is the space BenchmarkKeywordLane loads (the one `zaxy bench checkout`
// loads, so a --keep database of it can be reused).
const keywordBenchSpace = "bench"

// BenchmarkKeywordLane times the keyword lane alone (checkout.Keyword, one round trip) at
// 100,000 memories of real conversational sentences (LongMemEval dev, as `zaxy bench
// checkout` loads them), for several candidate budgets. It reports p50/p95 in ms and
// top10_agreement: the share of each query's top 10 that the budget leaves unchanged against
// an unbudgeted scoring of every item holding any query term. Set ZAXY_BENCH_KEYWORD_URL to a
// database `zaxy bench checkout --keep` loaded to skip the load; otherwise it loads
// $ZAXY_BENCH_MEMORIES (default 100000) memories into a test database first (a few minutes).
// Run with -benchtime=200x: each iteration is one query.
func BenchmarkKeywordLane(b *testing.B) {
	ctx := context.Background()
	n := 100000
	if v := os.Getenv("ZAXY_BENCH_MEMORIES"); v != "" {
		fmt.Sscan(v, &n)
	}
	texts := realTexts(b, n+200)
	queries := texts[n:]
	var pool *pgxpool.Pool
	if url := os.Getenv("ZAXY_BENCH_KEYWORD_URL"); url != "" {
		var err error
		if pool, err = pgxpool.New(ctx, url); err != nil {
			b.Fatal(err)
		}
		defer pool.Close()
	} else {
		db := testcontainers.NewDatabase(b)
		pool = db.AppPool(b)
		loadKeywordBench(ctx, b, pool, texts[:n])
		if _, err := db.AdminPool(b).Exec(ctx, "VACUUM ANALYZE memory_items, term_stats, term_totals"); err != nil {
			b.Fatal(err)
		}
	}
	exact := map[int][]string{}
	top10 := func(i, budget int) []string {
		hits, err := checkout.Keyword(ctx, pool, checkout.KeywordParams{SpaceID: keywordBenchSpace, Query: queries[i], K: 10, Candidates: budget})
		if err != nil {
			b.Fatal(err)
		}
		ids := make([]string, len(hits))
		for j, h := range hits {
			ids[j] = h.ItemID
		}
		return ids
	}
	for _, budget := range []int{500, 1000, 2000, 4000, 8000} {
		b.Run(fmt.Sprintf("candidates=%d", budget), func(b *testing.B) {
			var took []time.Duration
			agree, total := 0, 0
			for i := 0; b.Loop(); i++ {
				q := i % len(queries)
				t0 := time.Now()
				got := top10(q, budget)
				took = append(took, time.Since(t0))
				if _, ok := exact[q]; !ok {
					b.StopTimer()
					exact[q] = top10(q, 1<<30)
					b.StartTimer()
				}
				for _, id := range exact[q] {
					total++
					if slices.Contains(got, id) {
						agree++
					}
				}
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50_ms")
			b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95_ms")
			b.ReportMetric(float64(agree)/float64(max(total, 1)), "top10_agreement")
		})
	}
}

// loadKeywordBench appends texts as chat messages to keywordBenchSpace and projects them.
func loadKeywordBench(ctx context.Context, b *testing.B, pool *pgxpool.Pool, texts []string) {
	store := eventloom.NewStore(pool, nil, nil)
	for i := 0; i < len(texts); i += 1000 {
		var batch []eventloom.NewEvent
		for j := i; j < min(i+1000, len(texts)); j++ {
			batch = append(batch, eventloom.NewEvent{Type: "message", SessionID: fmt.Sprintf("s%d", j/20), Content: texts[j],
				Data: json.RawMessage(`{"role":"user"}`)})
		}
		if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: keywordBenchSpace, Events: batch}); err != nil {
			b.Fatal(err)
		}
	}
	proj, err := projection.New(ctx, pool, projection.Config{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := proj.ProjectSpace(ctx, keywordBenchSpace); err != nil {
		b.Fatal(err)
	}
}
