package checkout

// collapseRepeatedFacts keeps one item of the fact versions among the ranked ones that state the
// same thing (the same subject, predicate and value, so the same text), in the place of the best
// ranked of them and with its score and components: the current version when it is among them,
// else the latest (the last time the statement held). The others leave the ranking.
//
// A tool's state (last_error, last_outcome) gets a version each time it changes, so an agent's
// space holds its tools' same few errors many times over, each an identical line: a question
// about an error would fill a packet with "bash last_error ... (superseded)" lines. Each
// version's event ranks for itself, and a change of a fact in the packet is still a warning.
// Policy.CollapseRepeatedFacts; never with the plain profile.
func collapseRepeatedFacts(fused []*scored, items map[string]*rankedItem) []*scored {
	first := map[string]int{} // statement -> its place in out
	out := fused[:0]
	for _, c := range fused {
		it := items[c.itemID]
		if it == nil || it.fact == nil {
			out = append(out, c)
			continue
		}
		i, seen := first[it.Text]
		if !seen {
			first[it.Text] = len(out)
			out = append(out, c)
			continue
		}
		if kept := out[i]; standsFor(it.fact, items[kept.itemID].fact) {
			out[i] = &scored{itemID: c.itemID, score: kept.score, components: kept.components}
		}
	}
	return out
}

// standsFor reports whether fact version a represents a statement better than b: the current
// version, else the later one.
func standsFor(a, b *factRow) bool {
	if (a.status == "current") != (b.status == "current") {
		return a.status == "current"
	}
	return a.recordedSeq > b.recordedSeq
}
