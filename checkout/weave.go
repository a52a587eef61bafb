package checkout

import (
	"encoding/json"
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

// Weave is a section built for one reasoning step from precomputed latent artifacts
// (docs/checkout.md, "Memory weave"): the accepted evidence (events the artifacts cite, each
// verified against the log at query time), the artifacts themselves as inferred context
// (labelled suggestive and non-authoritative), and what it rejected and why.
type Weave struct {
	// WeaveID is the hex sha256 of the space, goal, phase, purpose, artifact ids and evidence
	// seqs: the same inputs always make the same id.
	WeaveID        string `json:"weave_id"`
	Goal           string `json:"goal"`
	ReasoningPhase string `json:"reasoning_phase"`
	Purpose        string `json:"purpose"`
	// ArtifactIDs are the woven artifacts, in weave order.
	ArtifactIDs []string `json:"artifact_ids"`
	// SourceEventRefs are every event the woven artifacts cite, verified, in seq order.
	SourceEventRefs []Citation `json:"source_event_refs"`
	// Evidence are the accepted events shown in the weave, the only lines that may back a claim.
	Evidence []WeaveEvidence `json:"evidence"`
	// Inferred is the inferred context: the woven artifacts, suggestive only.
	Inferred []WeaveArtifact `json:"inferred_context"`
	// Warnings: stale (a rejected artifact), conflicted, low_confidence, missing_evidence.
	Warnings []Warning `json:"warnings"`
	// Rejected are the artifacts the weave refused, with the reason (stale, superseded,
	// unverifiable source, rejected in review).
	Rejected []RejectedArtifact `json:"rejected"`
	// Budget is the weave's token budget and what its text used.
	Budget        WeaveBudget `json:"budget"`
	ExpectedUse   string      `json:"expected_use"`
	ProhibitedUse string      `json:"prohibited_use"`
	// Text is the rendered section, expected and prohibited use included.
	Text string `json:"text"`
	// SurfacedSeq is the checkout.surfaced event recording a weave_memory action's weave or a
	// prospective pass (absent inside a packet: the packet's own surfaced_seq records it).
	SurfacedSeq int64 `json:"surfaced_seq,omitempty"`
}

// WeaveBudget is a weave's token accounting.
type WeaveBudget struct {
	Tokens int `json:"tokens"`
	Used   int `json:"used"`
	// Omitted counts accepted artifacts left out for the budget.
	Omitted int `json:"omitted"`
}

// WeaveEvidence is one accepted event in a weave.
type WeaveEvidence struct {
	// Ref is the marker in the weave's text ([W<Ref>]).
	Ref      int      `json:"ref"`
	Kind     string   `json:"kind"`
	Text     string   `json:"text"`
	Citation Citation `json:"citation"`
	// ArtifactIDs are the woven artifacts citing it.
	ArtifactIDs []string `json:"artifact_ids"`
	// Follows is the seq of the evidence line this one follows in its episode (the turn it
	// replies to, the call it results from); absent for an event shown for its own rank.
	Follows int64 `json:"follows,omitempty"`
	// Repeats and LastRepeat: the later events the encoding gate found repeating this one (up to
	// the checkout's as_of, none invalidated), as its item's repeats count them, and the last of
	// them, which the line cites after the event itself ("when did it last happen?" is answered
	// by the copy, not by the first occurrence the line shows). Absent for an event no later
	// event repeats, and with the plain profile.
	Repeats    int       `json:"repeats,omitempty"`
	LastRepeat *Citation `json:"last_repeat,omitempty"`

	// whoWhen opens the line's text when the checkout asks for who_when (lineWhoWhen).
	whoWhen string
}

// Seqs are the events the line cites: its own, then its last repeat's.
func (ev WeaveEvidence) Seqs() []int64 {
	if ev.LastRepeat != nil {
		return []int64{ev.Citation.Seq, ev.LastRepeat.Seq}
	}
	return []int64{ev.Citation.Seq}
}

// WeaveArtifact is one artifact as inferred context.
type WeaveArtifact struct {
	ArtifactID string `json:"artifact_id"`
	Type       string `json:"type"`
	Summary    string `json:"summary"`
	// Confidence is what the weave ranks and shows the artifact by: its latest confidence
	// revision (revise_confidence, or the retrospective pass judging an outcome), else
	// ProducedConfidence, the producer's.
	Confidence         float64 `json:"confidence"`
	ProducedConfidence float64 `json:"produced_confidence"`
	ReviewStatus       string  `json:"review_status"`
	ReasoningPhase     string  `json:"reasoning_phase"`
	// Label is always "suggestive" and Authority "non_authoritative": latent memory steers,
	// it never authorises a claim.
	Label     string     `json:"label"`
	Authority string     `json:"authority"`
	Citations []Citation `json:"citations"`
	// Payload is the producer's structured payload (docs/latent.md).
	Payload json.RawMessage `json:"payload,omitempty"`
	// LLMSummary is the artifact's newest LLM-assisted summary, when an LLM is configured
	// (docs/latent.md, "LLM-assisted summaries"): what its inferred-context line shows then,
	// labelled with its model.
	LLMSummary *WeaveLLMSummary `json:"llm_summary,omitempty"`

	score       float64
	contradicts []string
	// when is an episode's time window as its inferred line shows it (episodeWhen).
	when string
}

// WeaveLLMSummary is an LLM-assisted summary of a woven artifact: suggestive like the artifact,
// never evidence.
type WeaveLLMSummary struct {
	Model   string `json:"model"`
	Summary string `json:"summary"`
	// Method is always "llm-assisted".
	Method string `json:"method"`
}

// RejectedArtifact is an artifact a weave refused.
type RejectedArtifact struct {
	ArtifactID string `json:"artifact_id"`
	Type       string `json:"type"`
	// Reason is stale, superseded, unverified, rejected_in_review or after_as_of.
	Reason string `json:"reason"`
	// Seq is the event that made it so (the staling event, or the unverifiable source).
	Seq    int64  `json:"seq,omitempty"`
	Detail string `json:"detail"`
}

// weaveParams is what a weave is built for.
type weaveParams struct {
	space, goal, phase, purpose string
	// mech is the ranking's mechanism record, whose Weave* fields are the weave's limits (set
	// by buildWeave from the ranking's policy).
	mech   *Mechanism
	budget int
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
}

// weaveOn reports whether r asks for a weave: weave true or a reasoning phase given.
func (r *Request) weaveOn() bool { return r.Weave || r.ReasoningPhase != "" }

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

// surfaced is w as a checkout.surfaced event records it (nil for no weave).
func (w *Weave) surfaced() *SurfacedWeave {
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
