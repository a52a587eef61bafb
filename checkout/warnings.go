package checkout

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/zaxy/zaxy/memoryitem"
)

// warnings surfaces what memory has moved on from among the packed items: superseded and
// invalidated versions and events, the older versions a packed current fact replaced, and
// items in conflict with a statement of another authority (awaiting review).
func warnings(rk *ranking, used map[string]bool) []Warning {
	var out []Warning
	for _, prev := range rk.previous {
		if prev.fact == nil || prev.fact.supersededBy == nil || !used[memoryitem.FactID(*prev.fact.supersededBy)] {
			continue
		}
		out = append(out, Warning{Code: "superseded", ItemID: memoryitem.FactID(*prev.fact.supersededBy), Citations: prev.Citations,
			Message: fmt.Sprintf("%s %s was %q (version %d) before it changed", flatLine(prev.fact.subject), flatLine(prev.fact.predicate), prev.fact.object, prev.fact.version)})
	}
	for id := range used {
		it := rk.items[id]
		switch {
		case it.Labels.Invalidated != "":
			out = append(out, Warning{Code: "invalidated", ItemID: id, Citations: it.Citations, Message: fmt.Sprintf("%q was marked invalid: %s", clip(it.Text), flatLine(it.Labels.Invalidated))})
		case it.Labels.Superseded:
			out = append(out, Warning{Code: "superseded", ItemID: id, Citations: it.Citations, Message: fmt.Sprintf("%q has been superseded by a newer version", clip(it.Text))})
		}
		if it.Labels.Conflicted {
			out = append(out, Warning{Code: "conflicted", ItemID: id, Citations: it.Citations,
				Message: fmt.Sprintf("%q is contradicted by a statement of another authority; a proposal awaits review (zaxy review list)", clip(it.Text))})
		}
	}
	slices.SortFunc(out, func(a, b Warning) int {
		return cmp.Or(cmp.Compare(a.ItemID, b.ItemID), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Message, b.Message))
	})
	return out
}
