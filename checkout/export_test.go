package checkout

import (
	"context"
	"maps"
	"slices"
	"time"
)

// LaneVerbatimPast runs the verbatim lane reading past floor (nil: the current watermark).
func (s *Service) LaneVerbatimPast(ctx context.Context, space, query string, floor *int64) ([]string, error) {
	r := &Request{SpaceID: space, Query: query}
	now := time.Now()
	res := s.newLaneInput(r, newQuestion(r, now, mechanismOf(builtinPolicy)), now, builtinPolicy).verbatim(ctx, floor)
	return res.items, res.err
}

// PPRNeighbourhood loads the PPR lane's neighbourhood of the given seed entities within budget
// nodes and returns its nodes and the walk's ranked items.
func (s *Service) PPRNeighbourhood(ctx context.Context, space string, seeds []string, budget int) (nodes, items []string, err error) {
	seed := map[string]float64{}
	for _, e := range seeds {
		seed[e] = 1
	}
	g, err := loadPPRGraph(ctx, s.pool, mechanism1, space, seed, time.Now(), budget)
	if err != nil {
		return nil, nil, err
	}
	for n := range g.out {
		nodes = append(nodes, n)
	}
	for n, m := range walkPPR(mechanism1, g, seed) {
		if g.items[n] && m > 0 {
			items = append(items, n)
		}
	}
	return nodes, items, nil
}

// PPRNodeBudget is the PPR lane's node budget.
var PPRNodeBudget = mechanism1.PPRNodeBudget

// ExcerptWindow is excerptWindow with FirstMechanismVersion's record: where a window of width
// runes of text starts to show words.
func ExcerptWindow(text []rune, words []string, width int) int {
	return excerptWindow(mechanism1, text, words, width)
}

// DefinedBuiltinPolicyVersions are the versions checkout defines a built-in policy for, sorted.
func DefinedBuiltinPolicyVersions() []string { return slices.Sorted(maps.Keys(builtinPolicies)) }

// EfSearch is the hnsw.ef_search the service's vector lane uses.
func (s *Service) EfSearch() int { return s.cfg.EfSearch }
