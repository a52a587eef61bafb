package checkout

import (
	"context"
	"fmt"
	"time"

	"github.com/zaxy/zaxy/internal/pgexec"
)

// KeywordHit is one item the keyword lane found, with its BM25 score.
type KeywordHit struct {
	ItemID string  `db:"item_id"`
	Score  float64 `db:"score"`
}

// KeywordParams is a keyword lane query.
type KeywordParams struct {
	SpaceID string
	// Query is the question; its lexemes are those of zaxy_path_tsv(TextSearchConfig, Query).
	Query string
	// TextSearchConfig must match the projector's. Defaults to "english".
	TextSearchConfig string
	// AsOf keeps only items that had occurred by then. Defaults to now.
	AsOf time.Time
	// K is how many items to return. Defaults to 100.
	K int
	// Candidates is the candidate budget: the rarest query terms are matched through the GIN
	// index while their summed document frequency stays within it (at least the rarest term),
	// and at most this many items are scored. Defaults to KeywordCandidates.
	Candidates int
	// K1 and B are BM25's term-frequency saturation and length normalization. Zero K1 and B
	// default to FirstMechanismVersion's (Mechanism.BM25K1, BM25B).
	K1, B float64
}

// KeywordCandidates is Keyword's default candidate budget, for callers outside a checkout; a
// checkout's keyword lane uses its mechanism record's (Mechanism.KeywordCandidates).
const KeywordCandidates = 1000

// Keyword ranks a space's memory items by Okapi BM25 (KeywordParams.K1, B) against the query's
// lexemes, over the space's term statistics (document frequencies, item lengths and their
// average, kept by the projector): best first, ties by item id. One round trip.
func Keyword(ctx context.Context, q pgexec.Executor, p KeywordParams) ([]KeywordHit, error) {
	if p.TextSearchConfig == "" {
		p.TextSearchConfig = "english"
	}
	if p.AsOf.IsZero() {
		p.AsOf = time.Now()
	}
	if p.K <= 0 {
		p.K = 100
	}
	if p.Candidates <= 0 {
		p.Candidates = KeywordCandidates
	}
	if p.K1 == 0 && p.B == 0 {
		p.K1, p.B = mechanism1.BM25K1, mechanism1.BM25B
	}
	hits, err := queryLaneKeyword(ctx, q, &p)
	if err != nil {
		return nil, fmt.Errorf("keyword lane: %w", err)
	}
	return hits, nil
}
