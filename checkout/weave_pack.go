package checkout

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryitem"
)

// packWeave fits the artifacts into the budget and renders the weave. The structured ones
// (procedures, failure patterns, preferences, causal links) come first, best first, each with
// up to WeaveEvidencePer of its cited events (those the lanes ranked first, then the rest in seq
// order). Then the episodes' evidence, in the lanes' rank order: each ranked event an episode
// cites and, when that event asks something, its answer: the event after it in the episode,
// when short enough to show whole (with p.statements, also after an event that asks nothing when
// a speaker the goal names said the next one: the turn that goes on about it). A turn that
// answers a question often shares no word with a question about it, so the lanes rank the
// question and not the answer; the episode knows the order, the lanes do not. An episode is
// woven with its first shown event.
func (s *Service) packWeave(ctx context.Context, p weaveParams, w *Weave, arts []WeaveArtifact, rankOf map[int64]int, fetched map[string]*rankedItem) (*Weave, error) {
	var structured, episodes []*WeaveArtifact
	for i := range arts {
		if arts[i].Type == "episode" {
			episodes = append(episodes, &arts[i])
		} else {
			structured = append(structured, &arts[i])
		}
	}
	ranked, after := episodeExchanges(episodes, rankOf)
	if len(p.replyAnswers) > 0 {
		// The reply lane's best answers first, in its order; the other ranked events keep theirs.
		first := func(seq int64) int {
			if r, ok := p.replyAnswers[seq]; ok {
				return r
			}
			return math.MaxInt
		}
		slices.SortStableFunc(ranked, func(x, y rankedEvent) int { return cmp.Compare(first(x.seq), first(y.seq)) })
	}
	var want []int64
	for _, a := range structured {
		want = append(want, evidenceSeqs(*a, rankOf, p.mech.WeaveEvidencePer)...)
	}
	for _, r := range ranked {
		want = append(want, r.seq)
		// The answer is read only after a question (of the ranked events fetched, those that ask).
		if next, ok := after[r.seq]; ok {
			if it := fetched[memoryitem.EventID(r.seq)]; it == nil || asks(it.Text) || p.statements {
				want = append(want, next)
			}
		}
	}
	src, err := s.weaveEvidence(ctx, p.space, want, fetched)
	if err != nil {
		return nil, err
	}
	words, named := p.question.words, p.question.named
	fixed := p.count(weaveHeader(p) + "\n" + evidenceHeader + "\n" + inferredHeader + "\n")
	spent := fixed
	// shown: the events shown; shownBody: their type, content and data. An event identical to
	// one shown (an agent's identical tool outputs, which a failure pattern cites one by one) is
	// not shown again: the first one's line says how often it was repeated.
	shown, shownBody := map[int64]bool{}, map[[sha256.Size]byte]bool{}
	bodies := map[int64][sha256.Size]byte{} // each event's digest, computed once
	body := func(seq int64) [sha256.Size]byte {
		if b, ok := bodies[seq]; ok {
			return b
		}
		e := src[seq]
		b := sha256.Sum256([]byte(e.Type + "\x00" + e.Content + "\x00" + e.Data))
		bodies[seq] = b
		return b
	}
	line := func(seq int64, follows int64) (WeaveEvidence, bool) {
		e, ok := src[seq]
		if !ok || shown[seq] {
			return WeaveEvidence{}, false
		}
		if shownBody[body(seq)] {
			return WeaveEvidence{}, false
		}
		ev := WeaveEvidence{Kind: e.Type, Text: excerpt(p.mech, eventText(p.mech, e, words), words, p.mech.WeaveExcerptChars), Citation: Citation{Seq: seq, Hash: e.Hash}, Follows: follows}
		if p.whoWhen {
			p.woven.whoWhen[seq] = lineWhoWhen(e.OccurredAt, e.Type, e.Speaker, e.Role)
		}
		if it := fetched[memoryitem.EventID(seq)]; it != nil && it.Repeats > 0 {
			last := it.Citations[len(it.Citations)-1]
			ev.Repeats, ev.LastRepeat = it.Repeats, &last
		}
		return ev, true
	}
	// A line costs its own text and its marker in its artifact's inferred line ("W12, ").
	cost := func(lines []WeaveEvidence) int {
		n := 0
		for _, ev := range lines {
			n += p.count(evidenceLine(maxRef, ev, p.woven.whoWhen[ev.Citation.Seq])+"\n") + p.count(fmt.Sprintf("W%d, ", maxRef))
		}
		return n
	}
	take := func(lines []WeaveEvidence) {
		for _, ev := range lines {
			ev.Ref = len(w.Evidence) + 1
			shown[ev.Citation.Seq], shownBody[body(ev.Citation.Seq)] = true, true
			w.Evidence = append(w.Evidence, ev)
		}
	}
	woven := map[string]bool{}
	weave := func(a *WeaveArtifact) {
		woven[a.ArtifactID] = true
		w.Inferred = append(w.Inferred, *a)
		w.ArtifactIDs = append(w.ArtifactIDs, a.ArtifactID)
	}
	for _, a := range structured {
		var lines []WeaveEvidence
		for _, seq := range evidenceSeqs(*a, rankOf, p.mech.WeaveEvidencePer) {
			if ev, ok := line(seq, 0); ok && !slices.ContainsFunc(lines, func(l WeaveEvidence) bool { return l.Citation.Seq == seq || body(l.Citation.Seq) == body(seq) }) {
				lines = append(lines, ev)
			}
		}
		c := p.count(inferredLine(*a, nil, p.mech.WeaveInferredChars, p.woven.when[a.ArtifactID])+"\n") + cost(lines)
		if spent+c > p.budget {
			w.Budget.Omitted++
			continue
		}
		spent += c
		take(lines)
		weave(a)
	}
	for _, r := range ranked {
		first, ok := line(r.seq, 0)
		if !ok {
			continue
		}
		lines := []WeaveEvidence{first}
		if next, ok := after[r.seq]; ok {
			if reply, ok := line(next, r.seq); ok && (asks(first.Text) || (p.statements && named.names(messageName(src[next])))) &&
				utf8.RuneCountInString(strings.TrimSpace(eventText(p.mech, src[next], words))) <= p.mech.WeaveExcerptChars {
				lines = append(lines, reply)
			}
		}
		extra := 0
		if !woven[r.episode.ArtifactID] {
			extra = p.count(inferredLine(*r.episode, nil, p.mech.WeaveInferredChars, p.woven.when[r.episode.ArtifactID]) + "\n")
		}
		if spent+extra+cost(lines) > p.budget && len(lines) > 1 {
			lines = lines[:1] // the event alone, without its exchange
		}
		if c := extra + cost(lines); spent+c <= p.budget {
			spent += c
			take(lines)
			if !woven[r.episode.ArtifactID] {
				weave(r.episode)
			}
		}
	}
	for _, a := range episodes {
		if !woven[a.ArtifactID] {
			w.Budget.Omitted++
		}
	}
	// Evidence lists the artifacts citing each line; the woven artifacts keep their score order.
	slices.SortStableFunc(w.Inferred, func(a, b WeaveArtifact) int {
		return cmp.Compare(p.woven.score[b.ArtifactID], p.woven.score[a.ArtifactID])
	})
	w.ArtifactIDs = w.ArtifactIDs[:0]
	for _, a := range w.Inferred {
		w.ArtifactIDs = append(w.ArtifactIDs, a.ArtifactID)
	}
	evRef := map[int64]int{}
	for _, ev := range w.Evidence {
		evRef[ev.Citation.Seq] = ev.Ref
	}
	refs := map[int64]Citation{}
	for _, a := range w.Inferred {
		for _, c := range a.Citations {
			refs[c.Seq] = c
			if r, ok := evRef[c.Seq]; ok {
				ev := &w.Evidence[r-1]
				if !slices.Contains(ev.ArtifactIDs, a.ArtifactID) {
					ev.ArtifactIDs = append(ev.ArtifactIDs, a.ArtifactID)
				}
			}
		}
		switch {
		case len(p.woven.contradicts[a.ArtifactID]) > 0:
			w.Warnings = append(w.Warnings, Warning{Code: WeaveWarnConflicted, ItemID: "artifact:" + a.ArtifactID,
				Message: fmt.Sprintf("%s artifact %s contradicts an earlier one; prefer the evidence lines", a.Type, a.ArtifactID[:12])})
		case a.Confidence < p.mech.WeaveLowConfidence:
			w.Warnings = append(w.Warnings, Warning{Code: WeaveWarnLowConfidence, ItemID: "artifact:" + a.ArtifactID,
				Message: fmt.Sprintf("%s artifact %s has confidence %.2f: a hypothesis, not a finding", a.Type, a.ArtifactID[:12], a.Confidence)})
		}
	}
	for _, c := range refs {
		w.SourceEventRefs = append(w.SourceEventRefs, c)
	}
	slices.SortFunc(w.SourceEventRefs, func(a, b Citation) int { return cmp.Compare(a.Seq, b.Seq) })
	w.Warnings = append(w.Warnings, missingEvidence(p, w)...)
	slices.SortStableFunc(w.Warnings, func(a, b Warning) int {
		return cmp.Or(cmp.Compare(a.Code, b.Code), cmp.Compare(a.ItemID, b.ItemID))
	})
	w.WeaveID = weaveID(p, w)
	if fixed > p.budget {
		// Too small a budget for even the header: nothing is woven into the text.
		w.Budget.Omitted += len(w.Inferred)
		return w, nil
	}
	w.Text = renderWeave(p, w, p.budget)
	w.Budget.Used = p.count(w.Text)
	return w, nil
}

// evidenceSeqs are the cited events a structured artifact shows as evidence: for a failure
// pattern that was fixed, one failure and how it was fixed (failureChain); otherwise those the
// lanes ranked, best first, then its other sources in seq order; at most per.
func evidenceSeqs(a WeaveArtifact, rankOf map[int64]int, per int) []int64 {
	if chain := failureChain(a, rankOf, per); len(chain) > 0 {
		return chain
	}
	var ranked, rest []int64
	for _, c := range a.Citations {
		if _, ok := rankOf[c.Seq]; ok {
			ranked = append(ranked, c.Seq)
		} else {
			rest = append(rest, c.Seq)
		}
	}
	slices.SortFunc(ranked, func(x, y int64) int { return cmp.Compare(rankOf[x], rankOf[y]) })
	out := append(ranked, rest...)
	return out[:min(len(out), per)]
}

// failureChain is the evidence of a failure pattern that was fixed: one of its failures, the
// calls that fixed it and the same tool's next success, in order, at most per (the
// fixing calls nearest the retry when there are more). The failure is the fixed one the lanes ranked best,
// else the latest fixed one. Its ranked failures alone would show the error again and again,
// and never the fix the pattern's summary names (the fix shares no word with a question about
// the error). Empty for another type, or when no failure was fixed.
func failureChain(a WeaveArtifact, rankOf map[int64]int, per int) []int64 {
	if a.Type != "failure" {
		return nil
	}
	occurrences, err := latent.FailureFixes(a.Payload)
	if err != nil {
		return nil
	}
	cited := map[int64]bool{}
	for _, c := range a.Citations {
		cited[c.Seq] = true
	}
	best, bestRank := -1, 0
	for i, o := range occurrences {
		if o.FixSeq == 0 || !cited[o.FailureSeq] || !cited[o.FixSeq] {
			continue
		}
		r := rankOrLast(rankOf, o.FailureSeq)
		if best < 0 || r < bestRank || (r == bestRank && o.FailureSeq > occurrences[best].FailureSeq) {
			best, bestRank = i, r
		}
	}
	if best < 0 {
		return nil
	}
	o := occurrences[best]
	var steps []int64 // the fixing calls: the cited events between the two
	for _, c := range a.Citations {
		if c.Seq > o.FailureSeq && c.Seq < o.FixSeq {
			steps = append(steps, c.Seq)
		}
	}
	// Those nearest the retry: an agent looks around first (reads, greps) and fixes last.
	steps = steps[max(0, len(steps)-(per-2)):]
	slices.Sort(steps)
	return append(append([]int64{o.FailureSeq}, steps...), o.FixSeq)
}

// rankOrLast is seq's rank, or one past every rank for an event the lanes did not rank.
func rankOrLast(rankOf map[int64]int, seq int64) int {
	if r, ok := rankOf[seq]; ok {
		return r
	}
	return math.MaxInt
}

// rankedEvent is a ranked event an episode cites.
type rankedEvent struct {
	seq     int64
	episode *WeaveArtifact
}

// episodeExchanges returns the ranked events the episodes cite, in the lanes' rank order (each
// with the best scored episode citing it), and each one's exchange: the event after it among
// its episode's sources (an episode cites its session's events in order).
func episodeExchanges(episodes []*WeaveArtifact, rankOf map[int64]int) ([]rankedEvent, map[int64]int64) {
	var ranked []rankedEvent
	after := map[int64]int64{}
	seen := map[int64]bool{}
	for _, a := range episodes {
		for i, c := range a.Citations {
			if _, ok := rankOf[c.Seq]; !ok || seen[c.Seq] {
				continue
			}
			seen[c.Seq] = true
			ranked = append(ranked, rankedEvent{seq: c.Seq, episode: a})
			if i+1 < len(a.Citations) {
				after[c.Seq] = a.Citations[i+1].Seq
			}
		}
	}
	slices.SortStableFunc(ranked, func(x, y rankedEvent) int { return cmp.Compare(rankOf[x.seq], rankOf[y.seq]) })
	return ranked, after
}

// missingEvidence warns when the weave has no evidence, or the phase's kind of prior is absent.
func missingEvidence(p weaveParams, w *Weave) []Warning {
	var out []Warning
	if len(w.Evidence) == 0 {
		out = append(out, Warning{Code: WeaveWarnMissingEvidence, Message: "no cited event in latent memory bears on this step; verify before relying on memory"})
	}
	has := map[string]bool{}
	for _, a := range w.Inferred {
		has[a.Type] = true
	}
	switch {
	case p.phase == PhasePlan && !has["procedure"]:
		out = append(out, Warning{Code: WeaveWarnMissingEvidence, Message: "no recorded procedure fits this step: the plan has no precedent in memory"})
	case p.phase == PhaseAct && !has["failure"] && !has["procedure"]:
		out = append(out, Warning{Code: WeaveWarnMissingEvidence, Message: "no recorded procedure or failure fits this step"})
	}
	return out
}

// weaveID addresses a weave by what it was built for and from.
func weaveID(p weaveParams, w *Weave) string {
	var ev []int64
	for _, e := range w.Evidence {
		ev = append(ev, e.Citation.Seq)
	}
	b, _ := json.Marshal([]any{p.space, p.goal, p.phase, p.purpose, w.ArtifactIDs, ev})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// eventText is a cited event's text as evidence: its content (an excerpt around words when
// longer than m.MaxItemChars, as an item's), or its type and data.
func eventText(m *Mechanism, e dbsqlc.WeaveEvidenceRow, words []string) string {
	it := cutEventItem(e.Seq, e.Type, "", e.Content, e.Data, e.Hash, words, m)
	return it.Text
}

// excerpt cuts text to width characters around the query's words (excerptWindow with m).
func excerpt(m *Mechanism, text string, words []string, width int) string {
	out, _, _ := cutAround(m, []rune(strings.TrimSpace(text)), words, width)
	return out
}

// asks reports whether an evidence line asks something: then the event after it in its
// episode is its answer, which often shares no word with a question about it.
func asks(text string) bool { return strings.Contains(text, "?") }

// messageName is who said a message event (data.name), or "" for another event.
func messageName(e dbsqlc.WeaveEvidenceRow) string {
	var d struct {
		Name string `json:"name"`
	}
	if e.Type != "message" || json.Unmarshal([]byte(e.Data), &d) != nil {
		return ""
	}
	return d.Name
}
