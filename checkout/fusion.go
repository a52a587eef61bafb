package checkout

import (
	"cmp"
	"slices"
)

// scored is a fused candidate.
type scored struct {
	itemID     string
	score      float64
	components map[string]Component
}

// fuse combines the lanes by weighted reciprocal-rank fusion (each lane weighed by weigh, each
// rank scored by m.RankScore), best first (ties by item id). A lane's per-item scales
// (specificity) multiply its weight item by item.
func fuse(m *Mechanism, weigh func(lane string) float64, lanes []laneResult) []*scored {
	byID := map[string]*scored{}
	for _, l := range lanes {
		w := weigh(l.name)
		if w == 0 {
			continue
		}
		for i, id := range l.items {
			c, ok := byID[id]
			if !ok {
				c = &scored{itemID: id, components: map[string]Component{}}
				byID[id] = c
			}
			if _, dup := c.components[l.name]; dup {
				continue
			}
			lw := w
			if l.scales != nil {
				lw *= l.scales[i]
			}
			part := m.RankScore(lw, i+1)
			c.components[l.name] = Component{Rank: i + 1, Weight: lw, Score: part}
			c.score += part
		}
	}
	out := make([]*scored, 0, len(byID))
	for _, c := range byID {
		out = append(out, c)
	}
	sortScored(out)
	return out
}

func sortScored(xs []*scored) {
	slices.SortFunc(xs, func(a, b *scored) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(a.itemID, b.itemID)
	})
}
