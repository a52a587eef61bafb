package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embed"
	"github.com/zaxy/zaxy/projection"
)

// newBenchRetriever is the retrieval `zaxy bench longmemeval|locomo` measures, and its name
// for the report. For now it is placeholderRetriever, because package checkout's fused
// query and packet are not final yet; swapping in the real checkout is this one function.
func newBenchRetriever(pool *pgxpool.Pool, proj *projection.Projector, emb *projection.Embedder, provider embed.Embedder, tsConfig string) (bench.Retriever, string) {
	name := "placeholder: keyword (full text) + vector lanes, RRF k=60, packet = top results that fit"
	if provider == nil {
		name = "placeholder: keyword lane only (embeddings off), packet = top results that fit"
	}
	return &placeholderRetriever{pool: pool, proj: proj, emb: emb, provider: provider, tsConfig: tsConfig}, name
}

// Placeholder queries. They live here rather than in sql/ because they go away with the
// placeholder; the real lanes are package checkout's.
const (
	// benchKeywordQuery is a keyword lane over event items: any of the question's lexemes,
	// occurred by $4, candidates capped at 1000, ranked by length-normalized ts_rank.
	benchKeywordQuery = `WITH q AS (
  SELECT CASE WHEN numnode(plainto_tsquery($3::regconfig, $2)) = 0 THEN NULL
              ELSE replace(plainto_tsquery($3::regconfig, $2)::text, ' & ', ' | ')::tsquery END AS tsq
), cand AS (
  SELECT i.item_id, i.seq, i.tsv
  FROM memory_items i, q
  WHERE i.space_id = $1 AND i.kind = 'event' AND i.tsv @@ q.tsq AND i.occurred_at <= $4
  LIMIT 1000
)
SELECT c.item_id, c.seq FROM cand c, q ORDER BY ts_rank(c.tsv, q.tsq, 1) DESC, c.seq LIMIT $5`
	// benchItemsQuery reads event items by id, keeping those that occurred by $3.
	benchItemsQuery = `SELECT item_id, seq, text FROM memory_items
WHERE space_id = $1 AND item_id = ANY($2) AND kind = 'event' AND occurred_at <= $3`
)

// benchLaneK is how many candidates each lane contributes before fusion.
const benchLaneK = 100

// placeholderRetriever stands in for checkout in the retrieval benchmarks: a keyword lane
// (Postgres full text over memory_items) and the vector lane (checkout.Vector, exact scan,
// since a benchmark space holds at most a few thousand items) fused by reciprocal rank
// (k = 60, equal weights), and a packet of the best-ranked items that still fit the budget
// (characters/4 tokens each). It has none of checkout's other lanes, weights or tiers.
type placeholderRetriever struct {
	pool     *pgxpool.Pool
	proj     *projection.Projector
	emb      *projection.Embedder // nil when embedding is off
	provider embed.Embedder       // nil when embedding is off
	tsConfig string
}

// Prepare projects the space (waiting while another worker holds it) and embeds its items.
func (p *placeholderRetriever) Prepare(ctx context.Context, space string) error {
	for {
		_, err := p.proj.ProjectSpace(ctx, space)
		if err == nil {
			break
		}
		if !errors.Is(err, projection.ErrBusy) {
			return fmt.Errorf("project space: %w", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	if p.emb != nil {
		if _, err := p.emb.EmbedSpace(ctx, space); err != nil {
			return fmt.Errorf("embed space: %w", err)
		}
	}
	return nil
}

// Rank fuses the lanes and returns the best k event seqs.
func (p *placeholderRetriever) Rank(ctx context.Context, space, question string, asOf time.Time, k int, keywordOnly bool) ([]int64, error) {
	ranked, err := p.rank(ctx, space, question, asOf, keywordOnly)
	if err != nil {
		return nil, err
	}
	return ranked[:min(k, len(ranked))], nil
}

// Packet takes the fused ranking's items in order while they fit in maxTokens.
func (p *placeholderRetriever) Packet(ctx context.Context, space, question string, asOf time.Time, maxTokens int) ([]int64, int, error) {
	ranked, err := p.rank(ctx, space, question, asOf, false)
	if err != nil {
		return nil, 0, err
	}
	items, err := p.items(ctx, space, ranked, asOf)
	if err != nil {
		return nil, 0, err
	}
	var seqs []int64
	used := 0
	for _, seq := range ranked {
		if t := (utf8.RuneCountInString(items[seq]) + 3) / 4; used+t <= maxTokens {
			seqs, used = append(seqs, seq), used+t
		}
	}
	return seqs, used, nil
}

// rank returns the space's event seqs by fused score (ties by seq).
func (p *placeholderRetriever) rank(ctx context.Context, space, question string, asOf time.Time, keywordOnly bool) ([]int64, error) {
	rows, err := p.pool.Query(ctx, benchKeywordQuery, space, question, p.tsConfig, asOf, benchLaneK)
	if err != nil {
		return nil, fmt.Errorf("keyword lane: %w", err)
	}
	var keyword []int64
	var id string
	var seq int64
	if _, err := pgx.ForEachRow(rows, []any{&id, &seq}, func() error {
		keyword = append(keyword, seq)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("keyword lane: %w", err)
	}
	lanes := [][]int64{keyword}
	if !keywordOnly && p.provider != nil {
		vecs, err := p.provider.Embed(ctx, []string{question})
		if err != nil {
			return nil, fmt.Errorf("embed question: %w", err)
		}
		hits, err := checkout.Vector(ctx, p.pool, checkout.VectorParams{SpaceID: space, Model: p.provider.Model(),
			Dimensions: p.provider.Dimensions(), Vector: vecs[0], K: benchLaneK, Exact: true})
		if err != nil {
			return nil, err
		}
		ids := make([]string, len(hits))
		for i, h := range hits {
			ids[i] = h.ItemID
		}
		seqOf, err := p.itemSeqs(ctx, space, ids, asOf)
		if err != nil {
			return nil, err
		}
		var vector []int64
		for _, id := range ids {
			if s, ok := seqOf[id]; ok {
				vector = append(vector, s)
			}
		}
		lanes = append(lanes, vector)
	}
	score := map[int64]float64{}
	for _, lane := range lanes {
		for r, s := range lane {
			score[s] += 1 / (60 + float64(r+1))
		}
	}
	out := make([]int64, 0, len(score))
	for s := range score {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b int64) int {
		switch {
		case score[a] > score[b]:
			return -1
		case score[a] < score[b]:
			return 1
		}
		return cmp.Compare(a, b)
	})
	return out, nil
}

// itemSeqs maps item ids to seqs, keeping event items that occurred by asOf.
func (p *placeholderRetriever) itemSeqs(ctx context.Context, space string, ids []string, asOf time.Time) (map[string]int64, error) {
	rows, err := p.pool.Query(ctx, benchItemsQuery, space, ids, asOf)
	if err != nil {
		return nil, fmt.Errorf("read items: %w", err)
	}
	out := map[string]int64{}
	var id, text string
	var seq int64
	if _, err := pgx.ForEachRow(rows, []any{&id, &seq, &text}, func() error {
		out[id] = seq
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read items: %w", err)
	}
	return out, nil
}

// items returns the text of the event items with the given seqs.
func (p *placeholderRetriever) items(ctx context.Context, space string, seqs []int64, asOf time.Time) (map[int64]string, error) {
	ids := make([]string, len(seqs))
	for i, s := range seqs {
		ids[i] = projection.EventItemID(s)
	}
	rows, err := p.pool.Query(ctx, benchItemsQuery, space, ids, asOf)
	if err != nil {
		return nil, fmt.Errorf("read items: %w", err)
	}
	out := map[int64]string{}
	var id, text string
	var seq int64
	if _, err := pgx.ForEachRow(rows, []any{&id, &seq, &text}, func() error {
		out[seq] = text
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read items: %w", err)
	}
	return out, nil
}
