package checkout

import (
	"testing"

	"github.com/stretchr/testify/require"
)

const sessionContextShare = 0.3 // mechanism-1's

func TestAddSessionContext_AnItemGainsFromTheBestOtherItemOfItsSession(t *testing.T) {
	items := map[string]*rankedItem{
		"a1": {Item: Item{SessionID: "a"}}, "a2": {Item: Item{SessionID: "a"}}, "a3": {Item: Item{SessionID: "a"}},
		"b1": {Item: Item{SessionID: "b"}},
		"n1": {},
	}
	fused := []*scored{
		{itemID: "a1", score: 1.0},
		{itemID: "a2", score: 0.4},
		{itemID: "a3", score: 0.2},
		{itemID: "b1", score: 0.5},
		{itemID: "n1", score: 0.45},
		{itemID: "gone", score: 0.9}, // not fetched: neither gains nor counts
	}
	for _, c := range fused {
		c.components = map[string]Component{}
	}
	addSessionContext(sessionContextShare, fused, items)
	got := map[string]float64{}
	for _, c := range fused {
		got[c.itemID] = c.score
	}
	require.InDelta(t, 1.0+sessionContextShare*0.4, got["a1"], 1e-12, "the best item gains from the second, not from itself")
	require.InDelta(t, 0.4+sessionContextShare*1.0, got["a2"], 1e-12)
	require.InDelta(t, 0.2+sessionContextShare*1.0, got["a3"], 1e-12)
	require.InDelta(t, 0.5, got["b1"], 1e-12, "alone in its session")
	require.InDelta(t, 0.45, got["n1"], 1e-12, "no session")
	require.InDelta(t, 0.9, got["gone"], 1e-12)
	require.InDelta(t, sessionContextShare*1.0, fused[1].components[ComponentSession].Score, 1e-12, "the gain shows as a component")
	require.NotContains(t, fused[3].components, ComponentSession)
	require.Greater(t, got["a2"], got["b1"], "a turn of a conversation about the topic passes a stray turn that scored a little higher")
}
