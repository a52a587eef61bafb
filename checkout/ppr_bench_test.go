package checkout_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/testcontainers"
)

// BenchmarkPPRLane_100k builds a synthetic graph in the projection tables of one space: 100,000
// event items, 20,000 entities mentioned twice per event with a heavy skew (the most mentioned
// entity is in about 7,000 events), and 10,000 facts between entities; then times the PPR lane's
// load and walk from 1-3 seed entities drawn as a query would name them (by mention, so popular
// entities are likelier), at the default node budget. It reports p50/p95 ms and mean nodes.
func BenchmarkPPRLane_100k(b *testing.B) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(b)
	pool := db.AdminPool(b)
	for _, q := range []string{
		`INSERT INTO spaces (space_id, head_seq, head_hash, head_at) VALUES ('big', 0, '\x00', now())`,
		`INSERT INTO entities (space_key, entity_id, key, name, kinds, first_seq, last_seq, mentions)
		 SELECT (SELECT space_key FROM spaces WHERE space_id = 'big'), 'e' || i, 'k' || i, 'K' || i, '{name}', 1, 1, 0 FROM generate_series(1, 20000) i`,
		`INSERT INTO memory_items (space_key, item_id, kind, seq, event_type, occurred_at, text, ts_config, tsv)
		 SELECT (SELECT space_key FROM spaces WHERE space_id = 'big'), 'ev:' || s, 'event', s, 'message', now() - interval '1 day', '', 'english', ''::tsvector
		 FROM generate_series(1, 100000) s`,
		`SELECT setseed(0.42)`,
		`INSERT INTO mentions (space_key, seq, start_byte, end_byte, entity_id, kind)
		 SELECT (SELECT space_key FROM spaces WHERE space_id = 'big'), s, j * 10, j * 10 + 5, 'e' || (floor(20000 * power(random(), 3))::int + 1), 'name'
		 FROM generate_series(1, 100000) s, generate_series(0, 1) j`,
		`UPDATE entities e SET mentions = c.n FROM (SELECT entity_id, count(*) AS n FROM mentions GROUP BY 1) c
		 WHERE e.space_key = (SELECT space_key FROM spaces WHERE space_id = 'big') AND e.entity_id = c.entity_id`,
		`INSERT INTO facts (space_key, fact_id, subject_id, predicate, object_id, version, valid_from, recorded_seq, recorded_hash, authority, evidence)
		 SELECT (SELECT space_key FROM spaces WHERE space_id = 'big'), 'f' || i, 'e' || (floor(20000 * power(random(), 2))::int + 1), 'p' || i, 'e' || (floor(20000 * random())::int + 1),
		        1, now() - interval '2 days', i, '\x00', 'asserted', '[]' FROM generate_series(1, 10000) i`,
		`ANALYZE entities, mentions, facts, memory_items`,
	} {
		if _, err := pool.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	rows, err := pool.Query(ctx, `SELECT entity_id FROM mentions ORDER BY random() LIMIT 600`)
	if err != nil {
		b.Fatal(err)
	}
	var picks []string
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			b.Fatal(err)
		}
		picks = append(picks, e)
	}
	svc := checkout.New(pool, nil, checkout.Config{Embedder: embedding.NewOffline()})
	var took []time.Duration
	nodes := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for q := 0; q < 200; q++ {
			seeds := picks[q*3 : q*3+1+q%3]
			t0 := time.Now()
			n, _, err := svc.PPRNeighbourhood(ctx, "big", seeds, checkout.PPRNodeBudget)
			if err != nil {
				b.Fatal(err)
			}
			took = append(took, time.Since(t0))
			nodes += len(n)
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50_ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95_ms")
	b.ReportMetric(float64(nodes)/float64(len(took)), "nodes")
}
