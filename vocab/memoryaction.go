package vocab

import "encoding/json"

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
	"revise_confidence", "record_known_unknown", "score_memory_action",
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
	if fe := first(e1, e2); fe != nil {
		return fe
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
