package memoryactionwire

import (
	"encoding/json"

	"github.com/zaxy/zaxy/latent/latentwire"
)

// Artifact is a current latent artifact as a memory action returns it: what it says, how far
// to trust it and the events it cites.
type Artifact struct {
	ID   string `json:"artifact_id"`
	Slot string `json:"slot"`
	Type string `json:"artifact_type"`
	// Summary is the artifact's text, with [seq] markers where it quotes an event.
	Summary string `json:"summary"`
	// Confidence is what the actions rank by: the latest revise_confidence of the artifact
	// (ConfidenceRevision names that event), else the producer's (ProducedConfidence).
	Confidence         float64    `json:"confidence"`
	ProducedConfidence float64    `json:"produced_confidence"`
	ConfidenceRevision *SourceRef `json:"confidence_revision,omitempty"`
	ReviewStatus       string     `json:"review_status"`
	AuthorityStatus    string     `json:"authority_status"`
	PurposeProfile     string     `json:"purpose_profile"`
	ReasoningPhase     string     `json:"reasoning_phase"`
	// Payload is the producer's structured payload (docs/latent.md, Producers).
	Payload json.RawMessage `json:"payload"`
	// SourceEventRefs are the events the artifact derives from, in seq order.
	SourceEventRefs []SourceRef `json:"source_event_refs"`
	// Score and Why, in ranked answers: the relevance times the confidence, and how it matched.
	Score float64 `json:"score,omitempty"`
	Why   string  `json:"why,omitempty"`
}

// SourceRef cites one event: its seq and hash (hex), which verify against the chain.
type SourceRef = latentwire.SourceRef
