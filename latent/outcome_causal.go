package latent

import (
	"fmt"
	"strings"

	"github.com/zaxy/zaxy/vocab"
)

// maxOutcomeCauses caps the causal links one outcome makes: the first cited events that can
// be a cause, in the order the outcome cites them.
const maxOutcomeCauses = 8

// maxOutcomeSummary is how much of an outcome's summary its causal links quote.
const maxOutcomeSummary = 200

// outcomeSlotPrefix starts the slots of the causal links outcomes cite; no session's causal
// slot (causal:<session>:...) starts with it.
const outcomeSlotPrefix = "causal-outcome:"

// outcomeCausalLinks derives, from the space's usable decisions, tool calls and outcomes (seq
// order), the causal links an outcome states: an outcome.recorded whose status is failure or
// partial and whose evidence cites an earlier decision.recorded or failed tool call, in any
// session. The author of the outcome named that event, which is more than order in time (the
// per-session links, causal.go), but still a hypothesis for review: each link cites both ends.
func outcomeCausalLinks(evs []event) []*Artifact {
	bySeq := map[int64]*event{}
	for i := range evs {
		bySeq[evs[i].Seq] = &evs[i]
	}
	var out []*Artifact
	for i := range evs {
		o := &evs[i]
		if o.Type != vocab.TypeOutcomeRecorded {
			continue
		}
		rec, err := vocab.Decode[vocab.OutcomeRecorded](o.Data)
		if err != nil || (rec.Status != "failure" && rec.Status != "partial") {
			continue
		}
		said := clipWords(rec.Summary, maxOutcomeSummary)
		seen := map[int64]bool{}
		n := 0
		for _, seq := range rec.Evidence {
			c := bySeq[seq]
			if n == maxOutcomeCauses || c == nil || seen[seq] || seq >= o.Seq {
				continue
			}
			seen[seq] = true
			p := causalPayload{Session: rec.SessionID, Cause: c.Seq, Effect: o.Seq, Steps: []string{},
				CauseSession: c.Session, Outcome: rec.Status, Error: said}
			var cause string
			switch c.Type {
			case vocab.TypeDecisionRecorded:
				d, err := vocab.Decode[vocab.DecisionRecorded](c.Data)
				if err != nil || d.Decision == "" {
					continue
				}
				p.Decision, cause = d.Decision, fmt.Sprintf("decision %q", d.Decision)
			case vocab.TypeToolCallCompleted:
				d, err := vocab.Decode[vocab.ToolCallCompleted](c.Data)
				if err != nil || d.Outcome != "failure" || strings.TrimSpace(d.Tool) == "" {
					continue
				}
				p.Tool, p.Error = normTool(d.Tool), normError(d.Error)
				cause = fmt.Sprintf("%s failing with %q", p.Tool, p.Error)
			default:
				continue
			}
			n++
			from := c.OccurredAt
			out = append(out, &Artifact{
				Slot: fmt.Sprintf("%s%d:%d", outcomeSlotPrefix, o.Seq, c.Seq), Type: TypeCausal,
				Summary: fmt.Sprintf("The %s outcome of session %q [%d] cites %s [%d]: %s", rec.Status, rec.SessionID, o.Seq,
					cause, c.Seq, said),
				Sources: refsOf(map[int64]*event{c.Seq: c, o.Seq: o}), ValidFrom: &from, Method: MethodDeterministic,
				// Cited by the outcome's author: stronger than order in time, still unreviewed.
				Confidence: 0.5, PurposeProfile: "explanation", ReasoningPhase: "reflect",
				Payload: mustJSON(p), Diagnostics: mustJSON(map[string]string{"via": "outcome_evidence"}),
			})
		}
	}
	return out
}
