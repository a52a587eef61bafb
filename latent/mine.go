package latent

import (
	"time"

	"github.com/zaxy/zaxy/vocab"
)

// ToolCall is one tool_call.completed event, for mining outside a build.
type ToolCall struct {
	Seq        int64
	Session    string
	Tool       string
	Outcome    string
	Error      string
	OccurredAt time.Time
}

// MineToolCalls runs the procedure and failure producers over calls (in seq order) exactly as
// a build runs them over a space's usable tool calls, and returns their artifacts without
// addresses (ID is empty: no space). It reads and writes nothing; benchmarks measure the
// producers through it.
func MineToolCalls(calls []ToolCall) (procedureArtifacts, failureArtifacts []*Artifact) {
	evs := make([]event, len(calls))
	for i, c := range calls {
		evs[i] = event{Seq: c.Seq, Type: vocab.TypeToolCallCompleted, Session: c.Session, OccurredAt: c.OccurredAt,
			Data: mustJSON(vocab.ToolCallCompleted{Tool: c.Tool, Outcome: c.Outcome, Error: c.Error})}
	}
	return procedures(evs), failures(evs)
}
