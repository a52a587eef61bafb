package disclosurewire

import (
	"time"

	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// Citation names an event by its seq and hash. Every claim a view renders cites one.
type Citation struct {
	Seq  int64              `json:"seq"`
	Hash eventloomwire.Hash `json:"hash"`
}

// Invalidation says a later memory.invalidated event marked an event (or entity) wrong.
type Invalidation struct {
	// By cites the invalidating event.
	By     Citation `json:"by"`
	Reason string   `json:"reason"`
}

// EventLine is an event summarized to one line: its first line of text, or for typed events
// the gist of its data (the decision, the task's status, the tool's outcome, the fact).
type EventLine struct {
	Seq        int64              `json:"seq"`
	Hash       eventloomwire.Hash `json:"hash"`
	Type       string             `json:"type"`
	SessionID  string             `json:"session_id,omitempty"`
	Actor      string             `json:"actor,omitempty"`
	OccurredAt time.Time          `json:"occurred_at"`
	Summary    string             `json:"summary"`
	// Labels: "invalidated" when a memory.invalidated event targets it; "superseded",
	// "retracted" or "invalidated" when a fact it recorded has since been closed that way.
	Labels      []string      `json:"labels"`
	Invalidated *Invalidation `json:"invalidated,omitempty"`
}
