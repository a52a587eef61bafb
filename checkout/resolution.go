package checkout

import (
	"regexp"

	"github.com/zaxy/zaxy/vocab"
)

// The resolution prior (Policy.ResolutionBoost): a question about how something ended ("how did
// we fix ...", "what did we decide about ...", "which library did we settle on?") is answered
// by the turn that states the outcome, not by the logs and code that led to it, which share far
// more of the question's words (the component's and the error's names, many times over). The
// prior lifts the turns that state a fix, a cause found or a decision. Both rules are general
// English of resolving and deciding, not any set's wording.

var (
	// asksResolution matches a question about how something was fixed or decided.
	asksResolution = regexp.MustCompile(`(?i)\b(fix|fixed|fixes|solve|solved|resolve|resolved|decide|decided|settle|settled|agree|agreed|choose|chose|chosen|pick|picked|end up|ended up|went with|go with|caused?|root cause|why did)\b`)
	// statesResolution matches a statement of a fix, a found cause or a decision.
	statesResolution = &phraseRule{before: 48, after: 64, cues: []string{"fix", "solved", "resolved", "cause", "decided", "decision",
		"agreed", "settled", "chose", "go with", "going with", "we'll", "we’ll", "let's", "let’s", "switched to", "replaced", "changed",
		"the problem", "turned out"},
		re: regexp.MustCompile(`(?i)\b(fix|fixed|fixes|solved|resolved|root cause|the cause|caused by|decided|decision|agreed|settled|chose|going with|go with|we['’]ll (use|go|keep|make|switch|standardi[sz]e)|let['’]s (use|go|keep|make|switch)|switched to|replaced|changed (it |the \w+ )?to|the problem (was|is)|turned out)\b`)}
)

// resolutionPrior favours statements of a fix or a decision for a question about one: turns
// that state one, and decision.recorded events, which are one by type.
func resolutionPrior(p *Policy, q *question, it *rankedItem) float64 {
	if p.ResolutionBoost > 0 && q.asksResolution && (it.boostKind == vocab.TypeDecisionRecorded || statesResolution.match(it.Text)) {
		return p.ResolutionBoost
	}
	return 1
}
