package disclosure

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/validation"
)

func TestEstimateTokens_IsCeilOfCharactersOverFour(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abcd", 1},
		{"abcde", 2},
		{strings.Repeat("x", 400), 100},
		{"héllo wörld", 3}, // 11 characters, not 13 bytes
		{"日本語のテキスト", 2},    // 8 characters
	} {
		require.Equal(t, tc.want, EstimateTokens(tc.in), "%q", tc.in)
	}
}

func TestSummarize_TypedEventsGiveTheirGist(t *testing.T) {
	for _, tc := range []struct {
		typ, actor, content, data, want string
	}{
		{"message", "ann", "Alice moved to Oslo.\nSecond line.", `{"role":"user","name":"Ann"}`, "Ann: Alice moved to Oslo."},
		{"message", "ann", "\n\n  hi  there \nmore", `{"role":"user"}`, "user: hi there"},
		{"message", "", "x", `{}`, "message: x"},
		{"decision.recorded", "", "We compared drivers.", `{"decision":"Use pgx v5","subject":"postgres driver"}`, "decision on postgres driver: Use pgx v5"},
		{"decision.recorded", "", "", `{"decision":"Ship it"}`, "decision: Ship it"},
		{"task.updated", "", "Blocked on staging.", `{"task_id":"PG-117","status":"blocked","title":"Upgrade"}`, "task PG-117 blocked: Upgrade"},
		{"task.updated", "", "Blocked on staging.", `{"task_id":"PG-117","status":"blocked"}`, "task PG-117 blocked: Blocked on staging."},
		{"tool_call.completed", "", "go test failed", `{"tool":"go test","outcome":"failure","error":"boom\nstack"}`, "tool go test failure: boom"},
		{"tool_call.completed", "", "", `{"tool":"ls","outcome":"success"}`, "tool ls success"},
		{"fact.asserted", "", "", `{"subject":"Alice","predicate":"works at","object":"Acme"}`, "fact: Alice works at Acme"},
		{"fact.asserted", "", "", `{"subject":"Alice","predicate":"desk","value":{"floor":3}}`, `fact: Alice desk {"floor":3}`},
		{"fact.retracted", "", "", `{"subject":"Alice","predicate":"works at"}`, "retracted: Alice works at"},
		{"memory.invalidated", "", "", `{"target_seq":17,"reason":"wrong person"}`, "invalidated #17: wrong person"},
		{"memory.invalidated", "", "", `{"target_id":"f00","reason":"no"}`, "invalidated f00: no"},
		{"preference.stated", "ann", "", `{"topic":"code","preference":"SQL"}`, "ann prefers code: SQL"},
		{"document.chunk", "", "## Rollback\nRun it", `{"document_id":"d","path":"docs/ops.md","chunk_index":3}`, "document docs/ops.md chunk 3: ## Rollback"},
		{"feedback.recorded", "", "", `{"target_seqs":[17,23],"signal":"outdated","comment":"left"}`, "feedback outdated on #17,#23: left"},
		{"note", "", "hello\nworld", `{}`, "note: hello"},
		{"note", "", "", `{}`, "note"},
		{"decision.recorded", "", "old text", `not json`, "decision: old text"},
	} {
		require.Equal(t, tc.want, summarize(tc.typ, tc.actor, tc.content, []byte(tc.data)), "%s %s", tc.typ, tc.data)
	}
	long := summarize("note", "", strings.Repeat("word ", 100), []byte(`{}`))
	require.Equal(t, summaryRunes, len([]rune(long)))
	require.True(t, strings.HasSuffix(long, "…"))
}

func TestParseRef_AcceptsKnownFormatsAndNamesTheField(t *testing.T) {
	good := []struct{ in, kind, canonical string }{
		{"ev:42", KindEvent, "ev:42"},
		{"ev:007", KindEvent, "ev:7"},
		{"fact:f0123456789abcdef0123", KindFact, "fact:f0123456789abcdef0123"},
		{"f0123456789abcdef0123", KindFact, "fact:f0123456789abcdef0123"},
		{"e0123456789abcdef0123", KindEntity, "e0123456789abcdef0123"},
		{"entity:e0123456789abcdef0123", KindEntity, "e0123456789abcdef0123"},
		{"session:run-42", KindSession, "session:run-42"},
		{"type:tool_call.completed", KindEventType, "type:tool_call.completed"},
		{"predicate:Works  At", KindPredicate, "predicate:works at"},
	}
	for _, tc := range good {
		r, err := parseRef(tc.in)
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.kind, r.kind, tc.in)
		require.Equal(t, tc.canonical, r.canonical(), tc.in)
	}
	for _, in := range []string{"", "42", "ev:", "ev:0", "ev:-1", "ev:+3", "ev:x", "fact:", "fact:e0123456789", "fact:F0123456789",
		"Alice", "entity:f0123456789abc", "session:", "type:Bad Type", "predicate:  ", "blob:1", "e012"} {
		_, err := parseRef(in)
		var ve *validation.Error
		require.True(t, errors.As(err, &ve), "%q: %v", in, err)
		require.Equal(t, "id", ve.Field, in)
	}
}
