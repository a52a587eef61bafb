package memoryactionwire

import (
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
	"github.com/zaxy/zaxy/vocab"
)

// ActionRecord is one reading memory action of the session: its memory_action.surfaced
// event, the action and the artifacts it returned.
type ActionRecord struct {
	SourceRef
	Action      string   `json:"action"`
	ArtifactIDs []string `json:"artifact_ids"`
}

// Surfacing is one checkout of the session: the checkout.surfaced event and the items it held.
type Surfacing struct {
	SourceRef
	ItemIDs []string `json:"item_ids"`
	// Seqs are the events the surfaced items cite.
	Seqs []int64 `json:"seqs"`
}

// Judgement is one feedback.recorded of the session.
type Judgement struct {
	SourceRef
	Signal       string                 `json:"signal"`
	TargetSeqs   []int64                `json:"target_seqs,omitempty"`
	ItemIDs      []string               `json:"item_ids,omitempty"`
	Comment      string                 `json:"comment,omitempty"`
	MemoryAction *vocab.MemoryActionRef `json:"memory_action,omitempty"`
}

// Outcome is how the session ended, as far as its events say: success, failure, partial or
// unknown, and the event that says so (none for unknown).
type Outcome struct {
	Status string     `json:"status"`
	Detail string     `json:"detail"`
	Basis  *SourceRef `json:"basis,omitempty"`
}

// Reflection is reflect_backward's answer.
type Reflection struct {
	Action    string `json:"action"`
	SessionID string `json:"session_id"`
	// Events is how many of the session's events were read.
	Events   int         `json:"events"`
	Surfaced []Surfacing `json:"surfaced"`
	// MemoryActions are the session's recorded reading memory actions, in seq order.
	MemoryActions []ActionRecord `json:"memory_actions"`
	Feedback      []Judgement    `json:"feedback"`
	Outcome       Outcome        `json:"outcome"`
	// Artifacts are the current artifacts that apply: those citing the session's events, and
	// the procedures and failure patterns of the tools it ran.
	Artifacts       []Artifact     `json:"artifacts"`
	KnownUnknowns   []KnownUnknown `json:"known_unknowns"`
	Warnings        []string       `json:"warnings"`
	SourceEventRefs []SourceRef    `json:"source_event_refs"`
	Use             string         `json:"use"`
	// Record is the memory_action.surfaced event recording the answer (absent with no_record).
	Record *eventloomwire.Receipt `json:"record,omitempty"`
}
