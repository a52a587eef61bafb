package retrospective_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/retrospective"
)

// trace builds a pure trace: events in order from seq 1, then the outcome.
func trace(outcome string, evs ...[2]string) *retrospective.Trace {
	t := &retrospective.Trace{Cited: map[int64]retrospective.Event{}}
	for i, e := range evs {
		t.Session = append(t.Session, retrospective.Event{Seq: int64(i + 1), Type: e[0], Data: json.RawMessage(e[1])})
	}
	t.Outcome = retrospective.Event{Seq: int64(len(evs) + 1), Type: "outcome.recorded", Data: json.RawMessage(outcome)}
	return t
}

func TestClassify_DeclaredThenTaskThenToolCalls(t *testing.T) {
	t.Parallel()
	ok := [2]string{"tool_call.completed", `{"tool":"a","outcome":"success"}`}
	bad := [2]string{"tool_call.completed", `{"tool":"b","outcome":"failure","error":"x"}`}
	fixed := [2]string{"tool_call.completed", `{"tool":"b","outcome":"success"}`}
	for _, tc := range []struct {
		name, want, from string
		tr               *retrospective.Trace
	}{
		{"declared wins", "partial", "declared", trace(`{"session_id":"s","summary":"x","status":"partial"}`, ok)},
		{"task done", "success", "classified", trace(`{"session_id":"s","summary":"x"}`, bad, [2]string{"task.updated", `{"task_id":"t","status":"done"}`})},
		{"task blocked", "partial", "classified", trace(`{"session_id":"s","summary":"x"}`, [2]string{"task.updated", `{"task_id":"t","status":"blocked"}`})},
		{"other task ignored", "unknown", "classified", trace(`{"session_id":"s","summary":"x","task_id":"u"}`, [2]string{"task.updated", `{"task_id":"t","status":"done"}`})},
		{"no calls", "unknown", "classified", trace(`{"session_id":"s","summary":"x"}`)},
		{"recovered failure", "success", "classified", trace(`{"session_id":"s","summary":"x"}`, bad, fixed)},
		{"unrecovered beside a success", "partial", "classified", trace(`{"session_id":"s","summary":"x"}`, ok, bad)},
		{"only failures", "failure", "classified", trace(`{"session_id":"s","summary":"x"}`, bad)},
	} {
		got, from := retrospective.Classify(tc.tr)
		require.Equal(t, tc.want, got, tc.name)
		require.Equal(t, tc.from, from, tc.name)
	}
}

func TestAttribute_PlanningProposesAProcedureRevisionCitingTheDecision(t *testing.T) {
	t.Parallel()
	tr := trace(`{"session_id":"s","summary":"x","status":"failure"}`,
		[2]string{"tool_call.completed", `{"tool":"a","outcome":"success"}`},
		[2]string{"decision.recorded", `{"decision":"ship it before review"}`},
		[2]string{"tool_call.completed", `{"tool":"b","outcome":"success"}`})
	att := retrospective.Attribute(tr)
	require.Equal(t, retrospective.CausePlanning, att.Cause)
	require.Empty(t, att.Items)
	require.Len(t, att.Proposals, 1)
	require.Equal(t, "procedure_revision", att.Proposals[0].Kind)
	require.Equal(t, []int64{2, 3, 4}, att.Proposals[0].Evidence, "the decision, the calls after it, the outcome")
}

func TestAttribute_PartialOutcomeScalesConfidenceBelowTheFeedbackThreshold(t *testing.T) {
	t.Parallel()
	tr := trace(`{"session_id":"s","summary":"x","status":"partial"}`,
		[2]string{"checkout.surfaced", `{"items":[{"item_id":"ev:100","seqs":[100]}]}`},
		[2]string{"tool_call.completed", `{"tool":"deploy","outcome":"failure","error":"x"}`})
	tr.Cited[100] = retrospective.Event{Seq: 100, Type: "message", Content: "Deploying needs the green key."}
	att := retrospective.Attribute(tr)
	require.Equal(t, retrospective.CauseRetrieval, att.Cause)
	require.Len(t, att.Items, 1)
	require.InDelta(t, 0.45, att.Items[0].Confidence, 1e-9)
	require.Less(t, att.Items[0].Confidence, retrospective.MinFeedbackConfidence)
}
