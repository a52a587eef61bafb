package checkout

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/tokenize"
)

// joinCost counts a text as chars4 does plus one token per line after the first: a tokenizer
// for which a whole text costs more than its lines counted one by one, as a byte-pair encoding
// can when a merge crosses a line's end.
type joinCost struct{}

func (joinCost) Name() string { return "join_cost" }
func (joinCost) Count(s string) int {
	return tokenize.Default.Count(s) + max(strings.Count(strings.TrimSuffix(s, "\n"), "\n"), 0)
}

// TestFitRendered_ElidesUntilTheWholeTextFits: when the rendered packet counts more than its
// lines did, the least valuable items go (the query tier's worst first, then the session's
// oldest) until the whole text is within the budget, each recorded as elided. Without
// fitRendered the packet below is 12 tokens over.
func TestFitRendered_ElidesUntilTheWholeTextFits(t *testing.T) {
	rk := &ranking{items: map[string]*rankedItem{}, tok: joinCost{}}
	p := &Packet{Budget: Budget{Elided: []Elided{}}}
	tiers := map[string][]*Item{}
	for i := range 12 {
		id := fmt.Sprintf("ev:%d", i+1)
		it := &rankedItem{Item: Item{ItemID: id, Text: strings.Repeat("word ", 8), Citations: []Citation{{Seq: int64(i + 1), Hash: make([]byte, 32)}}}}
		rk.items[id] = it
		name := []string{TierStable, TierSession, TierQuery}[i%3]
		tiers[name] = append(tiers[name], &it.Item)
	}
	for _, name := range []string{TierStable, TierSession, TierQuery} {
		p.Tiers = append(p.Tiers, Tier{Name: name, Items: tiers[name]})
	}
	renderTiers(p, rk.items, false)
	lines := 0
	for _, l := range strings.SplitAfter(p.Text, "\n") {
		lines += tokenize.Default.Count(l)
	}
	budget := lines // what per-line budgeting would have allowed
	require.Greater(t, rk.count(p.Text), budget)

	fitRendered(p, rk, budget, false)
	require.LessOrEqual(t, p.Budget.Used, budget)
	require.Equal(t, rk.count(p.Text), p.Budget.Used)
	require.NotEmpty(t, p.Budget.Elided)
	require.Equal(t, "ev:12", p.Budget.Elided[0].ItemID, "the query tier's last item goes first")
	for _, e := range p.Budget.Elided {
		require.NotContains(t, p.Text, fmt.Sprintf("(seq %s ", strings.TrimPrefix(e.ItemID, "ev:")), e.ItemID)
		require.Equal(t, "over the token budget once rendered", e.Reason)
	}
}
