package memoryactionwire

import (
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// Appended is what a writing memory action appended: exactly one event.
type Appended struct {
	Action string                `json:"action"`
	Event  eventloomwire.Receipt `json:"event"`
	// Type is the appended event's type.
	Type string `json:"type"`
	// Replayed is true when an idempotent retry was answered from the first append.
	Replayed bool `json:"replayed"`
	// Previous, for revise_confidence, is the confidence the artifact was ranked by before.
	Previous *float64 `json:"previous_confidence,omitempty"`
}
