package checkout

import (
	"cmp"
	"slices"
)

// packTier packs one tier of a packet (the stable and session tiers; packQuery packs the
// query tier): it fills tier name from ids in order, each item at its line's cost, within the
// tier's share (limit, its header line included) and what is left of the budget; an item that
// does not fit is elided. Items already used (in the weave or an earlier tier) are skipped.
func packTier(rk *ranking, used map[string]bool, tokens *int, budget int, p *Packet, whoWhen bool,
	name string, ids []string, scores map[string]*scored, limit int) Tier {
	t := Tier{Name: name, Items: []*Item{}}
	spent := rk.count(tierHeader[name] + "\n")
	for _, id := range ids {
		it := rk.items[id]
		if it == nil || used[id] {
			continue
		}
		line := renderLine(maxRef, it, whoWhen)
		cost := rk.count(line + "\n")
		if *tokens+spent+cost > budget || spent+cost > limit {
			p.Budget.Elided = append(p.Budget.Elided, Elided{ItemID: id, Tokens: cost, Reason: "over the " + name + " tier's share of the budget"})
			continue
		}
		used[id] = true
		if c := scores[id]; c != nil {
			it.Score, it.Components = c.score, c.components
		}
		it.Tokens = cost
		spent += cost
		t.Items = append(t.Items, &it.Item)
	}
	if len(t.Items) > 0 {
		*tokens += spent
	}
	return t
}

// packQuery fills the query tier from the policy's mechanism's QueryCandidates best fused
// items, greedily by value per token: the fused score divided by the item's tokens (at least
// MinValueTokens, so one-word items do not crowd out the best evidence), until the budget is
// spent.
func packQuery(rk *ranking, used map[string]bool, tokens *int, budget int, p *Packet, whoWhen bool) Tier {
	t := Tier{Name: TierQuery, Items: []*Item{}}
	header := rk.count(tierHeader[TierQuery] + "\n")
	type cand struct {
		it    *rankedItem
		c     *scored
		cost  int
		value float64
	}
	m := mechanismOf(rk.policy)
	var cands []cand
	for i, c := range rk.fused {
		if i == m.QueryCandidates {
			break
		}
		it := rk.items[c.itemID]
		if it == nil || used[c.itemID] {
			continue
		}
		cost := rk.count(renderLine(maxRef, it, whoWhen) + "\n")
		cands = append(cands, cand{it: it, c: c, cost: cost, value: c.score / float64(max(cost, m.MinValueTokens))})
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(b.value, a.value) })
	spent := header
	for _, c := range cands {
		if *tokens+spent+c.cost > budget {
			p.Budget.Elided = append(p.Budget.Elided, Elided{ItemID: c.it.ItemID, Tokens: c.cost, Reason: "over the token budget"})
			continue
		}
		spent += c.cost
		c.it.Score, c.it.Components, c.it.Tokens = c.c.score, c.c.components, c.cost
		used[c.it.ItemID] = true
		t.Items = append(t.Items, &c.it.Item)
	}
	// Within the tier, the best first.
	slices.SortStableFunc(t.Items, func(a, b *Item) int { return cmp.Compare(b.Score, a.Score) })
	if len(t.Items) > 0 {
		*tokens += spent
	}
	return t
}

// maxRef is the widest citation marker an item's cost is estimated with, so numbering the
// items afterwards can never push the packet over its budget.
const maxRef = 99999

// fitRendered renders p and makes sure its text is within budget as a whole. Lines are
// budgeted one by one, and a byte-pair encoding can count a text as more than the sum of its
// lines (a merge across a line's end, a citation marker numbered wider than its estimate), so
// while the rendered text is over the budget the least valuable item shown is elided and p
// rendered again: the query tier's last (its worst), then the session tier's first (its
// oldest), then the stable tier's last. It sets p.Budget.Used and returns the last marker.
func fitRendered(p *Packet, rk *ranking, budget int, whoWhen bool) int {
	for {
		ref := renderTiers(p, rk.items, whoWhen)
		p.Budget.Used = rk.count(p.Text)
		if p.Budget.Used <= budget {
			return ref
		}
		if !elideOne(p) {
			return ref
		}
	}
}

// elideOne removes the least valuable item from p's tiers (fitRendered's order) and records
// it as elided; it reports false when the tiers are empty.
func elideOne(p *Packet) bool {
	for _, name := range []string{TierQuery, TierSession, TierStable} {
		for i := range p.Tiers {
			t := &p.Tiers[i]
			if t.Name != name || len(t.Items) == 0 {
				continue
			}
			at := len(t.Items) - 1
			if name == TierSession {
				at = 0
			}
			it := t.Items[at]
			t.Items = slices.Delete(t.Items, at, at+1)
			p.Budget.Elided = append(p.Budget.Elided, Elided{ItemID: it.ItemID, Tokens: it.Tokens, Reason: "over the token budget once rendered"})
			return true
		}
	}
	return false
}
