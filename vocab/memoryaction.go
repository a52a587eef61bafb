package vocab

import (
	"encoding/json"
	"fmt"
)

// Event types the memory actions append (docs/latent.md, "Memory actions").
const (
	// TypeMemoryConfidenceRevised revises how far a latent artifact is to be trusted.
	TypeMemoryConfidenceRevised = "memory.confidence_revised"
	// TypeMemoryKnownUnknown records something the agent found it does not know.
	TypeMemoryKnownUnknown = "memory.known_unknown"
)

// MemoryActions are the names of the memory actions (docs/latent.md): what
// feedback.recorded's data.memory_action.action may name.
var MemoryActions = []string{
	"weave_memory", "simulate_forward", "reflect_backward", "retrieve_procedure_prior",
	"retrieve_failure_prior", "query_causal_neighborhood", "propose_memory_update",
	"revise_confidence", "record_known_unknown", "score_memory_action", "prospective",
}

// maxQuestionLen caps a known unknown's question.
const maxQuestionLen = 4000

// MemoryConfidenceRevised is the data of a "memory.confidence_revised" event: a new
// confidence for one latent artifact, with the reason and, optionally, the events that
// justify it. The memory actions rank the artifact by its latest revision; the artifact row
// itself (a projection of the log) is unchanged.
type MemoryConfidenceRevised struct {
	// Artifact names the artifact: its slot and content-addressed id.
	Artifact ArtifactRef `json:"artifact"`
	// Confidence is the new confidence, 0 to 1.
	Confidence float64 `json:"confidence"`
	// Previous is the confidence the artifact had when it was revised, optional.
	Previous *float64 `json:"previous,omitempty"`
	// Reason, required, says why.
	Reason string `json:"reason"`
	// Evidence are the seqs of earlier events that justify the revision, optional.
	Evidence []int64 `json:"evidence,omitempty"`
}

// MemoryKnownUnknown is the data of a "memory.known_unknown" event: a question memory could
// not answer. Its content (the question, as the memory item's text) makes it retrievable like
// any other memory.
type MemoryKnownUnknown struct {
	// Question, required, is what is not known.
	Question string `json:"question"`
	// Context says where the question came up (a goal, a step), optional.
	Context string `json:"context,omitempty"`
	// Evidence are the seqs of the events that showed the gap, optional.
	Evidence []int64 `json:"evidence,omitempty"`
}

// MemoryActionRef names the memory action a feedback.recorded judges (data.memory_action):
// the action's name and, for an action that appended an event, that event's seq.
type MemoryActionRef struct {
	Action string `json:"action"`
	Seq    *int64 `json:"seq,omitempty"`
}

func validateConfidenceRevised(o *object, _ string) *FieldError {
	art, fe := o.nested("artifact")
	if fe != nil {
		return fe
	}
	if art == nil {
		return fieldErr(o.path("artifact"), `is required: {"key": <slot>, "id": <artifact id>}`)
	}
	_, e1 := art.str("key", required, maxNameLen)
	_, e2 := art.str("id", required, maxNameLen)
	sum, e3 := art.str("sources_sha256", optional, 0)
	if fe := first(e1, e2, e3); fe != nil {
		return fe
	}
	if sum != "" && !isSHA256Hex(sum) {
		return fieldErr(art.path("sources_sha256"), "must be 64 lowercase hex digits (the sha256 of the artifact's source seqs)")
	}
	if _, ok := o.raw("confidence"); !ok {
		return fieldErr(o.path("confidence"), "is required: a number between 0 and 1")
	}
	if fe := o.confidence(); fe != nil {
		return fe
	}
	if r, ok := o.raw("previous"); ok {
		var c float64
		if err := json.Unmarshal(r, &c); err != nil || c < 0 || c > 1 {
			return fieldErr(o.path("previous"), "must be a number between 0 and 1")
		}
	}
	_, fe = o.str("reason", required, 0)
	if fe != nil {
		return fe
	}
	if _, ok := o.raw("evidence"); ok {
		return o.seqList("evidence")
	}
	return nil
}

func validateKnownUnknown(o *object, _ string) *FieldError {
	_, e1 := o.str("question", required, maxQuestionLen)
	_, e2 := o.str("context", optional, 0)
	if fe := first(e1, e2); fe != nil {
		return fe
	}
	if _, ok := o.raw("evidence"); ok {
		return o.seqList("evidence")
	}
	return nil
}

// memoryActionRef checks feedback.recorded's optional data.memory_action.
func (o *object) memoryActionRef() *FieldError {
	ma, fe := o.nested("memory_action")
	if fe != nil || ma == nil {
		return fe
	}
	_, e1 := ma.enum("action", required, MemoryActions)
	_, _, e2 := ma.integer("seq", false, 1)
	return first(e1, e2)
}

// TypeMemoryActionSurfaced is the record a reading memory action appends of what it answered
// (as a checkout appends checkout.surfaced): the artifacts it returned and the events they
// cite, in the caller's session, so that the retrospective pass can credit or blame the
// action for the session's outcome (docs/latent.md, "Retrospective credit").
const TypeMemoryActionSurfaced = "memory_action.surfaced"

// ReadingMemoryActions are the memory actions that read (and record what they surfaced)
// rather than append a change: what memory_action.surfaced's data.action may name.
var ReadingMemoryActions = []string{
	"simulate_forward", "reflect_backward", "retrieve_procedure_prior", "retrieve_failure_prior", "query_causal_neighborhood",
}

// Limits of a memory_action.surfaced record.
const (
	maxSurfacedArtifacts = 200
	maxSurfacedSeqs      = 5000
)

// MemoryActionSurfaced is the data of a "memory_action.surfaced" event: what one reading
// memory action answered.
type MemoryActionSurfaced struct {
	// Action is the reading action's name (ReadingMemoryActions).
	Action string `json:"action"`
	// RequestSHA256 is the sha256 (hex) of the request as the action read it.
	RequestSHA256 string `json:"request_sha256,omitempty"`
	// Tools are the tools the request named (a plan's steps, or the tools priors were asked
	// for), lower-cased, in order.
	Tools []string `json:"tools,omitempty"`
	// Artifacts are the artifacts the answer returned, best first.
	Artifacts []SurfacedArtifact `json:"artifacts"`
	// CitedSeqs are every event the answer cited, in seq order.
	CitedSeqs []int64 `json:"cited_seqs,omitempty"`
	// Truncated says the answer was larger than a record holds (200 artifacts, 5,000 seqs a
	// list): the best-first artifacts and the first seqs were kept.
	Truncated bool `json:"truncated,omitempty"`
}

// SurfacedArtifact is one artifact a reading memory action returned, with what the
// retrospective pass needs to judge it from the log alone: its type, the tools it is about
// (a procedure's steps, a failure pattern's or causal link's tool), the confidence it was
// ranked by and the events it cites.
type SurfacedArtifact struct {
	ArtifactID string   `json:"artifact_id"`
	Type       string   `json:"artifact_type"`
	Slot       string   `json:"slot,omitempty"`
	Tools      []string `json:"tools,omitempty"`
	Confidence float64  `json:"confidence"`
	Seqs       []int64  `json:"seqs,omitempty"`
}

func validateMemoryActionSurfaced(o *object, _ string) *FieldError {
	if _, fe := o.enum("action", required, ReadingMemoryActions); fe != nil {
		return fe
	}
	_, e1 := o.str("request_sha256", optional, 64)
	e2 := o.stringList("tools")
	e3 := o.optionalSeqs("cited_seqs", maxSurfacedSeqs)
	if fe := first(e1, e2, e3); fe != nil {
		return fe
	}
	r, ok := o.raw("artifacts")
	if !ok {
		return fieldErr(o.path("artifacts"), "is required (an array, empty when the action found nothing)")
	}
	var arts []json.RawMessage
	if err := json.Unmarshal(r, &arts); err != nil {
		return fieldErr(o.path("artifacts"), "must be an array of objects")
	}
	if len(arts) > maxSurfacedArtifacts {
		return fieldErr(o.path("artifacts"), "may list at most %d artifacts, got %d", maxSurfacedArtifacts, len(arts))
	}
	for i, raw := range arts {
		m, err := dataFields(raw)
		if err != nil {
			return fieldErr(fmt.Sprintf("%s[%d]", o.path("artifacts"), i), "must be an object")
		}
		a := &object{m: m, prefix: fmt.Sprintf("%sartifacts[%d].", o.prefix, i)}
		_, e1 := a.str("artifact_id", required, maxNameLen)
		_, e2 := a.str("artifact_type", required, maxNameLen)
		_, e3 := a.str("slot", optional, 0)
		e4 := a.stringList("tools")
		e5 := a.confidence()
		e6 := a.optionalSeqs("seqs", maxSurfacedSeqs)
		if fe := first(e1, e2, e3, e4, e5, e6); fe != nil {
			return fe
		}
	}
	return nil
}

// optionalSeqs checks an optional array of at most maxLen positive integers.
func (o *object) optionalSeqs(name string, maxLen int) *FieldError {
	r, ok := o.raw(name)
	if !ok {
		return nil
	}
	var seqs []json.RawMessage
	if err := json.Unmarshal(r, &seqs); err != nil {
		return fieldErr(o.path(name), "must be an array of positive integers")
	}
	if len(seqs) > maxLen {
		return fieldErr(o.path(name), "may list at most %d seqs, got %d", maxLen, len(seqs))
	}
	for i, s := range seqs {
		if _, fe := parseInt(fmt.Sprintf("%s[%d]", o.path(name), i), s, 1); fe != nil {
			return fe
		}
	}
	return nil
}
