package projection_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
)

// benchAGE is "auto" or "off" (ZAXY_BENCH_AGE), to measure the AGE mirror's share.
var benchAGE = map[bool]string{true: "off", false: "auto"}[os.Getenv("ZAXY_BENCH_AGE") == "off"]

var (
	benchPeople = []string{"Alice Chen", "Bob Martins", "Carol Diaz", "Dan Okafor", "Eve Laurent", "Frank Ito"}
	benchTopics = []string{"the deploy pipeline", "Postgres upgrade", "billing service", "Project Falcon", "the search index", "API gateway"}
	benchPaths  = []string{"cmd/zaxy/main.go", "api/events.go", "docs/operations.md", "migrations/000002_eventloom.up.sql", "https://example.com/runbook"}
)

// messageEvent is a chat turn of about 200 characters with names, handles and paths.
func messageEvent(rng *rand.Rand) eventloom.NewEvent {
	text := fmt.Sprintf("%s asked @%s to look at %s before the review of %s; the failing check mentions %s and should be fixed by Friday.",
		benchPeople[rng.IntN(len(benchPeople))], []string{"dana", "eve", "ops-team"}[rng.IntN(3)],
		benchPaths[rng.IntN(len(benchPaths))], benchTopics[rng.IntN(len(benchTopics))], benchPaths[rng.IntN(len(benchPaths))])
	return eventloom.NewEvent{Type: "message", Content: text, Data: []byte(`{"role":"user"}`)}
}

// factEvent asserts one of subjects × 10 predicates × 8 values, so versions pile up.
func factEvent(rng *rand.Rand, subjects int) eventloom.NewEvent {
	return eventloom.NewEvent{Type: "fact.asserted", Data: fmt.Appendf(nil,
		`{"subject":"component %d","predicate":"property %d","value":"setting %d"}`, rng.IntN(subjects), rng.IntN(10), rng.IntN(8))}
}

func loadSpace(b *testing.B, f *bundle, space string, n int, gen func(*rand.Rand) eventloom.NewEvent) {
	rng := rand.New(rand.NewPCG(1, 2))
	batch := make([]eventloom.NewEvent, 0, 1000)
	for i := 0; i < n; i++ {
		batch = append(batch, gen(rng))
		if len(batch) == cap(batch) || i == n-1 {
			f.Append(b, space, batch...)
			batch = batch[:0]
		}
	}
}

func benchRebuild(b *testing.B, n int, gen func(*rand.Rand) eventloom.NewEvent) {
	benchRebuildWith(b, projection.Config{AGE: benchAGE}, n, gen)
}

func benchRebuildWith(b *testing.B, cfg projection.Config, n int, gen func(*rand.Rand) eventloom.NewEvent) {
	f := newFixture(b, cfg)
	loadSpace(b, f, "bench", n, gen)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := f.Proj.Rebuild(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "events/s")
	var redundant int
	if err := f.DB.QueryRow(ctx, `SELECT count(*) FROM memory_items WHERE space_id = 'bench' AND redundant_of IS NOT NULL`).Scan(&redundant); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(redundant), "redundant")
}

// BenchmarkProject_MessageHeavy replays 20,000 chat turns (mentions, memory items); events/s.
func BenchmarkProject_MessageHeavy(b *testing.B) { benchRebuild(b, 20000, messageEvent) }

// toolCallEvent is an agent's tool call: a command over a path, and about 200 characters of
// output naming camel-case identifiers, as a test run or a file read prints them.
func toolCallEvent(rng *rand.Rand) eventloom.NewEvent {
	idents := []string{"TestRefundIdempotency", "parseConfig", "HTTPServer", "getUserByID", "NewEventStore", "handleCheckoutRequest"}
	out := fmt.Sprintf("--- FAIL: %s (0.31s)\n    %s: %s returned an error from %s; see %s",
		idents[rng.IntN(len(idents))], benchPaths[rng.IntN(len(benchPaths))], idents[rng.IntN(len(idents))],
		idents[rng.IntN(len(idents))], benchPaths[rng.IntN(len(benchPaths))])
	return eventloom.NewEvent{Type: "tool_call.completed", SessionID: "s", Content: out,
		Data: fmt.Appendf(nil, `{"tool":"bash","arguments":"go test ./%s","outcome":"failure","error":"exit status 1"}`, []string{"api", "checkout", "projection"}[rng.IntN(3)])}
}

// BenchmarkProject_ToolCallHeavy replays 20,000 failed tool calls whose output names identifiers
// and paths (memory items, tool state facts); events/s.
// BenchmarkProject_MessageHeavy5k and BenchmarkProject_MessageHeavy5kParaphrase replay 5,000
// chat turns with the encoding gate as it ships and with its paraphrase test on (word vectors
// computed by the projector, sixteen gate keys per item); events/s.
func BenchmarkProject_MessageHeavy5k(b *testing.B) { benchRebuild(b, 5000, messageEvent) }

func BenchmarkProject_MessageHeavy5kParaphrase(b *testing.B) {
	benchRebuildWith(b, projection.Config{AGE: benchAGE, GateParaphrase: wordVec(b)}, 5000, messageEvent)
}

func BenchmarkProject_ToolCallHeavy(b *testing.B) { benchRebuild(b, 20000, toolCallEvent) }

func BenchmarkProject_ToolCallHeavy5k(b *testing.B) { benchRebuild(b, 5000, toolCallEvent) }

// BenchmarkProject_FactHeavy replays 20,000 fact assertions over 2,000 subjects; events/s.
func BenchmarkProject_FactHeavy(b *testing.B) {
	benchRebuild(b, 20000, func(r *rand.Rand) eventloom.NewEvent { return factEvent(r, 2000) })
}

// BenchmarkEmbed_Offline embeds 20,000 chat turns with the offline embedder into the HNSW
// indexed table; items/s.
func BenchmarkEmbed_Offline(b *testing.B) {
	f := newFixture(b, projection.Config{})
	loadSpace(b, f, "bench", 20000, messageEvent)
	ctx := context.Background()
	if _, err := f.Proj.ProjectSpace(ctx, "bench"); err != nil {
		b.Fatal(err)
	}
	emb := projection.NewEmbedder(f.DB, embedding.NewOffline(), 256)
	b.ResetTimer()
	total := 0
	for b.Loop() {
		b.StopTimer()
		if _, err := f.DB.Exec(ctx, `DELETE FROM embeddings`); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		n, err := emb.EmbedSpace(ctx, "bench")
		if err != nil {
			b.Fatal(err)
		}
		total += n
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "items/s")
}

// mixedEvent is the 100k rebuild workload: 60% chat turns, 25% fact assertions over 5,000
// subjects, 10% task updates, 5% tool calls.
func mixedEvent(rng *rand.Rand) eventloom.NewEvent {
	switch k := rng.IntN(20); {
	case k < 12:
		return messageEvent(rng)
	case k < 17:
		return factEvent(rng, 5000)
	case k < 19:
		return eventloom.NewEvent{Type: "task.updated", Data: fmt.Appendf(nil, `{"task_id":"T%d","status":"%s"}`, rng.IntN(500), []string{"open", "in_progress", "done"}[rng.IntN(3)])}
	default:
		return eventloom.NewEvent{Type: "tool_call.completed", Content: "ran the integration suite", Data: fmt.Appendf(nil, `{"tool":"go test","outcome":"failure","error":"exit status %d"}`, rng.IntN(3)+1)}
	}
}

// BenchmarkRebuild_100kMixed rebuilds a 100,000-event space and embeds it with the offline
// embedder, reporting events/s for the projection alone, end to end with a cold embedding
// cache (every vector computed and stored) and end to end with a warm one (unchanged items
// keep their vectors).
func BenchmarkRebuild_100kMixed(b *testing.B) {
	const n = 100000
	f := newFixture(b, projection.Config{AGE: benchAGE})
	loadSpace(b, f, "bench", n, mixedEvent)
	ctx := context.Background()
	emb := projection.NewEmbedder(f.DB, embedding.NewOffline(), 256)
	// The space stays below promotion, so "cold" is computing and storing every vector; the
	// one-time HNSW build of a promoted space is measured by zaxy bench checkout.
	emb.SetHNSWThreshold(1 << 30)
	var project, cold, warm time.Duration
	for b.Loop() {
		if _, err := f.DB.Exec(ctx, `DELETE FROM embeddings`); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if _, err := f.Proj.Rebuild(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
		project += time.Since(start)
		if _, err := emb.EmbedSpace(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
		cold += time.Since(start)
		start = time.Now()
		if _, err := f.Proj.Rebuild(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
		if k, err := emb.EmbedSpace(ctx, "bench"); err != nil || k != 0 {
			b.Fatal(err, k)
		}
		warm += time.Since(start)
	}
	perSec := func(d time.Duration) float64 { return float64(n*b.N) / d.Seconds() }
	b.ReportMetric(perSec(project), "project_events/s")
	b.ReportMetric(perSec(cold), "cold_events/s")
	b.ReportMetric(perSec(warm), "warm_events/s")
}
