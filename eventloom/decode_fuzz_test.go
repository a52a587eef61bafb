package eventloom_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/strictjson"
)

// decodeSeeds are append bodies that once slipped through or broke a decoder: duplicate keys
// at every depth, invalid UTF-8 in content and data, lone surrogates, NUL, numbers Postgres
// cannot hold, and ordinary single and batch bodies.
var decodeSeeds = []string{
	`{"type":"note","content":"hello"}`,
	`{"events":[{"type":"note"},{"type":"message","actor":"user","content":"x","data":{"a":[1,2,{"b":null}]},"cues":{"task":"t"}}]}`,
	`{"type":"note","occurred_at":"2026-01-02T15:04:05.123+02:00"}`,
	`{"type":"note","type":"fact.asserted"}`,
	`{"events":[{"type":"note"}],"events":[]}`,
	`{"type":"note","data":{"k":1,"k":2}}`,
	`{"type":"note","data":{"a":{"b":{"c":1,"\u0063":2}}}}`,
	"{\"type\":\"note\",\"content\":\"a\xffb\"}",
	"{\"type\":\"note\",\"data\":{\"s\":\"\xc3\x28\"}}",
	"{\"type\":\"note\",\"data\":{\"k\xfe\":1}}",
	`{"type":"note","content":"\ud800"}`,
	`{"type":"note","content":"\ud83d\ude00"}`,
	`{"type":"note","data":{"s":"\udc00"}}`,
	`{"type":"note","content":"a\u0000b"}`,
	`{"type":"note","data":{"n":1e1000000}}`,
	`{"type":"note","cues":{"n":1e-16384}}`,
	`{"type":"note","data":{"n":1e131071,"m":-0.5e-10}}`,
	`{"type":"note","data":{"html":"<b>&amp;</b>"}}`,
	`{"type":"note"} {}`,
	`[{"type":"note"}]`,
	`{"type":"note","data":null,"cues":null,"content":null}`,
}

// FuzzDecodeAppendBody checks the append decoder's invariants on any input: it never panics;
// it is deterministic; an accepted body yields events whose text is valid UTF-8 and whose data
// and cues pass the strict JSON rules (so no duplicate key, replaced byte or unstorable number
// reached an event); and re-encoding the accepted events and decoding them again gives the same
// events.
func FuzzDecodeAppendBody(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		events, err := eventloom.DecodeAppendBody(body)
		again, err2 := eventloom.DecodeAppendBody(body)
		require.Equal(t, err == nil, err2 == nil, "decoding is not deterministic")
		if err != nil {
			var ve *eventloom.ValidationError
			require.True(t, errors.As(err, &ve), "error %v is not a ValidationError", err)
			require.Equal(t, err.Error(), err2.Error())
			return
		}
		require.True(t, reflect.DeepEqual(events, again), "decoding is not deterministic")
		for _, ev := range events {
			for _, s := range []string{ev.Type, ev.SessionID, ev.Actor, ev.Content} {
				require.True(t, utf8.ValidString(s), "accepted invalid UTF-8: %q", s)
				require.NotContains(t, s, "\x00")
			}
			for _, raw := range []json.RawMessage{ev.Data, ev.Cues} {
				if raw != nil {
					require.NoError(t, strictjson.Check(raw), "accepted %s", raw)
				}
			}
		}
		reencoded, err := json.Marshal(map[string]any{"events": events})
		require.NoError(t, err)
		round, err := eventloom.DecodeAppendBody(reencoded)
		require.NoError(t, err, "re-encoded body %s", reencoded)
		require.Len(t, round, len(events))
		for i := range events {
			requireSameEvent(t, events[i], round[i])
		}
	})
}

func requireSameEvent(t *testing.T, want, got eventloom.NewEvent) {
	t.Helper()
	require.Equal(t, want.Type, got.Type)
	require.Equal(t, want.SessionID, got.SessionID)
	require.Equal(t, want.Actor, got.Actor)
	require.Equal(t, want.Content, got.Content)
	require.Equal(t, want.OccurredAt == nil, got.OccurredAt == nil)
	if want.OccurredAt != nil {
		require.True(t, want.OccurredAt.Equal(*got.OccurredAt))
	}
	require.Equal(t, jsonValue(t, want.Data), jsonValue(t, got.Data))
	require.Equal(t, jsonValue(t, want.Cues), jsonValue(t, got.Cues))
}

// jsonValue decodes raw with numbers kept as written, so two encodings of one value compare
// equal and a number is never rounded through float64.
func jsonValue(t *testing.T, raw json.RawMessage) any {
	if raw == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v))
	return v
}

func TestDecodeAppendBody_StrictRulesNameTheField(t *testing.T) {
	t.Parallel()
	cases := []struct{ body, field, msg string }{
		{`{"type":"note","type":"x"}`, "type", "duplicate key"},
		{`{"events":[{"type":"note"}],"events":[]}`, "events", "duplicate key"},
		{`{"events":[{"type":"note"},{"type":"note","data":{"k":1,"k":2}}]}`, "events[1].data.k", "duplicate key"},
		{"{\"type\":\"note\",\"content\":\"a\xffb\"}", "content", "valid UTF-8"},
		{"{\"type\":\"note\",\"data\":{\"s\":\"\xc3\x28\"}}", "data.s", "valid UTF-8"},
		{`{"type":"note","content":"\ud800"}`, "content", "surrogate"},
		{`{"events":[{"type":"note","cues":{"x":"\udc00"}}]}`, "events[0].cues.x", "surrogate"},
		{`{"type":"note","content":"a\u0000b"}`, "content", `\u0000`},
		{`{"type":"note","data":{"n":1e1000000}}`, "data.n", "Postgres cannot store"},
		{`{"type":"note","cues":{"n":[1e-16384]}}`, "cues.n[0]", "Postgres cannot store"},
	}
	for _, tc := range cases {
		_, err := eventloom.DecodeAppendBody([]byte(tc.body))
		var ve *eventloom.ValidationError
		require.True(t, errors.As(err, &ve), "%s: %v", tc.body, err)
		require.Equal(t, tc.field, ve.Field, tc.body)
		require.Contains(t, ve.Message, tc.msg, tc.body)
	}
	events, err := eventloom.DecodeAppendBody([]byte(`{"type":"note","content":"\ud83d\ude00","data":{"n":1e131071}}`))
	require.NoError(t, err)
	require.Equal(t, "😀", events[0].Content)
}

func TestDecodeEvent_StrictRulesKeepTheLinePrefix(t *testing.T) {
	t.Parallel()
	_, err := eventloom.DecodeEvent([]byte(`{"type":"note","data":{"a":1,"a":1}}`), "line 7: ")
	var ve *eventloom.ValidationError
	require.True(t, errors.As(err, &ve))
	require.Equal(t, "line 7: data.a", ve.Field)
}
