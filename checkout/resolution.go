package checkout

import (
	"context"
	"regexp"

	"github.com/zaxy/zaxy/vocab"
)

// The resolution prior (Policy.ResolutionBoost): a question about how something ended ("how did
// we fix ...", "what did we decide about ...", "which library did we settle on?") is answered
// by the turn that states the outcome, not by the logs and code that led to it, which share far
// more of the question's words (the component's and the error's names, many times over). The
// prior lifts the turns that state a fix, a cause found or a decision. Both rules are general
// English of resolving and deciding, not any set's wording.
//
// With Policy.ResolutionSessions above 0 the prior lifts only the statements inside the sessions
// of the best that many fused candidates (as the lanes ranked them, before any prior): the
// sessions the question's own words found. A space holds many fixes and decisions; the one
// asked about is said where the question's component and error are, not in another session.
// With Policy.ResolutionPasted above 0 a pasted message (mostly log, code or stack-trace
// lines, pasted.go) is lowered for such a question: it shares the question's names many times
// over and states no outcome.

var (
	// asksResolution matches a question about how something was fixed or decided.
	asksResolution = regexp.MustCompile(`(?i)\b(fix|fixed|fixes|solve|solved|resolve|resolved|decide|decided|settle|settled|agree|agreed|choose|chose|chosen|pick|picked|end up|ended up|went with|go with|caused?|root cause|why did)\b`)
	// statesResolution matches a statement of a fix, a found cause or a decision.
	statesResolution = &phraseRule{before: 48, after: 64, cues: []string{"fix", "solved", "resolved", "cause", "decided", "decision",
		"agreed", "settled", "chose", "go with", "going with", "we'll", "we’ll", "let's", "let’s", "switched to", "replaced", "changed",
		"the problem", "turned out"},
		re: regexp.MustCompile(`(?i)\b(fix|fixed|fixes|solved|resolved|root cause|the cause|caused by|decided|decision|agreed|settled|chose|going with|go with|we['’]ll (use|go|keep|make|switch|standardi[sz]e)|let['’]s (use|go|keep|make|switch)|switched to|replaced|changed (it |the \w+ )?to|the problem (was|is)|turned out)\b`)}
)

// statesResolutionItem reports whether it states a fix or a decision: a turn that states one, or
// a decision.recorded event, which is one by type.
func statesResolutionItem(it *rankedItem) bool {
	return it.boostKind == vocab.TypeDecisionRecorded || statesResolution.match(it.Text)
}

// boostResolutions, for a question about how something was fixed or decided, multiplies by
// p.ResolutionBoost the score of each candidate that states a fix or a decision (with
// p.ResolutionSessions above 0, only inside foundSessions) and by p.ResolutionPasted the score
// of each pasted message (pasted.go). It runs right after boostItems, which keeps rk.fused in
// fusion's order.
func boostResolutions(_ context.Context, _ *Service, _ *Request, rk *ranking) error {
	p := rk.policy
	if !rk.question.asksResolution || p.ResolutionBoost <= 0 && p.ResolutionPasted <= 0 {
		return nil
	}
	var found map[string]bool
	if p.ResolutionSessions > 0 {
		found = foundSessions(rk, p.ResolutionSessions)
	}
	for _, c := range rk.fused {
		it := rk.items[c.itemID]
		switch {
		case p.ResolutionPasted > 0 && it.event != nil && isPasted(it.Text):
			c.score *= p.ResolutionPasted
		case p.ResolutionBoost > 0 && (found == nil || found[it.SessionID]) && statesResolutionItem(it):
			c.score *= p.ResolutionBoost
		}
	}
	return nil
}

// foundSessions are the sessions of the best n candidates in rk.fused's order (an item of no
// session adds none).
func foundSessions(rk *ranking, n int) map[string]bool {
	found := map[string]bool{}
	for _, c := range rk.fused[:min(n, len(rk.fused))] {
		if s := rk.items[c.itemID].SessionID; s != "" {
			found[s] = true
		}
	}
	return found
}
