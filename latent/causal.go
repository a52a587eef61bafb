package latent

import (
	"fmt"
	"strings"

	"github.com/zaxy/zaxy/vocab"
)

// causalPayload is a causal link's payload.
type causalPayload struct {
	Session string `json:"session"`
	// Cause is the decision, Effect the failure that followed it; Fix, when found, its retry
	// (retryOf), and Steps the calls in between.
	Cause    int64    `json:"cause_seq"`
	Effect   int64    `json:"effect_seq"`
	Fix      int64    `json:"fix_seq,omitempty"`
	Decision string   `json:"decision"`
	Tool     string   `json:"tool"`
	Error    string   `json:"error"`
	Steps    []string `json:"steps"`
	// CauseSession and Outcome are set on a link an outcome cites (outcome_causal.go): the
	// cause's session and the outcome's status; Effect is then the outcome, Session its
	// session, and Error its summary unless the cause is a failed tool call.
	CauseSession string `json:"cause_session,omitempty"`
	Outcome      string `json:"outcome,omitempty"`
}

// causalLinks derives, in one session's usable events, the decision → failure → fix chains: a
// decision.recorded, the first failed tool call after it (before the next decision), and its
// retry (retryOf). Each link cites both ends (and the fix with the calls before it); it is
// a hypothesis for review, never a fact.
func causalLinks(session string, evs []event) []*Artifact {
	if session == "" {
		return nil
	}
	var out []*Artifact
	for i := range evs {
		d := &evs[i]
		if d.Type != vocab.TypeDecisionRecorded {
			continue
		}
		dec, err := vocab.Decode[vocab.DecisionRecorded](d.Data)
		if err != nil || dec.Decision == "" {
			continue
		}
		var fail *event
		var failCall vocab.ToolCallCompleted
		j := i + 1
		for ; j < len(evs) && evs[j].Type != vocab.TypeDecisionRecorded; j++ {
			if evs[j].Type != vocab.TypeToolCallCompleted {
				continue
			}
			c, err := vocab.Decode[vocab.ToolCallCompleted](evs[j].Data)
			if err == nil && c.Outcome == "failure" && strings.TrimSpace(c.Tool) != "" {
				fail, failCall = &evs[j], c
				break
			}
		}
		if fail == nil {
			continue
		}
		p := causalPayload{Session: session, Cause: d.Seq, Effect: fail.Seq, Decision: dec.Decision,
			Tool: normTool(failCall.Tool), Error: normError(failCall.Error), Steps: []string{}}
		cites := map[int64]*event{d.Seq: d, fail.Seq: fail}
		calls := []toolCall{{ev: fail, tool: p.Tool, args: normArgs(failCall.Arguments)}}
		for k := j + 1; k < len(evs); k++ {
			if evs[k].Type != vocab.TypeToolCallCompleted {
				continue
			}
			c, err := vocab.Decode[vocab.ToolCallCompleted](evs[k].Data)
			if err != nil {
				continue
			}
			calls = append(calls, toolCall{ev: &evs[k], tool: normTool(c.Tool), args: normArgs(c.Arguments), success: c.Outcome == "success"})
		}
		if r := retryOf(calls, 0); r > 0 {
			p.Fix = calls[r].ev.Seq
			for _, c := range calls[1 : r+1] {
				cites[c.ev.Seq] = c.ev
			}
			for _, c := range calls[1:r] {
				p.Steps = append(p.Steps, c.tool)
			}
		} else {
			for _, c := range calls[1:] { // never fixed: every call after the failure
				p.Steps = append(p.Steps, c.tool)
			}
		}
		summary := fmt.Sprintf("Decision %q [%d] was followed by %s failing with %q [%d]", dec.Decision, d.Seq, p.Tool, p.Error, fail.Seq)
		if p.Fix != 0 {
			summary += fmt.Sprintf(", fixed [%d]", p.Fix)
			if len(p.Steps) > 0 {
				summary += " after " + strings.Join(p.Steps, " → ")
			}
		} else {
			p.Steps = []string{}
		}
		from := d.OccurredAt
		out = append(out, &Artifact{
			Slot: causalSlot(session, d.Seq), Type: TypeCausal, Summary: summary + ".",
			Sources: refsOf(cites), ValidFrom: &from, Method: MethodDeterministic,
			// Temporal order is weak evidence of cause: a hypothesis until reviewed.
			Confidence: 0.3, PurposeProfile: "explanation", ReasoningPhase: "reflect",
			Payload: mustJSON(p), Diagnostics: mustJSON(map[string]bool{"fixed": p.Fix != 0}),
		})
	}
	return out
}
