package policy

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/policy/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// replayItem is a surfaced item as the replay re-scores it: per lane its rank and the lane's
// per-item scale (the recorded weight over the policy weight in force), the multiplier applied
// after fusion, and its judgement (+1 helpful, -1 unhelpful, wrong or outdated, 0 none).
type replayItem struct {
	id    string
	ranks map[string]int
	scale map[string]float64
	boost float64
	label int
}

// replayCheckout is one recorded checkout with its judged items.
type replayCheckout struct {
	seq     int64
	purpose string
	items   []*replayItem
}

// dataset is what a fit learns from: the judged checkouts and the events they came from.
type dataset struct {
	checkouts []*replayCheckout
	// sources are the checkout.surfaced and feedback.recorded events that contributed.
	sources []int64
	pairs   int
}

// surfacedData is the part of a checkout.surfaced event's data the replay reads.
type surfacedData struct {
	Purpose       string `json:"purpose"`
	PolicyVersion string `json:"policy_version"`
	Items         []struct {
		ItemID string                           `json:"item_id"`
		Lanes  map[string]checkout.SurfacedLane `json:"lanes"`
		Boost  float64                          `json:"boost"`
	} `json:"items"`
}

// buildDataset joins a space's checkout.surfaced events with the feedback on their items: a
// feedback event counts for the checkout its checkout_seq names, else for the latest earlier
// checkout of the same session that surfaced the item; a later judgement of the same item in
// the same checkout replaces an earlier one. Only checkouts with at least one helpful and one
// negatively judged item replay: the fit learns from judgements, not from silence. Items
// without recorded lane ranks (older events, or items outside the fused ranking) are left out.
func buildDataset(rows []dbsqlc.EventsRow, lc *lifecycle) *dataset {
	type recorded struct {
		c       *replayCheckout
		session string
		byID    map[string]*replayItem
		judged  []int64
	}
	var all []*recorded
	bySeq := map[int64]*recorded{}
	for _, r := range rows {
		switch r.Type {
		case checkout.SurfacedType:
			var d surfacedData
			if json.Unmarshal(r.Data, &d) != nil {
				continue
			}
			version := d.PolicyVersion
			if version == "" {
				version = checkout.FirstBuiltinPolicyVersion // recorded before packets named their policy
			}
			pol := lc.policy(version)
			if pol == nil {
				continue
			}
			rc := &recorded{c: &replayCheckout{seq: r.Seq, purpose: d.Purpose}, session: r.SessionID, byID: map[string]*replayItem{}}
			for _, it := range d.Items {
				if len(it.Lanes) == 0 || it.Boost <= 0 {
					continue
				}
				ri := &replayItem{id: it.ItemID, ranks: map[string]int{}, scale: map[string]float64{}, boost: it.Boost}
				for lane, l := range it.Lanes {
					ri.ranks[lane] = l.Rank
					ri.scale[lane] = 1
					if w := pol.Weight(d.Purpose, lane); w > 0 {
						ri.scale[lane] = l.Weight / w
					}
				}
				rc.c.items = append(rc.c.items, ri)
				rc.byID[it.ItemID] = ri
			}
			all = append(all, rc)
			bySeq[r.Seq] = rc
		case vocab.TypeFeedbackRecorded:
			d, err := vocab.Decode[vocab.FeedbackRecorded](r.Data)
			if err != nil {
				continue
			}
			label := -1
			if d.Signal == "helpful" {
				label = 1
			}
			ids := slices.Clone(d.ItemIDs)
			for _, s := range d.TargetSeqs {
				ids = append(ids, memoryitem.EventID(s))
			}
			for _, id := range ids {
				var target *recorded
				if d.CheckoutSeq != nil {
					target = bySeq[*d.CheckoutSeq]
				} else {
					for i := len(all) - 1; i >= 0; i-- {
						if all[i].session == r.SessionID && all[i].byID[id] != nil {
							target = all[i]
							break
						}
					}
				}
				if target == nil || target.byID[id] == nil {
					continue
				}
				target.byID[id].label = label
				target.judged = append(target.judged, r.Seq)
			}
		}
	}
	ds := &dataset{}
	for _, rc := range all {
		pos, neg := 0, 0
		for _, it := range rc.c.items {
			switch it.label {
			case 1:
				pos++
			case -1:
				neg++
			}
		}
		if pos == 0 || neg == 0 {
			continue
		}
		ds.checkouts = append(ds.checkouts, rc.c)
		ds.pairs += pos * neg
		ds.sources = append(ds.sources, rc.c.seq)
		ds.sources = append(ds.sources, rc.judged...)
	}
	slices.Sort(ds.sources)
	ds.sources = slices.Compact(ds.sources)
	return ds
}

// score is an item's replayed score under p: the sum of its recorded lanes' rank scores (p's
// mechanism's RankScore, checkout's fusion) times its recorded post-fusion multiplier (the kind, speaker and time boosts, salience
// and cues of the checkout that surfaced it).
func (it *replayItem) score(p *checkout.Policy, purpose string) float64 {
	lanes := make([]string, 0, len(it.ranks))
	for l := range it.ranks {
		lanes = append(lanes, l)
	}
	slices.Sort(lanes) // add up in one order, so equal inputs give equal sums
	m, s := checkout.MechanismOf(p.MechanismVersion), 0.0
	for _, l := range lanes {
		s += m.RankScore(p.Weight(purpose, l)*it.scale[l], it.ranks[l])
	}
	return s * it.boost
}

// metric is the replay metric of p on ds: of the (helpful, negatively judged) item pairs of
// each checkout, the share p ranks helpful first (a tie counts half). 1 means every judged
// checkout would have put what helped above what did not.
func (ds *dataset) metric(p *checkout.Policy) float64 {
	return ds.objective(p).accuracy
}

// objective is what the fit maximises: the replay metric (accuracy), then, between policies
// with the same accuracy, the mean relative margin of the pairs ((helpful - negative) /
// (helpful + negative), in [-1, 1]), which lets the search cross the metric's plateaus
// toward the weights that flip a pair.
type objective struct {
	accuracy, margin float64
}

// better reports whether o beats b by more than minGain.
func (o objective) better(b objective) bool {
	if o.accuracy > b.accuracy+minGain {
		return true
	}
	return o.accuracy >= b.accuracy-minGain && o.margin > b.margin+minGain
}

func (ds *dataset) objective(p *checkout.Policy) objective {
	if ds.pairs == 0 {
		return objective{}
	}
	good, margin := 0.0, 0.0
	for _, c := range ds.checkouts {
		scores := make([]float64, len(c.items))
		for i, it := range c.items {
			scores[i] = it.score(p, c.purpose)
		}
		for i, a := range c.items {
			if a.label != 1 {
				continue
			}
			for j, b := range c.items {
				if b.label != -1 {
					continue
				}
				switch {
				case scores[i] > scores[j]:
					good++
				case scores[i] == scores[j]:
					good += 0.5
				}
				if sum := scores[i] + scores[j]; sum > 0 {
					margin += (scores[i] - scores[j]) / sum
				}
			}
		}
	}
	n := float64(ds.pairs)
	return objective{accuracy: good / n, margin: margin / n}
}

// lanesByPurpose lists, per purpose, the lanes the dataset's checkouts recorded ranks for.
func (ds *dataset) lanesByPurpose() map[string][]string {
	out := map[string][]string{}
	for _, c := range ds.checkouts {
		for _, it := range c.items {
			for l := range it.ranks {
				if !slices.Contains(out[c.purpose], l) {
					out[c.purpose] = append(out[c.purpose], l)
				}
			}
		}
	}
	for p := range out {
		slices.SortFunc(out[p], strings.Compare)
	}
	return out
}
