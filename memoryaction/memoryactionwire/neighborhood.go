package memoryactionwire

import (
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
	"github.com/zaxy/zaxy/latent/latentwire"
)

// Relation is one edge between an artifact and another, a cited event or an entity
// (latentwire.Relation).
type Relation = latentwire.Relation

// RelatedArtifact is an artifact a causal neighbourhood's relations reach: what it is, its
// text and, when stale, why. Non-authoritative, as every artifact.
type RelatedArtifact struct {
	ID      string `json:"artifact_id"`
	Slot    string `json:"slot"`
	Type    string `json:"artifact_type"`
	Summary string `json:"summary"`
	// Confidence is the latest revise_confidence of the artifact, else the producer's.
	Confidence float64 `json:"confidence"`
	// StaleReason is why a stale artifact went stale (invalidated, erased, superseded).
	StaleReason string `json:"stale_reason,omitempty"`
}

// CausalLink is one causal artifact read as cause → effect (→ fix), each end cited.
type CausalLink struct {
	Artifact
	Cause  SourceRef  `json:"cause"`
	Effect SourceRef  `json:"effect"`
	Fix    *SourceRef `json:"fix,omitempty"`
	// Decision is the cause's decision; Tool and Error the effect's failure (on a link an
	// outcome states: the cause's failure, or else the outcome's summary as Error).
	Decision string `json:"decision"`
	Tool     string `json:"tool"`
	Error    string `json:"error"`
	// Outcome is the status of the outcome that states the link (failure or partial); absent
	// on a link inferred from order in time within a session.
	Outcome string `json:"outcome,omitempty"`
	// Role is what the asked-about event is in the link (cause, effect, fix or step), when an
	// event was asked about.
	Role string `json:"role,omitempty"`
}

// Neighborhood is query_causal_neighborhood's answer.
type Neighborhood struct {
	Action string       `json:"action"`
	Links  []CausalLink `json:"links"`
	// Causes and Effects are the links' ends, in seq order.
	Causes          []SourceRef `json:"causes"`
	Effects         []SourceRef `json:"effects"`
	SourceEventRefs []SourceRef `json:"source_event_refs"`
	// Relations are the edges of every kind with one of the links at either end (docs/latent.md,
	// "Relations between artifacts"), sorted by kind, from, to, seq and entity.
	Relations []Relation `json:"relations"`
	// Related are the artifacts those edges reach besides the links, stale ones included, in
	// id order.
	Related []RelatedArtifact `json:"related"`
	// ReadThrough says how the relations were read: "age" (Cypher over the space's AGE mirror)
	// or "tables" (the relational tables: AGE is not installed or the mirror cannot answer).
	ReadThrough string `json:"read_through"`
	Use         string `json:"use"`
	// Record is the memory_action.surfaced event recording the answer (absent with no_record).
	Record *eventloomwire.Receipt `json:"record,omitempty"`
}
