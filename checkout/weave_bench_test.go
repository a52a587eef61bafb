package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

// BenchmarkCheckout_Weave times checkouts of one space with the weave off and on, alternating
// query by query: 6,000 events in 600 sessions (messages over a 400-word vocabulary and tool
// calls, so the producers mine episodes, procedures and failures), projected and built, then
// synthetic episodes added up to 12,000 current artifacts (a space of about 100k memories at
// ten events a session, most of whose artifacts no query's ranked events touch). It reports p50/p95 ms of each and the
// mean artifacts woven. The weave reads by index (GIN on source_seqs, the partial index by type)
// and derives nothing, so its cost should not grow with the artifact count.
func BenchmarkCheckout_Weave(b *testing.B) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(b)
	pool := db.AdminPool(b)
	store := eventloom.NewStore(pool, nil, nil)
	rng := rand.New(rand.NewPCG(7, 11))
	words := make([]string, 400)
	for i := range words {
		words[i] = fmt.Sprintf("%s%d", []string{"deploy", "invoice", "schema", "cache", "queue", "token", "report", "search"}[i%8], i)
	}
	sentence := func() string {
		n := 8 + rng.IntN(10)
		w := make([]string, n)
		for i := range w {
			w[i] = words[int(float64(len(words))*rng.Float64()*rng.Float64())]
		}
		return strings.Join(w, " ") + "."
	}
	tools := []string{"build", "test", "lint", "migrate", "deploy"}
	for batch := range 12 {
		var evs []eventloom.NewEvent
		for s := batch * 50; s < batch*50+50; s++ {
			sess := fmt.Sprintf("s%d", s)
			for range 8 {
				evs = append(evs, eventloom.NewEvent{Type: "message", SessionID: sess, Content: sentence() + " " + sentence(), Data: json.RawMessage(`{"role":"user"}`)})
			}
			t := rng.IntN(3)
			evs = append(evs,
				eventloom.NewEvent{Type: "tool_call.completed", SessionID: sess, Data: json.RawMessage(fmt.Sprintf(`{"tool":%q,"outcome":"success"}`, tools[t]))},
				eventloom.NewEvent{Type: "tool_call.completed", SessionID: sess, Data: json.RawMessage(fmt.Sprintf(`{"tool":%q,"outcome":"failure","error":"exit status %d"}`, tools[t+1], 1+s%3))})
		}
		if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "wv", Events: evs}); err != nil {
			b.Fatal(err)
		}
	}
	proj, err := projection.New(ctx, pool, projection.Config{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := proj.ProjectSpace(ctx, "wv"); err != nil {
		b.Fatal(err)
	}
	builder, err := latent.NewBuilder(ctx, pool, store, latent.Config{AGE: "off"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := builder.Build(ctx, "wv"); err != nil {
		b.Fatal(err)
	}
	for _, q := range []string{
		// Synthetic episodes of sessions whose events are not in this space (seqs past its
		// head, hashes zero): a space of about 100k memories has this many artifacts, and a
		// query's ranked events are cited by the few artifacts of their own sessions.
		`INSERT INTO latent_artifacts (space_id, artifact_id, slot, artifact_type, summary, source_event_refs, source_seqs,
		   projection_version, method, confidence, purpose_profile, reasoning_phase, payload_kind, payload)
		 SELECT 'wv', encode(sha256(('synthetic' || g)::bytea), 'hex'), 'episode:synthetic' || g, 'episode',
		        'synthetic episode ' || g || ' quoting three of its sentences [' || (10000 + g * 8) || ']',
		        (SELECT jsonb_agg(jsonb_build_object('seq', s, 'hash', repeat('0', 64)) ORDER BY s) FROM generate_series(10000 + g * 8, 10007 + g * 8) s),
		        ARRAY(SELECT generate_series(10000 + g * 8, 10007 + g * 8)::bigint), 1, 'deterministic', 1, 'recall', 'orient', 'jsonb', '{}'
		 FROM generate_series(1, 12000 - (SELECT count(*) FROM latent_artifacts WHERE space_id = 'wv')) g`,
		`VACUUM ANALYZE latent_artifacts, latent_sources`,
		`ANALYZE latent_artifacts`,
	} {
		if _, err := pool.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	svc := checkout.New(pool, store, checkout.Config{Embedder: embedding.NewOffline()})
	queries := make([]string, 100)
	for i := range queries {
		queries[i] = strings.Join(strings.Fields(sentence())[:4], " ")
	}
	var off, on []time.Duration
	woven := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, q := range queries {
			for _, weave := range []bool{false, true} {
				t0 := time.Now()
				p, err := svc.Checkout(ctx, &checkout.Request{SpaceID: "wv", Query: q, NoRecord: true, Weave: weave})
				if err != nil {
					b.Fatal(err)
				}
				if weave {
					on = append(on, time.Since(t0))
					woven += len(p.Weave.Inferred)
				} else {
					off = append(off, time.Since(t0))
				}
			}
		}
	}
	b.StopTimer()
	var n int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM latent_current WHERE space_id = 'wv'`).Scan(&n); err != nil {
		b.Fatal(err)
	}
	for name, d := range map[string][]time.Duration{"off": off, "on": on} {
		slices.Sort(d)
		b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "p50_ms_weave_"+name)
		b.ReportMetric(float64(d[len(d)*95/100].Microseconds())/1000, "p95_ms_weave_"+name)
	}
	b.ReportMetric(float64(woven)/float64(len(on)), "artifacts_woven")
	b.ReportMetric(float64(n), "artifacts")
}
