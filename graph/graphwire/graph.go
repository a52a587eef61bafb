package graphwire

import (
	"encoding/json"
	"time"

	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// Entity is a node of the graph.
type Entity struct {
	ID             string             `json:"id"`
	Key            string             `json:"key"`
	Name           string             `json:"name"`
	Kinds          []string           `json:"kinds"`
	Version        int32              `json:"version"`
	FirstSeq       int64              `json:"first_seq"`
	FirstHash      eventloomwire.Hash `json:"first_hash"`
	LastSeq        int64              `json:"last_seq"`
	Mentions       int32              `json:"mentions"`
	InvalidatedSeq *int64             `json:"invalidated_seq,omitempty"`
}

// EntityRef names an entity in a fact.
type EntityRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Evidence cites an event.
type Evidence struct {
	Seq  int64              `json:"seq"`
	Hash eventloomwire.Hash `json:"hash"`
}

// Fact is one version of a (subject, predicate) edge.
type Fact struct {
	ID           string             `json:"id"`
	Subject      EntityRef          `json:"subject"`
	Predicate    string             `json:"predicate"`
	Object       *EntityRef         `json:"object,omitempty"`
	Value        json.RawMessage    `json:"value,omitempty"`
	Version      int32              `json:"version"`
	ValidFrom    time.Time          `json:"valid_from"`
	ValidTo      *time.Time         `json:"valid_to,omitempty"`
	RecordedSeq  int64              `json:"recorded_seq"`
	RecordedHash eventloomwire.Hash `json:"recorded_hash"`
	ClosedSeq    *int64             `json:"closed_seq,omitempty"`
	// StatusThen is the status in the view asked for (for as-of views, the status right
	// after that seq); Status is the status now.
	StatusThen   string     `json:"status_then"`
	Status       string     `json:"status"`
	SupersededBy *string    `json:"superseded_by,omitempty"`
	Authority    string     `json:"authority"`
	ReviewStatus string     `json:"review_status"`
	Inferred     bool       `json:"inferred"`
	Confidence   *float32   `json:"confidence,omitempty"`
	Evidence     []Evidence `json:"evidence"`
	CloseReason  *string    `json:"close_reason,omitempty"`
}

// View selects which versions a fact query returns.
type View string

// The three views of the temporal graph.
const (
	// ViewCurrent is what memory holds true now.
	ViewCurrent View = "current"
	// ViewAt is what was valid (in the world) at a time.
	ViewAt View = "at"
	// ViewAsOf is what memory said right after a seq was recorded.
	ViewAsOf View = "as_of"
)

// InferredFact is a statement the optional LLM-assisted extractor proposed for an event. It
// is never authoritative: Authority is always "inferred" and it never closes a fact.
type InferredFact struct {
	Subject      string     `json:"subject"`
	Predicate    string     `json:"predicate"`
	Object       string     `json:"object"`
	Confidence   *float32   `json:"confidence,omitempty"`
	Model        string     `json:"model"`
	Authority    string     `json:"authority"`
	ReviewStatus string     `json:"review_status"`
	Inferred     bool       `json:"inferred"`
	Evidence     []Evidence `json:"evidence"`
}
