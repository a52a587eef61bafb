package latentwire

import (
	"time"
)

// Listed is one artifact as GET /v1/spaces/{space}/artifacts returns it.
type Listed struct {
	ArtifactID      string      `json:"artifact_id"`
	ArtifactType    string      `json:"artifact_type"`
	Summary         string      `json:"summary"`
	SourceEventRefs []SourceRef `json:"source_event_refs"`
	EntityRefs      []string    `json:"entity_refs"`
	ValidFrom       *time.Time  `json:"valid_from"`
	ValidTo         *time.Time  `json:"valid_to"`
	Method          string      `json:"method"`
	// Confidence is what the weave and the memory actions rank the artifact by: its latest
	// confidence revision (ConfidenceRevision names it), else ProducedConfidence, the
	// producer's.
	Confidence         float64    `json:"confidence"`
	ProducedConfidence float64    `json:"produced_confidence"`
	ConfidenceRevision *SourceRef `json:"confidence_revision,omitempty"`
	ReviewStatus       string     `json:"review_status"`
	AuthorityStatus    string     `json:"authority_status"`
	// StaleAt, StaleSeq and StaleReason are set on a stale artifact only: when, by which
	// event and why (invalidated, erased, superseded) it stopped being current.
	StaleAt     *time.Time `json:"stale_at"`
	StaleSeq    *int64     `json:"stale_seq"`
	StaleReason *string    `json:"stale_reason"`
	// Supersedes is the id of the artifact this one replaces, if any.
	Supersedes *string `json:"supersedes"`
	// Weaves are the seqs of the latest ListedWeaves checkout.surfaced events whose memory
	// weave cited the artifact, newest first.
	Weaves []int64 `json:"weaves"`
	// LLMSummaries are the optional LLM-assisted summaries of an episode, one per model
	// (latent_llm_summaries; empty unless an LLM is configured): labelled, never evidence.
	LLMSummaries []LLMSummary `json:"llm_summaries"`
}

// Page is one page of the artifact listing (latent.List).
type Page struct {
	Artifacts []Listed `json:"artifacts"`
	// NextAfter is the cursor of the next page (its After); absent on the last page.
	NextAfter *string `json:"next_after,omitempty"`
}
