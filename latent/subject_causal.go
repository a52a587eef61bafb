package latent

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zaxy/zaxy/vocab"
)

// subjectSlotPrefix starts the slots of the causal links a decision's subject makes across
// sessions; no session's causal slot (causal:<session>:...) starts with it.
const subjectSlotPrefix = "causal-subject:"

// maxSubjectSessions caps the sessions one decision links into: the first ones, in seq order,
// whose failure its subject names.
const maxSubjectSessions = 3

// subjectCausalLinks derives, from the space's usable decisions and tool calls (seq order),
// the links a decision's subject makes across sessions: a decision.recorded with a subject
// (data.subject) that names a tool, as the whole subject or a whole word run of it ("migrate",
// "the migrate step"), and the first failed call of that tool in each later session other than
// the decision's own (that one is the per-session link's, causal.go), in at most
// maxSubjectSessions sessions. A decision a newer one about the same subject superseded is not
// usable, so it links nothing and its links go stale; the newer one links what follows it.
// Order in time and a named subject are weak evidence: a hypothesis for review, citing both
// ends, with the per-session links' confidence.
func subjectCausalLinks(evs []event) []*Artifact {
	// The failed calls by tool, in seq order: a decision is compared with each failing tool
	// once, not with every later event.
	type failure struct {
		e         *event
		tool, err string
	}
	failed := map[string][]failure{}
	var tools []string
	for i := range evs {
		f := &evs[i]
		if f.Type != vocab.TypeToolCallCompleted || f.Session == "" {
			continue
		}
		c, err := vocab.Decode[vocab.ToolCallCompleted](f.Data)
		tool := normTool(c.Tool)
		if err != nil || c.Outcome != "failure" || tool == "" {
			continue
		}
		if failed[tool] == nil {
			tools = append(tools, tool)
		}
		failed[tool] = append(failed[tool], failure{e: f, tool: tool, err: normError(c.Error)})
	}
	var out []*Artifact
	for i := range evs {
		d := &evs[i]
		if d.Type != vocab.TypeDecisionRecorded {
			continue
		}
		dec, err := vocab.Decode[vocab.DecisionRecorded](d.Data)
		subject := normTool(dec.Subject)
		if err != nil || dec.Decision == "" || subject == "" {
			continue
		}
		// The first failure of a named tool in each later session, earliest first.
		var picks []failure
		for _, tool := range tools {
			if !namesTool(subject, tool) {
				continue
			}
			for _, f := range failed[tool] {
				if f.e.Seq > d.Seq && f.e.Session != d.Session {
					picks = append(picks, f)
				}
			}
		}
		slices.SortFunc(picks, func(a, b failure) int { return cmp.Compare(a.e.Seq, b.e.Seq) })
		linked := map[string]bool{}
		for _, f := range picks {
			if len(linked) == maxSubjectSessions {
				break
			}
			if linked[f.e.Session] {
				continue
			}
			linked[f.e.Session] = true
			tool := f.tool
			p := causalPayload{Session: f.e.Session, Cause: d.Seq, Effect: f.e.Seq, Decision: dec.Decision, Tool: tool,
				Error: f.err, Steps: []string{}, CauseSession: d.Session}
			from := d.OccurredAt
			out = append(out, &Artifact{
				Slot: fmt.Sprintf("%s%d:%d", subjectSlotPrefix, d.Seq, f.e.Seq), Type: TypeCausal,
				Summary: fmt.Sprintf("Decision %q about %q in session %q [%d] was followed in session %q by %s failing with %q [%d].",
					dec.Decision, dec.Subject, d.Session, d.Seq, f.e.Session, tool, p.Error, f.e.Seq),
				Sources: refsOf(map[int64]*event{d.Seq: d, f.e.Seq: f.e}), ValidFrom: &from, Method: MethodDeterministic,
				// Order in time across sessions, tied by the subject naming the tool: a
				// hypothesis until reviewed, as the per-session links.
				Confidence: 0.3, PurposeProfile: "explanation", ReasoningPhase: "reflect",
				Payload: mustJSON(p), Diagnostics: mustJSON(map[string]string{"via": "decision_subject"}),
			})
		}
	}
	return out
}

// namesTool reports whether subject (normalized as a tool name is) is tool, or holds it with
// no letter, digit or underscore on either side: "migrate", "the migrate step" and "migrate,
// then deploy" name "migrate"; "migrations" and "premigrate" do not.
func namesTool(subject, tool string) bool {
	for from := 0; from <= len(subject)-len(tool); {
		k := strings.Index(subject[from:], tool)
		if k < 0 {
			return false
		}
		at := from + k
		before, _ := utf8.DecodeLastRuneInString(subject[:at])
		after, _ := utf8.DecodeRuneInString(subject[at+len(tool):])
		if !wordRune(before) && !wordRune(after) {
			return true
		}
		from = at + 1
	}
	return false
}

// wordRune reports whether r continues a word (utf8.RuneError: no rune there, at an end).
func wordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}
