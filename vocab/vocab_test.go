package vocab_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/vocab"
)

func TestValidate(t *testing.T) {
	cases := []struct {
		name    string
		typ     string
		content string
		data    string
		field   string // "" means valid
	}{
		{"unknown type anything goes", "my.custom", "", `{"x":[1,2]}`, ""},
		{"message ok", "message", "hello", `{"role":"user","name":"Ann"}`, ""},
		{"message without role", "message", "hello", `{}`, "data.role"},
		{"message bad role", "message", "hello", `{"role":"robot"}`, "data.role"},
		{"message role not string", "message", "hello", `{"role":5}`, "data.role"},
		{"message empty content", "message", "  ", `{"role":"user"}`, "content"},
		{"fact with object", "fact.asserted", "", `{"subject":"Alice","predicate":"works at","object":"Acme"}`, ""},
		{"fact with value", "fact.asserted", "", `{"subject":"Alice","predicate":"age","value":31,"confidence":0.9,"valid_from":"2024-01-01T00:00:00Z","valid_to":"2025-01-01T00:00:00Z"}`, ""},
		{"fact without subject", "fact.asserted", "", `{"predicate":"p","value":1}`, "data.subject"},
		{"fact blank subject", "fact.asserted", "", `{"subject":" ","predicate":"p","value":1}`, "data.subject"},
		{"fact without predicate", "fact.asserted", "", `{"subject":"s","value":1}`, "data.predicate"},
		{"fact without object or value", "fact.asserted", "", `{"subject":"s","predicate":"p"}`, "data.object"},
		{"fact null value", "fact.asserted", "", `{"subject":"s","predicate":"p","value":null}`, "data.object"},
		{"fact object and value", "fact.asserted", "", `{"subject":"s","predicate":"p","object":"o","value":1}`, "data.value"},
		{"fact object not string", "fact.asserted", "", `{"subject":"s","predicate":"p","object":{"a":1}}`, "data.object"},
		{"fact bad valid_from", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"valid_from":"yesterday"}`, "data.valid_from"},
		{"fact window backwards", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"valid_from":"2024-02-01T00:00:00Z","valid_to":"2024-01-01T00:00:00Z"}`, "data.valid_to"},
		{"fact confidence too high", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"confidence":1.5}`, "data.confidence"},
		{"fact data not object", "fact.asserted", "", `[1]`, "data"},
		{"retraction ok", "fact.retracted", "", `{"subject":"s","predicate":"p","reason":"wrong"}`, ""},
		{"retraction narrowed", "fact.retracted", "", `{"subject":"s","predicate":"p","object":"o"}`, ""},
		{"retraction without predicate", "fact.retracted", "", `{"subject":"s"}`, "data.predicate"},
		{"retraction object and value", "fact.retracted", "", `{"subject":"s","predicate":"p","object":"o","value":2}`, "data.value"},
		{"invalidation by seq", "memory.invalidated", "", `{"target_seq":3,"reason":"wrong"}`, ""},
		{"invalidation by id", "memory.invalidated", "", `{"target_id":"f123","reason":"wrong"}`, ""},
		{"invalidation without target", "memory.invalidated", "", `{"reason":"wrong"}`, "data.target_seq"},
		{"invalidation both targets", "memory.invalidated", "", `{"target_seq":3,"target_id":"x","reason":"r"}`, "data.target_id"},
		{"invalidation seq zero", "memory.invalidated", "", `{"target_seq":0,"reason":"r"}`, "data.target_seq"},
		{"invalidation seq fractional", "memory.invalidated", "", `{"target_seq":1.5,"reason":"r"}`, "data.target_seq"},
		{"invalidation without reason", "memory.invalidated", "", `{"target_seq":3}`, "data.reason"},
		{"decision ok", "decision.recorded", "", `{"decision":"use pgx","alternatives":["lib/pq"],"subject":"driver"}`, ""},
		{"decision missing", "decision.recorded", "", `{"rationale":"x"}`, "data.decision"},
		{"decision bad alternative", "decision.recorded", "", `{"decision":"d","alternatives":["a",3]}`, "data.alternatives[1]"},
		{"task ok", "task.updated", "", `{"task_id":"T-1","status":"in_progress","title":"Ship"}`, ""},
		{"task without id", "task.updated", "", `{"status":"open"}`, "data.task_id"},
		{"task bad status", "task.updated", "", `{"task_id":"T-1","status":"finished"}`, "data.status"},
		{"preference ok", "preference.stated", "", `{"topic":"editor","preference":"vim"}`, ""},
		{"preference without topic", "preference.stated", "", `{"preference":"vim"}`, "data.topic"},
		{"preference without preference", "preference.stated", "", `{"topic":"editor"}`, "data.preference"},
		{"tool ok", "tool_call.completed", "", `{"tool":"go test","outcome":"failure","error":"exit 1","duration_ms":1200}`, ""},
		{"tool without tool", "tool_call.completed", "", `{"outcome":"success"}`, "data.tool"},
		{"tool bad outcome", "tool_call.completed", "", `{"tool":"x","outcome":"maybe"}`, "data.outcome"},
		{"tool error on success", "tool_call.completed", "", `{"tool":"x","outcome":"success","error":"boom"}`, "data.error"},
		{"tool negative duration", "tool_call.completed", "", `{"tool":"x","outcome":"success","duration_ms":-1}`, "data.duration_ms"},
		{"chunk ok", "document.chunk", "héllo", `{"document_id":"d","path":"a.md","start":10,"end":16}`, ""},
		{"chunk without document", "document.chunk", "hello", `{"start":0,"end":5}`, "data.document_id"},
		{"chunk offsets past text", "document.chunk", "hello", `{"document_id":"d","start":0,"end":50}`, "data.end"},
		{"chunk end before start", "document.chunk", "hello", `{"document_id":"d","start":5,"end":5}`, "data.end"},
		{"chunk negative start", "document.chunk", "hello", `{"document_id":"d","start":-1,"end":4}`, "data.start"},
		{"chunk without end", "document.chunk", "hello", `{"document_id":"d","start":0}`, "data.end"},
		{"feedback ok", "feedback.recorded", "", `{"target_seqs":[4,5],"signal":"helpful","checkout_seq":9}`, ""},
		{"feedback empty targets", "feedback.recorded", "", `{"target_seqs":[],"signal":"helpful"}`, "data.target_seqs"},
		{"feedback bad target", "feedback.recorded", "", `{"target_seqs":[4,-2],"signal":"helpful"}`, "data.target_seqs[1]"},
		{"feedback bad signal", "feedback.recorded", "", `{"target_seqs":[4],"signal":"meh"}`, "data.signal"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := vocab.Validate(tc.typ, tc.content, json.RawMessage(tc.data))
			if tc.field == "" {
				require.NoError(t, err)
				return
			}
			var fe *vocab.FieldError
			require.ErrorAs(t, err, &fe)
			require.Equal(t, tc.field, fe.Field, fe.Message)
			require.NotEmpty(t, fe.Message)
		})
	}
}

func TestKnownAndDecode(t *testing.T) {
	require.True(t, vocab.Known("fact.asserted"))
	require.False(t, vocab.Known("fact.asserted.v2"))
	f, err := vocab.Decode[vocab.FactAsserted](json.RawMessage(`{"subject":"Alice","predicate":"age","value":{"years":31},"valid_from":"2024-01-01T00:00:00Z"}`))
	require.NoError(t, err)
	require.Equal(t, "Alice", f.Subject)
	require.JSONEq(t, `{"years":31}`, string(f.Value))
	require.Equal(t, 2024, f.ValidFrom.Year())
	require.Nil(t, f.Object)
}

func TestAppend_RejectsBadTypedDataAndAppendsNothing(t *testing.T) {
	db := testcontainers.NewDatabase(t)
	store := eventloom.NewStore(db.AppPool(t), nil, nil)
	ctx := context.Background()
	_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "v", Events: []eventloom.NewEvent{
		{Type: "message", Content: "fine", Data: json.RawMessage(`{"role":"user"}`)},
		{Type: "fact.asserted", Data: json.RawMessage(`{"predicate":"likes","value":"tea"}`)},
	}})
	require.ErrorIs(t, err, eventloom.ErrInvalid)
	var ve *eventloom.ValidationError
	require.True(t, errors.As(err, &ve))
	require.Equal(t, "events[1].data.subject", ve.Field)
	_, err = store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "v"})
	require.ErrorIs(t, err, eventloom.ErrNotFound, "nothing was appended, so the space does not exist")
}
