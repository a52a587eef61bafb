package checkout

import (
	"cmp"
	"slices"
)

// rrfK is reciprocal-rank fusion's constant: an item at rank r in a lane scores
// weight/(rrfK+r).
const rrfK = 60

// laneWeights are each purpose's weights of the lanes. Every purpose starts from general's.
var laneWeights = map[string]map[string]float64{
	PurposeGeneral:     {LaneExact: 1.0, LaneKeyword: 1.0, LaneVector: 1.2, LaneGraph: 0.5, LaneVerbatim: 1.0, LaneRecent: 0.3, LaneTopic: 0.4, LaneReply: 1.0},
	PurposeDebugging:   {LaneRecent: 0.6, LaneKeyword: 1.2},
	PurposeExploration: {LaneVector: 1.0, LaneGraph: 0.7},
	PurposePlanning:    {LaneGraph: 0.7, LaneRecent: 0.5},
	PurposeReview:      {LaneRecent: 0.5},
}

// kindBoosts multiply an item's fused score by what it is (event type or "fact"), per purpose:
// debugging leans on failures and invalidations, implementation on facts and decisions,
// exploration on episodes (messages and documents).
var kindBoosts = map[string]map[string]float64{
	PurposeDebugging:      {"tool_call.failure": 1.6, "memory.invalidated": 1.3, "tool_call.completed": 1.2},
	PurposeImplementation: {"fact": 1.3, "decision.recorded": 1.3, "document.chunk": 1.1},
	PurposeExploration:    {"message": 1.2, "document.chunk": 1.2},
	PurposePlanning:       {"decision.recorded": 1.4, "task.updated": 1.4},
	PurposeReview:         {"decision.recorded": 1.2, "fact": 1.2},
	PurposeRefactoring:    {"fact": 1.2, "decision.recorded": 1.2, "document.chunk": 1.1},
}

// Attenuation of items memory has marked: invalidated events and closed fact versions leave
// default ranking but stay reachable.
const (
	attenuateInvalidated = 0.2
	attenuateClosed      = 0.3
)

func weight(purpose, lane string) float64 {
	if w, ok := laneWeights[purpose][lane]; ok {
		return w
	}
	return laneWeights[PurposeGeneral][lane]
}

func kindBoost(purpose, kind string) float64 {
	if b, ok := kindBoosts[purpose][kind]; ok {
		return b
	}
	return 1
}

// Component is one lane's contribution to an item's score.
type Component struct {
	Rank   int     `json:"rank"`
	Weight float64 `json:"weight"`
	Score  float64 `json:"score"`
}

// scored is a fused candidate.
type scored struct {
	itemID     string
	score      float64
	components map[string]Component
}

// fuse combines the lanes by weighted reciprocal-rank fusion (each lane weighed by weigh), best
// first (ties by item id). A lane's per-item scales (specificity) multiply its weight item by
// item.
func fuse(weigh func(lane string) float64, lanes []laneResult) []*scored {
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
			part := lw / float64(rrfK+i+1)
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
