package checkout_test

import (
	"cmp"
	"context"
	"math"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// bm25Scored is one item the reference scorer ranked.
type bm25Scored struct {
	ItemID string
	Seq    int64
	Score  float64
}

// bm25Doc is one memory item as the reference scorer sees it.
type bm25Doc struct {
	itemID     string
	seq        int64
	occurredAt time.Time
	tf         map[string]int
	length     int
}

// bm25Corpus is a plain Okapi BM25 index (k1 1.2, b 0.75, idf ln(1 + (N - df + 0.5)/(df + 0.5)))
// of a space's memory items, written independently of the keyword lane: its tokens are the
// lexemes zaxy_tsv (Postgres's to_tsvector and its paths' segments) gives for each item's text
// (fetched from the database, so both sides see the same words), its statistics are counted
// here, not read from term_stats.
type bm25Corpus struct {
	tsConfig string
	docs     []bm25Doc
	df       map[string]int
	avgLen   float64
}

type rowQuerier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// loadBM25Corpus reads every memory item of space and tokenizes its text with zaxy_tsv.
func loadBM25Corpus(ctx context.Context, q rowQuerier, space, tsConfig string) (*bm25Corpus, error) {
	rows, err := q.Query(ctx, `
		SELECT i.item_id, i.seq, i.occurred_at, u.lexeme, coalesce(array_length(u.positions, 1), 1)
		FROM memory_items i JOIN events e ON e.space_id = $1 AND e.seq = i.seq
		LEFT JOIN LATERAL unnest(zaxy_tsv($2::regconfig, coalesce(i.text, e.content))) u ON true
		WHERE i.space_key = (SELECT space_key FROM spaces WHERE space_id = $1)
		ORDER BY i.item_id`, space, tsConfig)
	if err != nil {
		return nil, err
	}
	c := &bm25Corpus{tsConfig: tsConfig, df: map[string]int{}}
	var item string
	var seq int64
	var at time.Time
	var lexeme *string
	var n int
	_, err = pgx.ForEachRow(rows, []any{&item, &seq, &at, &lexeme, &n}, func() error {
		if len(c.docs) == 0 || c.docs[len(c.docs)-1].itemID != item {
			c.docs = append(c.docs, bm25Doc{itemID: item, seq: seq, occurredAt: at, tf: map[string]int{}})
		}
		if lexeme != nil {
			d := &c.docs[len(c.docs)-1]
			d.tf[*lexeme] = n
			d.length += n
			c.df[*lexeme]++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	total := 0
	for _, d := range c.docs {
		total += d.length
	}
	c.avgLen = float64(total) / float64(max(len(c.docs), 1))
	return c, nil
}

// rank scores every item that had occurred by asOf and holds at least one of the query's
// lexemes, best first (ties by item id), and returns the first k.
func (c *bm25Corpus) rank(ctx context.Context, q rowQuerier, query string, asOf time.Time, k int) ([]bm25Scored, error) {
	rows, err := q.Query(ctx, `SELECT DISTINCT lexeme FROM unnest(zaxy_path_tsv($1::regconfig, $2))`, c.tsConfig, query)
	if err != nil {
		return nil, err
	}
	terms, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	const k1, b = 1.2, 0.75
	n := float64(len(c.docs))
	var out []bm25Scored
	for _, d := range c.docs {
		if d.occurredAt.After(asOf) {
			continue
		}
		score, hit := 0.0, false
		for _, t := range terms {
			tf := float64(d.tf[t])
			if tf == 0 {
				continue
			}
			hit = true
			df := float64(c.df[t])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			score += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(d.length)/c.avgLen))
		}
		if hit {
			out = append(out, bm25Scored{ItemID: d.itemID, Seq: d.seq, Score: score})
		}
	}
	slices.SortFunc(out, func(x, y bm25Scored) int {
		return cmp.Or(cmp.Compare(y.Score, x.Score), cmp.Compare(x.ItemID, y.ItemID))
	})
	return out[:min(k, len(out))], nil
}
