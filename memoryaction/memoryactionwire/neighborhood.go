package memoryactionwire

import (
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

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
	Use             string      `json:"use"`
	// Record is the memory_action.surfaced event recording the answer (absent with no_record).
	Record *eventloomwire.Receipt `json:"record,omitempty"`
}
