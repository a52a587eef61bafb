package checkout

import (
	"fmt"
	"strings"
)

// tierHeader titles each tier in the rendered text.
var tierHeader = map[string]string{
	TierStable:  "## Stable facts",
	TierSession: "## This session",
	TierQuery:   "## Relevant memory",
}

// renderTiers renders packet p, whose items are those of items: it numbers the items in tier order and writes p.Text, each
// non-empty tier's header and lines, then the weave's text. It records the stable prefix's
// length and returns the last marker.
func renderTiers(p *Packet, items map[string]*rankedItem, whoWhen bool) int {
	var b strings.Builder
	ref := 0
	p.Diagnostics.StablePrefixBytes = 0
	for _, t := range p.Tiers {
		if len(t.Items) == 0 {
			continue
		}
		b.WriteString(tierHeader[t.Name] + "\n")
		for _, it := range t.Items {
			ref++
			it.Ref = ref
			b.WriteString(renderLine(ref, items[it.ItemID], whoWhen) + "\n")
		}
		if t.Name == TierStable {
			p.Diagnostics.StablePrefixBytes = b.Len()
		}
	}
	if p.Weave != nil {
		b.WriteString(p.Weave.Text)
	}
	p.Text = b.String()
	return ref
}

// renderLine is an item as the prompt shows it: marker, text, labels and citations; with
// whoWhen an event's text opens with when it happened and who said it (lineWhoWhen). What was
// remembered (the text, a speaker's name, an invalidation's reason) is shown as remembered
// text, which cannot imitate the marker or a citation (remembered).
func renderLine(ref int, it *rankedItem, whoWhen bool) string {
	var b strings.Builder
	if ref > 0 {
		fmt.Fprintf(&b, "[%d] ", ref)
	}
	if whoWhen && it.fact == nil && it.OccurredAt != nil {
		b.WriteString(lineWhoWhen(*it.OccurredAt, it.Kind, it.speaker, it.role))
	}
	b.WriteString(remembered(it.Text))
	var tags []string
	switch {
	case it.Labels.Invalidated != "":
		tags = append(tags, "invalidated: "+remembered(it.Labels.Invalidated))
	case it.Labels.Superseded:
		tags = append(tags, "superseded")
	}
	switch {
	case it.Labels.RedundantOf != "":
		tags = append(tags, "redundant of "+it.Labels.RedundantOf)
	case it.Labels.AttenuatedBy != "":
		tags = append(tags, "attenuated: "+it.Labels.AttenuatedBy)
	}
	if it.Labels.Inferred {
		tags = append(tags, "inferred")
	}
	if it.Labels.Stale {
		tags = append(tags, "stale")
	}
	if it.Labels.Conflicted {
		tags = append(tags, "conflicted")
	}
	if it.Repeats > 0 {
		tags = append(tags, repeatedLater(it.Repeats))
	}
	for _, c := range it.Citations {
		tag := fmt.Sprintf("seq %d #%s", c.Seq, c.Hash.String()[:8])
		if c.Start != nil {
			tag += fmt.Sprintf(" chars %d-%d", *c.Start, *c.End)
		}
		tags = append(tags, tag)
		if len(tags) >= 4 {
			break
		}
	}
	fmt.Fprintf(&b, " (%s)", strings.Join(tags, "; "))
	return flatLine(b.String()) // one line, whatever the text or an invalidation's reason holds
}

// repeatedLater says how often the gate found an item repeated later (n > 0).
func repeatedLater(n int) string {
	if n == 1 {
		return "repeated once later"
	}
	return fmt.Sprintf("repeated %d times later", n)
}

// Clip shortens a text for a message: its first 120 characters, then an ellipsis.
func Clip(s string) string { return clip(s) }

// clip shortens a text for a warning message (Clip).
func clip(s string) string {
	if r := []rune(s); len(r) > 120 {
		return string(r[:120]) + "…"
	}
	return s
}
