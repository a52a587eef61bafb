package checkout

import (
	"context"
	"maps"
	"math"
	"slices"
	"time"
)

// Retrieval profiles of a checkout or query (Request.RetrievalProfile).
const (
	// ProfileSalience, the default (also ""), multiplies fused relevance by salience and leaves
	// attenuated items out of default ranking.
	ProfileSalience = "salience"
	// ProfilePlain ranks without salience: no salience multiplier, no attenuation below the
	// floor, no redundancy credit.
	ProfilePlain = "plain"
)

// Profiles lists the retrieval profiles.
var Profiles = []string{ProfileSalience, ProfilePlain}

// AttenuatedBySalience is Labels.AttenuatedBy of an item whose salience fell below its space's
// floor through disuse or negative feedback.
const AttenuatedBySalience = "salience"

// AttenuatedByRedundancy is Labels.AttenuatedBy of an item the encoding gate projected as
// redundant (Labels.RedundantOf names the ranked item it repeats).
const AttenuatedByRedundancy = "redundant"

// salienceCols are the sal_ columns of the item fetch (sql/checkout/handwritten/fetch_*.sql).
type salienceCols struct {
	Base          float64    `db:"sal_base"`
	Reinforcement float64    `db:"sal_reinforcement"`
	Decay         float64    `db:"sal_decay"`
	Pinned        bool       `db:"sal_pinned"`
	LastUseAt     *time.Time `db:"sal_last_use_at"`
	LastUseSeq    *int64     `db:"sal_last_use_seq"`
	LastUseSignal *string    `db:"sal_last_use_signal"`
	HalfLifeDays  float64    `db:"sal_half_life_days"`
	Floor         float64    `db:"sal_floor"`
}

// salience composes an item's salience; authority is its Labels.Authority.
func (c salienceCols) salience(authority string) *Salience {
	s := &Salience{Base: c.Base, Reinforcement: c.Reinforcement, Decay: c.Decay, LastUseAt: c.LastUseAt,
		LastUseSeq: c.LastUseSeq, Floor: c.Floor, HalfLifeDays: c.HalfLifeDays}
	if c.LastUseSignal != nil {
		s.LastUseSignal = *c.LastUseSignal
	}
	s.Value = roundSalience(c.Base * c.Reinforcement * c.Decay)
	switch {
	case c.Pinned:
		s.Exempt = "pinned"
	case authority == "asserted":
		s.Exempt = "asserted"
	}
	if s.Exempt != "" {
		s.Value = max(s.Value, c.Floor)
	}
	return s
}

// attenuated reports whether salience s leaves its item out of default ranking.
func attenuated(s *Salience) bool { return s.Exempt == "" && s.Value < s.Floor }

// roundSalience keeps nine decimals, so a value is the same however the float arithmetic
// of the database and Go round it.
func roundSalience(v float64) float64 { return math.Round(v*1e9) / 1e9 }

// applySalience multiplies each candidate's score by its item's salience and drops the
// attenuated ones and the redundant ones from rk.items (they stay when the request includes
// them, labelled, and then the ranking is relevance alone). A redundant candidate's rank is not
// lost: the item it repeats ranks as the better of itself and its best ranked copy (with that
// copy's components), and joins the candidates if only copies ranked (fetchRepeated read it).
// It sets each fetched item's Salience.Multiplier from the policy's SalienceWeight and returns
// the candidates kept.
func applySalience(r *Request, rk *ranking, fused []*scored) []*scored {
	rk.salience = &SalienceStats{IncludeAttenuated: r.IncludeAttenuated}
	weight := mechanismOf(rk.policy).SalienceWeight
	for _, it := range rk.items {
		if it.Salience != nil {
			it.Salience.Multiplier = roundSalience(math.Pow(it.Salience.Value, weight))
		}
	}
	credit := map[string]*scored{}
	if !r.IncludeAttenuated {
		for _, c := range fused {
			it := rk.items[c.itemID]
			if it == nil || it.Labels.RedundantOf == "" {
				continue
			}
			if b := credit[it.Labels.RedundantOf]; b == nil || c.score > b.score {
				credit[it.Labels.RedundantOf] = c
			}
		}
	}
	for id, it := range rk.items {
		if it.Labels.RedundantOf != "" {
			it.Labels.Attenuated = true
			it.Labels.AttenuatedBy = AttenuatedByRedundancy
			if !r.IncludeAttenuated {
				delete(rk.items, id)
				rk.salience.Redundant++
			}
			continue
		}
		if it.Salience == nil || !attenuated(it.Salience) {
			continue
		}
		it.Labels.Attenuated = true
		it.Labels.AttenuatedBy = AttenuatedBySalience
		if !r.IncludeAttenuated {
			delete(rk.items, id)
			rk.salience.Attenuated++
		}
	}
	kept := fused[:0]
	for _, c := range fused {
		it := rk.items[c.itemID]
		if it == nil {
			continue
		}
		if b := credit[c.itemID]; b != nil {
			if b.score > c.score {
				c.score, c.components = b.score, maps.Clone(b.components)
			}
			delete(credit, c.itemID)
		}
		kept = append(kept, c)
	}
	// The items of which only copies ranked, in a fixed order.
	for _, id := range slices.Sorted(maps.Keys(credit)) {
		it := rk.items[id]
		if it == nil {
			continue // attenuated itself, or not read
		}
		c := &scored{itemID: id, score: credit[id].score, components: maps.Clone(credit[id].components)}
		if it.Labels.Invalidated != "" {
			c.score *= mechanismOf(rk.policy).AttenuateInvalidated
		}
		kept = append(kept, c)
	}
	for _, c := range kept {
		if it := rk.items[c.itemID]; it.Salience != nil && !r.IncludeAttenuated {
			c.score *= it.Salience.Multiplier
		}
	}
	return kept
}

// fetchRepeated reads into rk.items the event items that ranked candidates repeat and that
// are not candidates' items already, so that applySalience can rank them in their copies'
// place. Without redundant candidates it reads nothing.
func fetchRepeated(ctx context.Context, fetch itemFetch, rk *ranking) error {
	var seqs []int64
	for _, c := range rk.fused {
		it := rk.items[c.itemID]
		if it == nil || it.Labels.RedundantOf == "" || rk.items[it.Labels.RedundantOf] != nil {
			continue
		}
		if seq := seqOfItem(it.Labels.RedundantOf); seq > 0 && !slices.Contains(seqs, seq) {
			seqs = append(seqs, seq)
		}
	}
	if len(seqs) == 0 {
		return nil
	}
	return fetch.events(ctx, seqs, rk.items)
}
