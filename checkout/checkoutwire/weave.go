package checkoutwire

import (
	"encoding/json"
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
	// Tokenizer is what Tokens and Used count in (Request.Tokenizer).
	Tokenizer string `json:"tokenizer"`
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
	// Reason is stale, superseded, unverified, rejected_in_review, withdrawn or after_as_of.
	Reason string `json:"reason"`
	// Seq is the event that made it so (the staling event, or the unverifiable source).
	Seq    int64  `json:"seq,omitempty"`
	Detail string `json:"detail"`
}
