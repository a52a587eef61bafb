package memoryactionwire

import (
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// Priors is a ranked list of artifacts, best first, with every event they cite.
type Priors struct {
	Action string     `json:"action"`
	Priors []Artifact `json:"priors"`
	// SourceEventRefs are all the events the priors cite, in seq order.
	SourceEventRefs []SourceRef `json:"source_event_refs"`
	// Use says what the priors are for and what they are not.
	Use string `json:"use"`
	// Record is the memory_action.surfaced event recording the answer (absent with no_record).
	Record *eventloomwire.Receipt `json:"record,omitempty"`
}
