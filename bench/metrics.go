package bench

import (
	"math"
	"slices"
	"time"
)

// levelScore is one question's scores at one level (session or turn).
type levelScore struct {
	anyAt5, anyAt10, allAt10, ndcgAt10, recallAt10 float64
}

// scoreLevel scores a ranking of benchmark ids (one per retrieved event, best first; "" for
// events without one) against the evidence ids. The ranking is first reduced to its distinct
// ids in rank order (a session counts at the rank of its best turn), and the cut-offs apply
// to that list: recall_any@k is 1 when any evidence id is among the first k distinct ids,
// recall_all@k when all are, recall@k is the share of the distinct evidence ids that are, and
// NDCG@k uses binary relevance,
// DCG = sum over ranks r = 1..k of rel(r) / log2(r+1), divided by the DCG of an ideal ranking
// with min(len(evidence), k) relevant ids first. With no evidence every score is 0.
func scoreLevel(ranked, evidence []string) levelScore {
	if len(evidence) == 0 {
		return levelScore{}
	}
	ids := dedupe(ranked)
	return levelScore{
		anyAt5:   recallAny(ids, evidence, 5),
		anyAt10:  recallAny(ids, evidence, 10),
		allAt10:  recallAll(ids, evidence, 10),
		ndcgAt10: ndcg(ids, evidence, 10),
		// recall@10 last, so the positional literals of the tests read in the order above.
		recallAt10: recallShare(ids, evidence, 10),
	}
}

// recallShare is the share of the distinct evidence ids among the first k ids.
func recallShare(ids, evidence []string, k int) float64 {
	top, ev := ids[:min(k, len(ids))], dedupe(evidence)
	n := 0
	for _, e := range ev {
		if slices.Contains(top, e) {
			n++
		}
	}
	return float64(n) / float64(len(ev))
}

// recallAny is 1 when any evidence id is among the first k ids, else 0.
func recallAny(ids, evidence []string, k int) float64 {
	top := ids[:min(k, len(ids))]
	for _, e := range evidence {
		if slices.Contains(top, e) {
			return 1
		}
	}
	return 0
}

// recallAll is 1 when every evidence id is among the first k ids, else 0.
func recallAll(ids, evidence []string, k int) float64 {
	top := ids[:min(k, len(ids))]
	for _, e := range evidence {
		if !slices.Contains(top, e) {
			return 0
		}
	}
	return 1
}

// ndcg is the binary-relevance NDCG@k of distinct ids.
func ndcg(ids, evidence []string, k int) float64 {
	var dcg, ideal float64
	for r, id := range ids[:min(k, len(ids))] {
		if slices.Contains(evidence, id) {
			dcg += 1 / math.Log2(float64(r)+2)
		}
	}
	for r := range min(len(evidence), k) {
		ideal += 1 / math.Log2(float64(r)+2)
	}
	return dcg / ideal
}

// percentile is the nearest-rank p-th percentile (0 < p <= 100) of ds, in milliseconds.
func percentile(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return float64(s[max(i, 0)].Microseconds()) / 1000
}
