package memoryaction_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// BenchmarkCausalNeighborhood_AGEAndTables times query_causal_neighborhood with its relations
// read through the space's AGE mirror and from the relational tables, the two interleaved in
// each iteration (the first of them alternating) so both see the same load. The space is
// ZAXY_BENCH_SESSIONS agent sessions (default 200) of a decision, a recurring procedure, a
// failing step of one of five tools and its fix: one causal link per session, five failure
// patterns, episodes, procedures. Sub-benchmarks: "seq" asks about one link's effect, "tool"
// about a tool's five most confident links (the whole action: links, relations, related
// artifacts), "relations" reads those five links' relations alone. Metrics: each path's mean
// and p95 in ms per query.
func BenchmarkCausalNeighborhood_AGEAndTables(b *testing.B) {
	ctx := context.Background()
	sessions := 200
	if v, err := strconv.Atoi(os.Getenv("ZAXY_BENCH_SESSIONS")); err == nil && v > 0 {
		sessions = v
	}
	db := testcontainers.NewDatabase(b)
	pool := db.AppPool(b)
	log := fixture.New(b, pool, projection.Config{})
	clock := fixture.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	builder, err := latent.NewBuilder(ctx, pool, log.Store, latent.Config{})
	if err != nil {
		b.Fatal(err)
	}
	const space = "bench-neighbourhood"
	var effect int64
	for i := range sessions {
		s := fmt.Sprintf("s%d", i)
		tool := fmt.Sprintf("tool %d", i%5)
		seqs := log.AppendSeqs(b, space,
			clock.Event("message", s, fmt.Sprintf("Please fix the billing export bug %d.", i), map[string]string{"role": "user"}),
			clock.Event("decision.recorded", s, "", map[string]string{"decision": fmt.Sprintf("change the export format %d", i%17)}),
			clock.Tool(s, "git pull", "success", ""),
			clock.Tool(s, "go build", "success", ""),
			clock.Tool(s, tool, "failure", fmt.Sprintf("%s: export.go:%d: unreachable code", tool, i)),
			clock.Tool(s, "gofmt", "success", ""),
			clock.Tool(s, tool, "success", ""),
			clock.Event("task.updated", s, "", map[string]string{"task_id": "T-" + s, "status": "done"}))
		if i == sessions/2 {
			effect = seqs[4]
		}
		if i%50 == 49 || i == sessions-1 {
			log.Project(b, space)
			if _, err := builder.Build(ctx, space); err != nil {
				b.Fatal(err)
			}
		}
	}
	actions := memoryaction.New(pool, log.Store)
	tables := actions.RelationsFromTables()
	top, err := actions.CausalNeighborhood(ctx, memoryaction.NeighborhoodParams{SpaceID: space, Tool: "tool 3", Limit: 5,
		Recording: memoryaction.Recording{NoRecord: true}})
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	for _, l := range top.Links {
		ids = append(ids, l.ID)
	}
	// "relations": the relations of those five links alone (latent.Relations), both ways.
	b.Run("relations", func(b *testing.B) {
		var viaAGE, viaTables []time.Duration
		run := func(age bool, want string, into *[]time.Duration) {
			start := time.Now()
			rels, how, err := latent.Relations(ctx, pool, space, ids, age)
			if err != nil {
				b.Fatal(err)
			}
			*into = append(*into, time.Since(start))
			if how != want || len(rels) == 0 {
				b.Fatalf("read through %s with %d relations, want %s", how, len(rels), want)
			}
		}
		for i := range b.N {
			if i%2 == 0 {
				run(true, latent.ReadAGE, &viaAGE)
				run(false, latent.ReadTables, &viaTables)
			} else {
				run(false, latent.ReadTables, &viaTables)
				run(true, latent.ReadAGE, &viaAGE)
			}
		}
		report(b, "age", viaAGE)
		report(b, "tables", viaTables)
	})
	for _, q := range []struct {
		name string
		p    memoryaction.NeighborhoodParams
	}{
		{"seq", memoryaction.NeighborhoodParams{SpaceID: space, Seq: effect}},
		{"tool", memoryaction.NeighborhoodParams{SpaceID: space, Tool: "tool 3", Limit: 5}},
	} {
		q.p.Recording = memoryaction.Recording{NoRecord: true}
		b.Run(q.name, func(b *testing.B) {
			var viaAGE, viaTables []time.Duration
			run := func(a *memoryaction.Actions, want string, into *[]time.Duration) {
				start := time.Now()
				nb, err := a.CausalNeighborhood(ctx, q.p)
				if err != nil {
					b.Fatal(err)
				}
				*into = append(*into, time.Since(start))
				if nb.ReadThrough != want || len(nb.Relations) == 0 {
					b.Fatalf("read through %s with %d relations, want %s", nb.ReadThrough, len(nb.Relations), want)
				}
			}
			for i := range b.N {
				if i%2 == 0 {
					run(actions, latent.ReadAGE, &viaAGE)
					run(tables, latent.ReadTables, &viaTables)
				} else {
					run(tables, latent.ReadTables, &viaTables)
					run(actions, latent.ReadAGE, &viaAGE)
				}
			}
			report(b, "age", viaAGE)
			report(b, "tables", viaTables)
		})
	}
}

// report adds the mean and p95 of ds, in milliseconds, as metrics named after path.
func report(b *testing.B, path string, ds []time.Duration) {
	slices.Sort(ds)
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(sum)/float64(len(ds)), path+"-ms/op")
	b.ReportMetric(ms(ds[(len(ds)*95)/100]), path+"-p95-ms")
	b.ReportMetric(0, "ns/op")
}
