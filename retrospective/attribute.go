package retrospective

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/vocab"
)

// Causes an attribution names (docs/latent.md, "Attribution rules").
const (
	// CauseStaleMemory: a surfaced item was invalidated, or judged outdated or wrong, later in
	// the session, before the failure.
	CauseStaleMemory = "stale_memory"
	// CauseRetrieval: the failure rests on surfaced items that misled (the outcome cites them,
	// or they were about the tool that failed).
	CauseRetrieval = "retrieval"
	// CauseMissingEvidence: a tool failed unrecovered and the session's checkouts surfaced
	// nothing about it.
	CauseMissingEvidence = "missing_evidence"
	// CauseToolFailure: a tool failed unrecovered and the session never consulted memory.
	CauseToolFailure = "tool_failure"
	// CausePlanning: every tool call succeeded (or recovered), yet the work failed after a
	// recorded decision: the plan was wrong.
	CausePlanning = "planning"
	// CauseSuccess: a success crediting the surfaced items the outcome cites.
	CauseSuccess = "success"
	// CauseUnknown: the trace does not say; recorded as uncertainty, never guessed.
	CauseUnknown = "unknown"
)

// Causes lists the failure causes and unknown, the labels the attribution lane scores.
var Causes = []string{CauseRetrieval, CauseStaleMemory, CauseMissingEvidence, CauseToolFailure, CausePlanning, CauseUnknown}

// Confidences of the rules; partial outcomes scale them by partialFactor.
const (
	confStale         = 0.9
	confCited         = 0.8
	confAboutTool     = 0.6
	confMissing       = 0.6
	confToolFailure   = 0.7
	confPlanning      = 0.5
	confSuccessCredit = 0.8
	partialFactor     = 0.75
	// MinFeedbackConfidence is the least confidence at which a judgement of an item becomes a
	// feedback.recorded event; below it the judgement stays in the attribution only.
	MinFeedbackConfidence = 0.6
)

// ItemJudgement is credit (helpful) or blame (unhelpful) of one surfaced item.
type ItemJudgement struct {
	ItemID     string  `json:"item_id"`
	Signal     string  `json:"signal"`
	Confidence float64 `json:"confidence"`
	Reason     string  `json:"reason"`
	// Checkout is the checkout.surfaced event that surfaced the item.
	Checkout int64 `json:"checkout_seq"`
	// Cites are the trace events the judgement rests on.
	Cites []int64 `json:"cites"`
}

// ActionJudgement is the verdict on one memory action of the session (a checkout, or a
// reading memory action that recorded what it answered): credited, blamed, or not implicated.
type ActionJudgement struct {
	// Seq is the action's event: its checkout.surfaced or memory_action.surfaced.
	Seq     int64  `json:"seq"`
	Type    string `json:"type"`
	Verdict string `json:"verdict"`
	// Confidence is the verdict's: that of the item judgement it follows, or of the cause
	// (missing evidence), or of the memory-action rule that fired; 0 when not implicated.
	Confidence float64 `json:"confidence"`
	// Action names a reading memory action (memory_action.surfaced's data.action).
	Action string `json:"action,omitempty"`
	// ArtifactIDs are the artifacts the verdict rests on, of a reading memory action.
	ArtifactIDs []string `json:"artifact_ids,omitempty"`
	// Reason says why, for a reading memory action's verdict.
	Reason string `json:"reason,omitempty"`
	// Cites are the trace events a reading memory action's verdict rests on.
	Cites []int64 `json:"cites,omitempty"`
}

// Proposal is a proposal.created the pass appends.
type Proposal struct {
	Kind       string
	Evidence   []int64
	Confidence float64
	Rationale  string
}

// Attribution is the pass's judgement of one outcome.
type Attribution struct {
	OutcomeSeq int64 `json:"outcome_seq"`
	// Status is success, partial, failure or unknown; StatusFrom is "declared" (the event said
	// it) or "classified" (derived from the session's tool calls and task updates).
	Status     string  `json:"status"`
	StatusFrom string  `json:"status_from"`
	Cause      string  `json:"cause"`
	Confidence float64 `json:"confidence"`
	Reason     string  `json:"reason"`
	// Trace are the seqs of the events the attribution cites, the outcome's included.
	Trace   []int64           `json:"trace"`
	Items   []ItemJudgement   `json:"items,omitempty"`
	Actions []ActionJudgement `json:"actions,omitempty"`
	// Proposals are what the pass proposes for review.
	Proposals []Proposal `json:"-"`
}

// Classify is the outcome's status: the declared one, else the session's last task update
// (done → success, blocked → partial, cancelled → failure), else its tool calls (none →
// unknown; every tool's last call succeeded → success; an unrecovered failure → partial when
// some other call succeeded, failure otherwise).
func Classify(t *Trace) (status, from string) {
	d, _ := vocab.Decode[vocab.OutcomeRecorded](t.Outcome.Data)
	if d.Status != "" {
		return d.Status, "declared"
	}
	for i := len(t.Session) - 1; i >= 0; i-- {
		e := t.Session[i]
		if e.Type != vocab.TypeTaskUpdated {
			continue
		}
		u, err := vocab.Decode[vocab.TaskUpdated](e.Data)
		if err != nil || (d.TaskID != "" && u.TaskID != d.TaskID) {
			continue
		}
		switch u.Status {
		case "done":
			return vocab.OutcomeSuccess, "classified"
		case "blocked":
			return vocab.OutcomePartial, "classified"
		case "cancelled":
			return vocab.OutcomeFailure, "classified"
		}
	}
	calls := t.toolCalls()
	if len(calls) == 0 {
		return vocab.OutcomeUnknown, "classified"
	}
	bad := unrecovered(calls)
	switch {
	case len(bad) == 0:
		return vocab.OutcomeSuccess, "classified"
	case slices.ContainsFunc(calls, func(c toolCall) bool { return c.success }):
		return vocab.OutcomePartial, "classified"
	default:
		return vocab.OutcomeFailure, "classified"
	}
}

// Attribute judges the outcome of t by the deterministic rules of docs/latent.md. It only
// ever judges items surfaced into t's session.
func Attribute(t *Trace) *Attribution {
	d, _ := vocab.Decode[vocab.OutcomeRecorded](t.Outcome.Data)
	a := &Attribution{OutcomeSeq: t.Outcome.Seq}
	a.Status, a.StatusFrom = Classify(t)
	items, checkouts := t.surfacedItems()
	acts := t.recordedActions()
	calls := t.toolCalls()
	factor := 1.0
	if a.Status == vocab.OutcomePartial {
		factor = partialFactor
	}
	cites := []int64{t.Outcome.Seq}
	blame := func(its []surfaced, conf float64, reason string, extra ...int64) {
		for _, it := range its {
			a.Items = append(a.Items, ItemJudgement{ItemID: it.ItemID, Signal: "unhelpful", Confidence: round(conf * factor),
				Reason: reason, Checkout: it.Checkout, Cites: sortedSet(append([]int64{t.Outcome.Seq, it.Checkout}, extra...))})
		}
	}
	switch a.Status {
	case vocab.OutcomeSuccess:
		if cited := citedItems(items, d.Evidence); len(cited) > 0 {
			a.Cause, a.Confidence, a.Reason = CauseSuccess, confSuccessCredit, "the success cites memory the session surfaced"
			for _, it := range cited {
				a.Items = append(a.Items, ItemJudgement{ItemID: it.ItemID, Signal: "helpful", Confidence: confSuccessCredit,
					Reason: "cited by a successful outcome", Checkout: it.Checkout, Cites: sortedSet([]int64{t.Outcome.Seq, it.Checkout})})
			}
		} else {
			a.Cause, a.Reason = CauseUnknown, "the success cites no surfaced memory: credit is not assigned"
		}
	case vocab.OutcomeUnknown:
		a.Cause, a.Reason = CauseUnknown, "the outcome's status cannot be told from the trace"
	default:
		a.failure(t, &d, items, checkouts, acts, calls, factor, blame)
	}
	for _, j := range a.Items {
		cites = append(cites, j.Cites...)
	}
	for _, p := range a.Proposals {
		cites = append(cites, p.Evidence...)
	}
	a.Confidence = round(a.Confidence * factor)
	a.Actions = actionVerdicts(checkouts, a.Items, a.Cause, a.Confidence)
	for _, j := range judgeActions(t, acts, a.Status, d.Evidence, calls, factor) {
		a.Actions = append(a.Actions, j)
		cites = append(cites, j.Cites...)
		// A success no surfaced item earned credit for, but a memory action did.
		if a.Status == vocab.OutcomeSuccess && j.Verdict == "credited" && (a.Cause == CauseUnknown || a.Cause == CauseSuccess) {
			if a.Cause == CauseUnknown {
				a.Reason = fmt.Sprintf("the session followed what %s [%d] returned", j.Action, j.Seq)
			}
			a.Cause, a.Confidence = CauseSuccess, max(a.Confidence, j.Confidence)
		}
	}
	a.Trace = sortedSet(cites)
	if a.Cause == CauseUnknown && a.Status != vocab.OutcomeSuccess {
		ev := sortedSet(append(consulted(acts, checkouts), t.Outcome.Seq))
		a.Proposals = append(a.Proposals, Proposal{Kind: vocab.ProposalKnownUnknown, Evidence: ev, Confidence: 0,
			Rationale: fmt.Sprintf("outcome [%d] (%s): %s; no cause is assigned", t.Outcome.Seq, a.Status, a.Reason)})
		a.Trace = sortedSet(append(a.Trace, ev...))
	}
	return a
}

// failure applies the failure rules in order; the first that fires names the cause.
func (a *Attribution) failure(t *Trace, d *vocab.OutcomeRecorded, items []surfaced, checkouts []int64, acts []recordedAction, calls []toolCall,
	factor float64, blame func([]surfaced, float64, string, ...int64),
) {
	out := t.Outcome.Seq
	// 1. Stale memory: surfaced, then invalidated or judged outdated/wrong in the session.
	if stale, by := staleItems(t, items); len(stale) > 0 {
		a.Cause, a.Confidence = CauseStaleMemory, confStale
		a.Reason = "a surfaced memory was invalidated or judged outdated in the session before the failure"
		blame(stale, confStale, "stale memory: invalidated after it was surfaced", by...)
		return
	}
	// 2. Retrieval: the outcome cites surfaced items as what it relied on.
	if cited := citedItems(items, d.Evidence); len(cited) > 0 {
		a.Cause, a.Confidence = CauseRetrieval, confCited
		a.Reason = "the failure cites memory the session surfaced"
		blame(cited, confCited, "misleading retrieval: the failed outcome cites it")
		return
	}
	bad := unrecovered(calls)
	if len(bad) > 0 {
		last := bad[len(bad)-1]
		failSeqs := make([]int64, len(bad))
		for i, c := range bad {
			failSeqs[i] = c.seq
		}
		// 3. Retrieval: memory about the failing tool was surfaced before it failed.
		if about := aboutTool(t, items, last); len(about) > 0 {
			a.Cause, a.Confidence = CauseRetrieval, confAboutTool
			a.Reason = fmt.Sprintf("memory about %s was surfaced and %s still failed", last.tool, last.tool)
			blame(about, confAboutTool, "misleading retrieval: about the tool that failed", last.seq)
			return
		}
		// 3b. A memory action warned of the failure: memory was right, the tool failed anyway.
		if r, warned := firstAbout(acts, last, latent.TypeFailure, latent.TypeCausal); r != nil {
			a.Cause, a.Confidence = CauseToolFailure, confToolFailure
			a.Reason = fmt.Sprintf("%s [%d] warned that %s fails (%s); it failed anyway", r.Action, r.Seq, last.tool, warned[0].ArtifactID)
			return
		}
		// 3c. A memory action returned a procedure running the tool that failed.
		if r, procs := firstAbout(acts, last, latent.TypeProcedure); r != nil {
			a.Cause, a.Confidence = CauseRetrieval, confAboutTool
			a.Reason = fmt.Sprintf("%s [%d] returned a procedure running %s (%s), which failed", r.Action, r.Seq, last.tool, procs[0].ArtifactID)
			return
		}
		prior := Proposal{Kind: vocab.ProposalFailurePrior, Evidence: sortedSet(append(failSeqs, out)), Confidence: round(confToolFailure * factor),
			Rationale: fmt.Sprintf("%s failed (%s) and the work ended in %s [%d]", last.tool, clip(last.err), a.Status, out)}
		// 4. Missing evidence: memory was consulted (a checkout, a memory action) and had
		// nothing on it.
		if asked := consulted(acts, checkouts); len(asked) > 0 {
			a.Cause, a.Confidence = CauseMissingEvidence, confMissing
			a.Reason = fmt.Sprintf("the session's checkouts and memory actions surfaced nothing about %s, which failed", last.tool)
			a.Proposals = append(a.Proposals, prior, Proposal{Kind: vocab.ProposalKnownUnknown,
				Evidence: sortedSet(append(append(asked, last.seq), out)), Confidence: round(confMissing * factor),
				Rationale: fmt.Sprintf("memory holds no evidence about %s failing (%s); the session asked and found none", last.tool, clip(last.err))})
			return
		}
		// 5. Tool failure: memory was never consulted.
		a.Cause, a.Confidence = CauseToolFailure, confToolFailure
		a.Reason = fmt.Sprintf("%s failed and did not recover; the session consulted no memory", last.tool)
		a.Proposals = append(a.Proposals, prior)
		return
	}
	// 6. Planning: the calls succeeded, a decision was recorded, the work still failed.
	var decisions []int64
	for _, e := range t.Session {
		if e.Type == vocab.TypeDecisionRecorded {
			decisions = append(decisions, e.Seq)
		}
	}
	if len(decisions) > 0 {
		last := decisions[len(decisions)-1]
		ev := []int64{last, out}
		for _, c := range calls {
			if c.seq > last {
				ev = append(ev, c.seq)
			}
		}
		a.Cause, a.Confidence = CausePlanning, confPlanning
		a.Reason = fmt.Sprintf("every tool call succeeded or recovered, yet the work failed after decision [%d]", last)
		a.Proposals = append(a.Proposals, Proposal{Kind: vocab.ProposalProcedureRevision, Evidence: sortedSet(ev), Confidence: round(confPlanning * factor),
			Rationale: fmt.Sprintf("the plan of decision [%d] ended in %s [%d]: revise the procedure", last, a.Status, out)})
		return
	}
	// 7. Unknown.
	a.Cause, a.Reason = CauseUnknown, "the trace shows no stale memory, cited memory, failed tool or decision to blame"
}

// staleItems are the surfaced items that a later event (of the session, or judging them from
// outside it) invalidated, or judged outdated or wrong, before the outcome; by are those events.
func staleItems(t *Trace, items []surfaced) (stale []surfaced, by []int64) {
	judges := append(slices.Clone(t.Session), t.Judged...)
	for _, it := range items {
		for _, e := range judges {
			if e.Seq <= it.Checkout || e.Seq >= t.Outcome.Seq || !judgesStale(e, it) {
				continue
			}
			stale = append(stale, it)
			by = append(by, e.Seq)
			break
		}
	}
	return stale, sortedSet(by)
}

// judgesStale reports whether e invalidates item it, or judges it outdated or wrong.
func judgesStale(e Event, it surfaced) bool {
	switch e.Type {
	case vocab.TypeMemoryInvalidated:
		d, err := vocab.Decode[vocab.MemoryInvalidated](e.Data)
		if err != nil {
			return false
		}
		if d.TargetSeq != nil && slices.Contains(it.Seqs, *d.TargetSeq) {
			return true
		}
		return d.TargetID != "" && (it.ItemID == memoryitem.FactID(d.TargetID) || it.ItemID == d.TargetID)
	case vocab.TypeFeedbackRecorded:
		d, err := vocab.Decode[vocab.FeedbackRecorded](e.Data)
		if err != nil || (d.Signal != "outdated" && d.Signal != "wrong") {
			return false
		}
		if n, ok := eventSeq(it.ItemID); ok && slices.Contains(d.TargetSeqs, n) {
			return true
		}
		return slices.Contains(d.ItemIDs, it.ItemID)
	}
	return false
}

// citedItems are the surfaced items whose events the outcome's evidence cites.
func citedItems(items []surfaced, evidence []int64) []surfaced {
	var out []surfaced
	for _, it := range items {
		if slices.ContainsFunc(it.Seqs, func(s int64) bool { return slices.Contains(evidence, s) }) {
			out = append(out, it)
		}
	}
	return out
}

// aboutTool are the items surfaced before call c whose cited events are about c's tool: a call
// of that tool, or a text naming it as a word or the start of one ("deploy", "deploying").
func aboutTool(t *Trace, items []surfaced, c toolCall) []surfaced {
	word := regexp.MustCompile(`(?i)(^|[^\pL\pN_])` + regexp.QuoteMeta(c.tool) + `\pL*($|[^\pL\pN_])`)
	var out []surfaced
	for _, it := range items {
		if it.Checkout > c.seq {
			continue
		}
		for _, s := range it.Seqs {
			e, ok := t.Cited[s]
			if !ok {
				continue
			}
			if e.Type == vocab.TypeToolCallCompleted {
				if d, err := vocab.Decode[vocab.ToolCallCompleted](e.Data); err == nil && strings.EqualFold(strings.TrimSpace(d.Tool), c.tool) {
					out = append(out, it)
					break
				}
			}
			if word.MatchString(e.Content) {
				out = append(out, it)
				break
			}
		}
	}
	return out
}

// actionVerdicts judges each checkout of the session: blamed or credited when an item it
// surfaced was, blamed when the cause is missing evidence (it surfaced nothing useful),
// otherwise not implicated.
func actionVerdicts(checkouts []int64, items []ItemJudgement, cause string, confidence float64) []ActionJudgement {
	var out []ActionJudgement
	for _, c := range checkouts {
		aj := ActionJudgement{Seq: c, Type: surfacedType, Verdict: "not_implicated"}
		for _, j := range items {
			if j.Checkout == c && j.Confidence >= aj.Confidence {
				aj.Verdict = map[string]string{"helpful": "credited", "unhelpful": "blamed"}[j.Signal]
				aj.Confidence = j.Confidence
			}
		}
		if cause == CauseMissingEvidence {
			aj.Verdict, aj.Confidence = "blamed", confidence
		}
		out = append(out, aj)
	}
	return out
}

// sortedSet sorts and deduplicates seqs.
func sortedSet(seqs []int64) []int64 {
	out := slices.Clone(seqs)
	slices.Sort(out)
	return slices.Compact(out)
}

// round keeps three decimals, so the appended events' bytes do not depend on float noise.
func round(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

// clip shortens an error message for a rationale.
func clip(s string) string {
	if r := []rune(s); len(r) > 160 {
		return string(r[:160]) + "…"
	}
	if s == "" {
		return "no error message"
	}
	return s
}
