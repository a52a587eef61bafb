package mcp

import (
	"reflect"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/vocab"
)

// walk calls f on every property schema of s, at any depth, with its path.
func walk(s *jsonschema.Schema, path string, f func(path string, p *jsonschema.Schema)) {
	for name, p := range s.Properties {
		f(path+name, p)
		walk(p, path+name+".", f)
		if p.Items != nil {
			walk(p.Items, path+name+"[].", f)
		}
	}
}

func TestSchemas_AreInferredFromTheAPIsRequestTypes(t *testing.T) {
	all, err := schemas()
	require.NoError(t, err)
	require.Len(t, all, len(tools))
	props := func(v reflect.Type) []string {
		s, err := jsonschema.ForType(v, &jsonschema.ForOptions{TypeSchemas: typeSchemas})
		require.NoError(t, err)
		return properties(s)
	}
	plus := func(names []string, extra ...string) []string {
		out := append(slices.Clone(names), extra...)
		slices.Sort(out)
		return out
	}
	sorted := func(s *jsonschema.Schema) []string {
		names := properties(s)
		slices.Sort(names)
		return names
	}
	for name, want := range map[string][]string{
		"memory_checkout":          plus(props(reflect.TypeFor[api.CheckoutBody]()), "space"),
		"memory_query":             plus(props(reflect.TypeFor[api.CheckoutBody]()), "space"),
		"context_assemble":         plus(props(reflect.TypeFor[api.AssembleBody]()), "space"),
		"context_after_turn":       plus(props(reflect.TypeFor[api.AfterTurnBody]()), "space", "idempotency_key"),
		"memory_handoff":           plus(props(reflect.TypeFor[api.HandoffBody]()), "space"),
		"subagent_cleanup":         plus(props(reflect.TypeFor[api.CleanupBody]()), "space", "subagent_id"),
		"memory_append":            plus(props(reflect.TypeFor[eventloom.NewEvent]()), "space", "idempotency_key"),
		"memory_replay":            plus(props(reflect.TypeFor[api.ReplayQuery]()), "space"),
		"memory_verify":            plus(props(reflect.TypeFor[api.VerifyQuery]()), "space"),
		"memory_facts":             plus(props(reflect.TypeFor[api.FactsQuery]()), "space"),
		"memory_index":             plus(props(reflect.TypeFor[api.IndexQuery]()), "space"),
		"memory_timeline":          plus(props(reflect.TypeFor[api.TimelineQuery]()), "space"),
		"memory_cypher":            plus(props(reflect.TypeFor[api.CypherBody]()), "space"),
		"weave_memory":             plus(props(reflect.TypeFor[checkout.StepRequest]()), "space"),
		"memory_prospective":       plus(props(reflect.TypeFor[checkout.StepRequest]()), "space"),
		"memory_ingest_documents":  plus(props(reflect.TypeFor[ingest.DocumentsParams]()), "space"),
		"memory_ingest_transcript": plus(props(reflect.TypeFor[ingest.TranscriptParams]()), "space"),
		"memory_feedback":          plus(props(reflect.TypeFor[vocab.FeedbackRecorded]()), "space", "session_id", "actor", "content", "idempotency_key"),
		"memory_invalidate":        plus(props(reflect.TypeFor[vocab.MemoryInvalidated]()), "space", "session_id", "actor", "content", "idempotency_key"),
		"memory_pin":               plus(props(reflect.TypeFor[vocab.MemoryPinned]()), "space", "session_id", "actor", "content", "idempotency_key"),
		"memory_unpin":             plus(props(reflect.TypeFor[vocab.MemoryUnpinned]()), "space", "session_id", "actor", "content", "idempotency_key"),
	} {
		require.Equal(t, want, sorted(all[name]), name)
	}
	require.Contains(t, properties(all["memory_checkout"]), "query", "checkout.Request's fields come through the embedding")

	for _, tl := range tools {
		s := all[tl.name]
		require.Equal(t, "object", s.Type, tl.name)
		if tl.method != "" {
			require.Equal(t, "space", properties(s)[0], "%s: space comes first", tl.name)
			require.Contains(t, s.Required, "space", tl.name)
		}
		for param, arg := range tl.pathArgs {
			require.Contains(t, tl.route, "{"+param+"}", tl.name)
			require.Contains(t, s.Required, arg, tl.name)
		}
		walk(s, "", func(path string, p *jsonschema.Schema) {
			require.NotEmpty(t, p.Description, "%s: %s has no description", tl.name, path)
			require.NotEmpty(t, p.Type, "%s: %s has no single type", tl.name, path)
			require.Empty(t, p.Types, "%s: %s", tl.name, path)
		})
	}

	ev := all["memory_append"].Properties
	require.Equal(t, "object", ev["data"].Type, "a json.RawMessage is an object, not bytes")
	require.Equal(t, "object", ev["cues"].Type)
	require.Equal(t, "date-time", ev["occurred_at"].Format)
	require.Equal(t, "date-time", all["memory_checkout"].Properties["as_of"].Format)
	require.Equal(t, "date-time", all["memory_facts"].Properties["at"].Format)
	after := all["context_after_turn"].Properties["events"].Items
	require.Equal(t, []string{"type"}, after.Required, "after-turn's events are event objects")
	require.Equal(t, "object", after.Properties["data"].Type)
	require.Len(t, all["memory_checkout"].Properties["purpose"].Enum, 7)
	require.Len(t, all["memory_feedback"].Properties["signal"].Enum, len(vocab.FeedbackSignal))
	require.NotEmpty(t, all["memory_query"].Properties["disable_lanes"].Items.Enum)
	cues := all["memory_checkout"].Properties["cues"]
	require.Equal(t, "object", cues.Type, "checkout's cues are an object")
	require.Equal(t, "string", cues.AdditionalProperties.Type, "of strings")
}

func TestTools_AreWellFormed(t *testing.T) {
	names := map[string]bool{}
	core := 0
	for _, tl := range tools {
		require.False(t, names[tl.name], "duplicate tool %s", tl.name)
		names[tl.name] = true
		require.NotEmpty(t, tl.title, tl.name)
		require.NotEmpty(t, tl.description, tl.name)
		if tl.core {
			core++
		}
		if tl.eventType != "" {
			require.Equal(t, "/events", tl.route, tl.name)
			require.NotNil(t, tl.dataType, tl.name)
		}
	}
	require.LessOrEqual(t, core, maxCoreTools)
	require.Equal(t, "memory_checkout", tools[0].name, "checkout is listed first")
}
