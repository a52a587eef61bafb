package checkout

import (
	"time"
)

// Reasoning phases a weave is built for: the reasoning_phase of the latent artifacts
// (docs/latent.md) and of a weave request.
const (
	PhaseOrient  = "orient"
	PhasePlan    = "plan"
	PhaseAct     = "act"
	PhaseReflect = "reflect"
)

// Phases lists every reasoning phase.
var Phases = []string{PhaseOrient, PhasePlan, PhaseAct, PhaseReflect}

// phaseOfPurpose is the phase a weave serves when the request names none.
var phaseOfPurpose = map[string]string{
	PurposeGeneral: PhaseOrient, PurposeExploration: PhaseOrient, PurposePlanning: PhasePlan,
	PurposeImplementation: PhaseAct, PurposeDebugging: PhaseAct, PurposeRefactoring: PhaseAct,
	PurposeReview: PhaseReflect,
}

// Weave warning codes (Warning.Code in Weave.Warnings).
const (
	WeaveWarnStale           = "stale"
	WeaveWarnConflicted      = "conflicted"
	WeaveWarnLowConfidence   = "low_confidence"
	WeaveWarnMissingEvidence = "missing_evidence"
	// WeaveWarnAfterAsOf: an artifact cites an event that had not occurred by the checkout's
	// as_of, so it was left out.
	WeaveWarnAfterAsOf = "after_as_of"
)

// weavePhaseTypes are the space-wide artifact types a weave reads by phase even when no
// ranked event is among their sources (episodes come only through their cited events).
var weavePhaseTypes = []string{"procedure", "failure", "preference", "causal"}

// ExpectedUse and ProhibitedUse are what a weave's rendered text tells the model, verbatim.
const (
	WeaveExpectedUse   = "Orient this step with the inferred context; back every claim with an evidence line's seq."
	WeaveProhibitedUse = "Never state inferred context as fact or cite an artifact: it is derived and non-authoritative."
)

// weaveParams is what a weave is built for.
type weaveParams struct {
	space, goal, phase, purpose string
	// mech is the ranking's mechanism record, whose Weave* fields are the weave's limits (set
	// by buildWeave from the ranking's policy).
	mech *Mechanism
	// question is the ranking's question: its words place the evidence excerpts, its
	// named-speaker matcher picks the statements followed (set by buildWeave).
	question *question
	budget   int
	// asOf, when the checkout asks about another time: only artifacts whose every source had
	// occurred by then are woven.
	asOf *time.Time
	// statements: a ranked event that asks nothing also brings what follows it in its episode
	// when a speaker the goal names says it, as the reply lane follows it
	// (Policy.ReplyAfterStatements; set by buildWeave from the ranking's policy).
	statements bool
	// whoWhen: each evidence line opens with when its event happened and who said it
	// (Request.WhoWhen).
	whoWhen bool
	// replyAnswers are the reply lane's best answers the weave shows first, each with its rank
	// in that lane (Policy.WeaveReplyAnswers; set by buildWeave from the ranking).
	replyAnswers map[int64]int
	// woven is what the weave keeps of its artifacts and evidence lines that the answer does
	// not show (set by buildWeave).
	woven *wovenState
	// count is the tokens a text takes under the request's tokenizer (set by buildWeave from
	// the ranking).
	count func(string) int
}

// wovenState is what a weave keeps of its artifacts (by id) and evidence lines (by seq) that
// the answer does not show.
type wovenState struct {
	// score ranks an artifact in the weave.
	score map[string]float64
	// contradicts are the artifacts an artifact contradicts.
	contradicts map[string][]string
	// when is an episode's time window as its inferred line shows it (episodeWhen).
	when map[string]string
	// whoWhen opens an evidence line's text when the checkout asks for who_when (lineWhoWhen).
	whoWhen map[int64]string
}

// newWovenState is an empty wovenState.
func newWovenState() *wovenState {
	return &wovenState{score: map[string]float64{}, contradicts: map[string][]string{}, when: map[string]string{}, whoWhen: map[int64]string{}}
}

// weaveOn reports whether r asks for a weave: weave true or a reasoning phase given.
func weaveOn(r *Request) bool { return r.Weave || r.ReasoningPhase != "" }

// weavePhase is the phase r's weave serves: the one asked for, else the purpose's.
func weavePhase(asked, purpose string) string {
	if asked != "" {
		return asked
	}
	return phaseOfPurpose[purpose]
}

// SurfacedWeave is how a checkout.surfaced event records the weave it surfaced: its id, phase,
// the woven artifacts and the evidence seqs shown. It sits beside the surfaced items and
// reinforces nothing: a derived artifact never reinforces the events it cites.
type SurfacedWeave struct {
	WeaveID        string   `json:"weave_id"`
	ReasoningPhase string   `json:"reasoning_phase"`
	ArtifactIDs    []string `json:"artifact_ids"`
	EvidenceSeqs   []int64  `json:"evidence_seqs"`
	SourceSeqs     []int64  `json:"source_seqs"`
}

// surfacedWeave is w as a checkout.surfaced event records it (nil for no weave).
func surfacedWeave(w *Weave) *SurfacedWeave {
	if w == nil {
		return nil
	}
	sw := &SurfacedWeave{WeaveID: w.WeaveID, ReasoningPhase: w.ReasoningPhase, ArtifactIDs: w.ArtifactIDs, EvidenceSeqs: []int64{}, SourceSeqs: []int64{}}
	for _, e := range w.Evidence {
		sw.EvidenceSeqs = append(sw.EvidenceSeqs, e.Citation.Seq)
	}
	for _, c := range w.SourceEventRefs {
		sw.SourceSeqs = append(sw.SourceSeqs, c.Seq)
	}
	return sw
}
