package memoryactionwire

import (
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// Risk is something memory says may go wrong at a step: a failure pattern of its tool or a
// causal link whose effect was that tool failing.
type Risk struct {
	Step       int     `json:"step"`
	Tool       string  `json:"tool"`
	Kind       string  `json:"kind"`
	ArtifactID string  `json:"artifact_id"`
	Summary    string  `json:"summary"`
	Confidence float64 `json:"confidence"`
	// Fix is the remembered fix sequence of a failure pattern, when there is one.
	Fix             []string    `json:"fix,omitempty"`
	SourceEventRefs []SourceRef `json:"source_event_refs"`
}

// EvidenceNeed is evidence the plan should gather before relying on a step, and what in
// memory (an artifact or a known unknown, with its events) says so.
type EvidenceNeed struct {
	// Step is the step it concerns (0-based), -1 for the whole plan.
	Step            int         `json:"step"`
	Need            string      `json:"need"`
	ArtifactID      string      `json:"artifact_id,omitempty"`
	SourceEventRefs []SourceRef `json:"source_event_refs"`
}

// KnownUnknown is a memory.known_unknown event: a question memory could not answer.
type KnownUnknown struct {
	Seq       int64  `json:"seq"`
	Hash      string `json:"hash"`
	SessionID string `json:"session_id,omitempty"`
	Question  string `json:"question"`
	Context   string `json:"context,omitempty"`
}

// Simulation is simulate_forward's answer: the procedures the plan follows, the risks at each
// step and the evidence it needs, all cited.
type Simulation struct {
	Action string   `json:"action"`
	Steps  []string `json:"steps"`
	// Procedures are the procedure priors of the plan, best first.
	Procedures    []Artifact     `json:"procedures"`
	Risks         []Risk         `json:"risks"`
	EvidenceNeeds []EvidenceNeed `json:"evidence_needs"`
	// KnownUnknowns are recorded open questions that name a step's tool or the goal's words.
	KnownUnknowns   []KnownUnknown `json:"known_unknowns"`
	SourceEventRefs []SourceRef    `json:"source_event_refs"`
	Use             string         `json:"use"`
	// Record is the memory_action.surfaced event recording the answer (absent with no_record).
	Record *eventloomwire.Receipt `json:"record,omitempty"`
}
