package retrospective

import (
	"fmt"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/vocab"
)

// actionRecordType is the event a reading memory action appends listing what it answered.
const actionRecordType = vocab.TypeMemoryActionSurfaced

// ActionProspective names the prospective pass among judged memory actions: its
// checkout.surfaced lists the priors it returned.
const ActionProspective = "prospective"

// Confidences of the memory-action rules (docs/latent.md, "Memory actions in the judgement");
// partial outcomes scale them by partialFactor as the item rules do.
const (
	confActionCited     = 0.8
	confActionWarned    = 0.6
	confActionProcedure = 0.6
	confActionMissing   = 0.6
	confActionFollowed  = 0.6
)

// recordedAction is one reading memory action of the session, read from its
// memory_action.surfaced event: the action, the tools it was asked about and the artifacts it
// returned (each with the tools it is about and the events it cites).
type recordedAction struct {
	Seq int64
	// Type is the record's type: memory_action.surfaced, or checkout.surfaced for a
	// prospective pass (its priors).
	Type      string
	Action    string
	Tools     []string
	Artifacts []vocab.SurfacedArtifact
}

// recordedActions lists the session's recorded reading memory actions in seq order, and its
// prospective passes (a checkout.surfaced listing priors, action "prospective"); a record that
// does not decode is left out.
func (t *Trace) recordedActions() []recordedAction {
	var out []recordedAction
	for _, e := range t.Session {
		var d vocab.MemoryActionSurfaced
		switch e.Type {
		case actionRecordType:
			var err error
			if d, err = vocab.Decode[vocab.MemoryActionSurfaced](e.Data); err != nil || d.Action == "" {
				continue
			}
		case surfacedType:
			p, err := vocab.Decode[struct {
				Priors []vocab.SurfacedArtifact `json:"priors"`
			}](e.Data)
			if err != nil || len(p.Priors) == 0 {
				continue
			}
			d = vocab.MemoryActionSurfaced{Action: ActionProspective, Artifacts: p.Priors}
		default:
			continue
		}
		ra := recordedAction{Seq: e.Seq, Type: e.Type, Action: d.Action, Artifacts: d.Artifacts}
		for _, tool := range d.Tools {
			ra.Tools = append(ra.Tools, normTool(tool))
		}
		for i := range ra.Artifacts {
			for j, tool := range ra.Artifacts[i].Tools {
				ra.Artifacts[i].Tools[j] = normTool(tool)
			}
		}
		out = append(out, ra)
	}
	return out
}

// normTool is a tool name as the producers and the trace compare it.
func normTool(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// about are the artifacts of r of one of types whose tools include tool.
func (r recordedAction) about(tool string, types ...string) []vocab.SurfacedArtifact {
	var out []vocab.SurfacedArtifact
	for _, a := range r.Artifacts {
		if slices.Contains(types, a.Type) && slices.Contains(a.Tools, tool) {
			out = append(out, a)
		}
	}
	return out
}

// citedBy are the artifacts of r whose events evidence cites (all of them when evidence cites
// the record itself).
func (r recordedAction) citedBy(evidence []int64) []vocab.SurfacedArtifact {
	if slices.Contains(evidence, r.Seq) {
		return r.Artifacts
	}
	var out []vocab.SurfacedArtifact
	for _, a := range r.Artifacts {
		if slices.ContainsFunc(a.Seqs, func(s int64) bool { return slices.Contains(evidence, s) }) {
			out = append(out, a)
		}
	}
	return out
}

// judgeActions gives each recorded memory action of the session before the outcome (acts) a verdict
// (docs/latent.md, "Memory actions in the judgement"), first rule that fires:
//
//  1. the outcome's evidence cites the record or an event one of its artifacts cites: credited
//     on a success, blamed on a failure or partial (0.8);
//  2. on a failure or partial whose last unrecovered failure is tool T, an action before the
//     failure that returned a failure pattern or causal link of T warned of it: credited (0.6:
//     memory was right; the work failed anyway);
//  3. ... one that returned a procedure running T: blamed (0.6: it recommended the step that
//     failed);
//  4. ... one asked about T (its tools) that returned nothing about T: blamed (0.6: memory had
//     no evidence when asked);
//  5. on a success, one that returned a procedure whose steps the session then ran, in order,
//     each succeeding: credited (0.6);
//  6. otherwise not implicated.
func judgeActions(t *Trace, acts []recordedAction, status string, evidence []int64, calls []toolCall, factor float64) []ActionJudgement {
	if len(acts) == 0 {
		return nil
	}
	bad := unrecovered(calls)
	out := make([]ActionJudgement, 0, len(acts))
	for _, r := range acts {
		j := ActionJudgement{Seq: r.Seq, Type: r.Type, Action: r.Action, Verdict: "not_implicated"}
		judge := func(verdict string, conf float64, reason string, arts []vocab.SurfacedArtifact, cites ...int64) {
			j.Verdict, j.Confidence, j.Reason = verdict, round(conf), reason
			for _, a := range arts {
				j.ArtifactIDs = append(j.ArtifactIDs, a.ArtifactID)
			}
			j.Cites = sortedSet(append([]int64{t.Outcome.Seq, r.Seq}, cites...))
		}
		failed := status == vocab.OutcomeFailure || status == vocab.OutcomePartial
		switch cited := r.citedBy(evidence); {
		case len(cited) > 0 && status == vocab.OutcomeSuccess:
			judge("credited", confActionCited, "the successful outcome cites what it returned", cited)
		case len(cited) > 0 && failed:
			judge("blamed", confActionCited*factor, "the failed outcome cites what it returned", cited)
		case failed && len(bad) > 0 && r.Seq < bad[len(bad)-1].seq:
			last := bad[len(bad)-1]
			if warned := r.about(last.tool, latent.TypeFailure, latent.TypeCausal); len(warned) > 0 {
				judge("credited", confActionWarned*factor, fmt.Sprintf("it warned that %s fails; %s failed anyway", last.tool, last.tool), warned, last.seq)
			} else if procs := r.about(last.tool, latent.TypeProcedure); len(procs) > 0 {
				judge("blamed", confActionProcedure*factor, fmt.Sprintf("it returned a procedure running %s, which failed", last.tool), procs, last.seq)
			} else if slices.Contains(r.Tools, last.tool) {
				judge("blamed", confActionMissing*factor, fmt.Sprintf("asked about %s, it returned nothing about it, and %s failed", last.tool, last.tool), nil, last.seq)
			}
		case status == vocab.OutcomeSuccess:
			if procs, run := followed(r, calls); len(procs) > 0 {
				judge("credited", confActionFollowed, "the session ran the procedure it returned, every step succeeding", procs, run...)
			}
		}
		out = append(out, j)
	}
	return out
}

// followed are the procedures r returned whose steps the session's calls after r ran in
// order, each step's call succeeding, and the seqs of those calls.
func followed(r recordedAction, calls []toolCall) ([]vocab.SurfacedArtifact, []int64) {
	var procs []vocab.SurfacedArtifact
	var run []int64
	for _, a := range r.Artifacts {
		if a.Type != latent.TypeProcedure || len(a.Tools) == 0 {
			continue
		}
		k := 0
		var seqs []int64
		for _, c := range calls {
			if c.seq > r.Seq && k < len(a.Tools) && c.tool == a.Tools[k] && c.success {
				seqs = append(seqs, c.seq)
				k++
			}
		}
		if k == len(a.Tools) {
			procs = append(procs, a)
			run = append(run, seqs...)
		}
	}
	return procs, run
}

// firstAbout is the first of acts recorded before call c that returned an artifact of one of
// types about c's tool, and those artifacts (nil when none did): a failure pattern or causal
// link warned of the failure; a procedure recommended the step that failed.
func firstAbout(acts []recordedAction, c toolCall, types ...string) (*recordedAction, []vocab.SurfacedArtifact) {
	for i := range acts {
		if acts[i].Seq > c.seq {
			break
		}
		if found := acts[i].about(c.tool, types...); len(found) > 0 {
			return &acts[i], found
		}
	}
	return nil, nil
}

// consulted are the seqs of the session's checkouts and recorded memory actions: every time
// it asked memory, in seq order.
func consulted(acts []recordedAction, checkouts []int64) []int64 {
	out := slices.Clone(checkouts)
	for _, r := range acts {
		out = append(out, r.Seq)
	}
	return sortedSet(out)
}

// Revision is a confidence revision the pass appends for an artifact a judged memory action
// returned: credit raises its confidence a little, blame lowers it more (a failure says more
// than a success). It applies to the confidence the artifact is ranked by when the pass runs
// (its latest revision, else the producer's), so revisions of one artifact chain.
type Revision struct {
	ArtifactID string
	// ActionSeq is the record of the judged action.
	ActionSeq int64
	// Credit is true for credit, false for blame; Strength is the verdict's confidence.
	Credit   bool
	Strength float64
	Reason   string
}

// Apply is the confidence after the revision of confidence c: blame multiplies it by
// 1 - s/2 (s the verdict's confidence: 0.6 → × 0.7), credit adds s/4 of what is left to 1
// (0.6: 0.8 → 0.83).
func (r Revision) Apply(c float64) float64 {
	if r.Credit {
		return round(c + (1-c)*r.Strength/4)
	}
	return round(c * (1 - r.Strength/2))
}

// Revisions are the confidence revisions att calls for: one per artifact of each memory
// action credited or blamed at MinFeedbackConfidence or more; an artifact judged by two
// actions of one outcome is revised once, by the first.
func (att *Attribution) Revisions() []Revision {
	var out []Revision
	seen := map[string]bool{}
	for _, j := range att.Actions {
		if j.Action == "" || j.Confidence < MinFeedbackConfidence || (j.Verdict != "credited" && j.Verdict != "blamed") {
			continue
		}
		for _, id := range j.ArtifactIDs {
			if seen[id] {
				continue
			}
			seen[id] = true
			out = append(out, Revision{ArtifactID: id, ActionSeq: j.Seq, Credit: j.Verdict == "credited", Strength: j.Confidence,
				Reason: fmt.Sprintf("%s %s by outcome [%d] (%s): %s", j.Action, j.Verdict, att.OutcomeSeq, att.Status, j.Reason)})
		}
	}
	return out
}
