package policy

import (
	"math"
	"slices"

	"github.com/zaxy/zaxy/checkout"
)

// The coordinate search: each sweep tries every recorded lane of every purpose at these
// multiples of its current weight, keeping a change only when the objective (the replay metric,
// then the pairs' mean margin) rises by more than minGain; it stops after maxSweeps or a sweep that changed nothing. Weights stay within
// [minWeight, maxWeight] and are rounded to three decimals, so a fit is the same bytes on every
// machine.
var searchFactors = []float64{0.25, 0.5, 0.75, 1.5, 2, 4}

const (
	maxSweeps = 5
	minGain   = 1e-9
	minWeight = 0.05
	maxWeight = 10
)

// fit searches lane weights around base's on ds and returns the best policy found (version
// unset) with its diagnostics. It is deterministic: purposes and lanes are visited in sorted
// order and only strict improvements are kept.
func fit(base *checkout.Policy, ds *dataset) (*checkout.Policy, FitDiagnostics) {
	cur := base.Clone()
	best := ds.objective(cur)
	diag := FitDiagnostics{BaseMetric: best.accuracy, BaseMargin: best.margin, Checkouts: len(ds.checkouts), Pairs: ds.pairs, Changed: []string{}}
	lanes := ds.lanesByPurpose()
	purposes := make([]string, 0, len(lanes))
	for p := range lanes {
		purposes = append(purposes, p)
	}
	slices.Sort(purposes)
	for diag.Sweeps < maxSweeps {
		diag.Sweeps++
		moved := false
		for _, purpose := range purposes {
			for _, lane := range lanes[purpose] {
				w0 := cur.Weight(purpose, lane)
				_, own := cur.LaneWeights[purpose][lane]
				if w0 <= 0 {
					continue // a lane weighed 0 did not run: nothing recorded to learn its weight from
				}
				bestW := w0
				for _, f := range searchFactors {
					w := math.Round(min(max(w0*f, minWeight), maxWeight)*1000) / 1000
					if w == w0 {
						continue
					}
					setWeight(cur, purpose, lane, w)
					if o := ds.objective(cur); o.better(best) {
						best, bestW = o, w
					}
				}
				setWeight(cur, purpose, lane, bestW)
				if bestW == w0 && !own {
					delete(cur.LaneWeights[purpose], lane) // it inherits general's again
					if len(cur.LaneWeights[purpose]) == 0 {
						delete(cur.LaneWeights, purpose)
					}
				}
				if bestW != w0 {
					moved = true
					if key := purpose + "/" + lane; !slices.Contains(diag.Changed, key) {
						diag.Changed = append(diag.Changed, key)
					}
				}
			}
		}
		if !moved {
			break
		}
	}
	slices.Sort(diag.Changed)
	diag.Metric, diag.Margin = best.accuracy, best.margin
	return cur, diag
}

// setWeight sets purpose's own weight of lane.
func setWeight(p *checkout.Policy, purpose, lane string, w float64) {
	if p.LaneWeights[purpose] == nil {
		p.LaneWeights[purpose] = map[string]float64{}
	}
	p.LaneWeights[purpose][lane] = w
}
