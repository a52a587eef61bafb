package mcp_test

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	zmcp "github.com/zaxy/zaxy/mcp"
)

// bothTransports connects a core and a full session over stdio and over streamable HTTP.
func bothTransports(t *testing.T, e *env) map[string][2]*sdk.ClientSession {
	t.Helper()
	srv := e.serveHTTP(t)
	return map[string][2]*sdk.ClientSession{
		"stdio": {connectStdio(t, e.api, zmcp.Config{}), connectStdio(t, e.api, zmcp.Config{Profile: zmcp.ProfileFull})},
		"http":  {connectHTTP(t, srv.URL+"/mcp", ""), connectHTTP(t, srv.URL+"/mcp?profile=full", "")},
	}
}

func TestTools_AppendThenCheckoutFindsTheEventBeforeProjection(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	for transport, cs := range bothTransports(t, e) {
		space := "rw-" + transport
		rec := ok(t, cs[0], "memory_append", map[string]any{
			"space": space, "type": "message", "session_id": "s1", "actor": "user",
			"content": "The staging registry times out after 30 seconds", "data": map[string]any{"role": "user"},
			"idempotency_key": "turn-1",
		})
		require.Equal(t, space, rec["space_id"])
		seq := rec["events"].([]any)[0].(map[string]any)["seq"].(float64)
		again := ok(t, cs[0], "memory_append", map[string]any{
			"space": space, "type": "message", "session_id": "s1", "actor": "user",
			"content": "The staging registry times out after 30 seconds", "data": map[string]any{"role": "user"},
			"idempotency_key": "turn-1",
		})
		require.Equal(t, true, again["replayed"], "%s: the idempotency key reaches the API", transport)

		res := call(t, cs[0], "memory_checkout", map[string]any{"space": space, "query": "registry timeout", "max_tokens": 500, "session_id": "s1"})
		require.False(t, res.IsError, text(res))
		packet := structured(t, res)
		require.Contains(t, packet["text"], "times out after 30 seconds", "%s: read-your-writes through the verbatim lane", transport)
		require.Contains(t, text(res), "times out after 30 seconds")
		require.Contains(t, text(res), "surfaced_seq", "the text tells the agent what to give memory_feedback")
		surfaced := packet["surfaced_seq"].(float64)
		require.Greater(t, surfaced, seq)

		fb := ok(t, cs[0], "memory_feedback", map[string]any{
			"space": space, "target_seqs": []any{seq}, "signal": "helpful", "checkout_seq": surfaced, "session_id": "s1",
		})
		inv := ok(t, cs[0], "memory_invalidate", map[string]any{
			"space": space, "target_seq": seq, "reason": "the timeout was raised to 60 s", "actor": "ops",
		})

		page := ok(t, cs[1], "memory_replay", map[string]any{"space": space, "after_seq": surfaced})
		events := page["events"].([]any)
		require.Len(t, events, 2)
		first, second := events[0].(map[string]any), events[1].(map[string]any)
		require.Equal(t, "feedback.recorded", first["type"])
		require.Equal(t, fb["events"].([]any)[0].(map[string]any)["seq"], first["seq"])
		require.Equal(t, map[string]any{"target_seqs": []any{seq}, "signal": "helpful", "checkout_seq": surfaced}, first["data"])
		require.Equal(t, "s1", first["session_id"])
		require.Equal(t, "memory.invalidated", second["type"])
		require.Equal(t, inv["events"].([]any)[0].(map[string]any)["seq"], second["seq"])
		require.Equal(t, map[string]any{"target_seq": seq, "reason": "the timeout was raised to 60 s"}, second["data"])
		require.Equal(t, "ops", second["actor"])

		// Pins are full-profile tools.
		pin := ok(t, cs[1], "memory_pin", map[string]any{"space": space, "target_seqs": []any{seq}, "reason": "the registry notes"})
		unpin := ok(t, cs[1], "memory_unpin", map[string]any{"space": space, "item_ids": []any{"ev:1"}})
		after := pin["events"].([]any)[0].(map[string]any)["seq"].(float64)
		page = ok(t, cs[1], "memory_replay", map[string]any{"space": space, "after_seq": after - 1})
		events = page["events"].([]any)
		require.Len(t, events, 2)
		require.Equal(t, "memory.pinned", events[0].(map[string]any)["type"])
		require.Equal(t, map[string]any{"target_seqs": []any{seq}, "reason": "the registry notes"}, events[0].(map[string]any)["data"])
		require.Equal(t, "memory.unpinned", events[1].(map[string]any)["type"])
		require.Equal(t, unpin["events"].([]any)[0].(map[string]any)["seq"], events[1].(map[string]any)["seq"])
		_, err := cs[0].CallTool(context.Background(), &sdk.CallToolParams{Name: "memory_pin",
			Arguments: map[string]any{"space": space, "target_seqs": []any{seq}}})
		require.ErrorContains(t, err, `unknown tool "memory_pin"`, "not in the core profile")

		q := ok(t, cs[0], "memory_query", map[string]any{"space": space, "query": "registry timeout", "limit": 5})
		require.NotEmpty(t, q["items"])
		cq := ok(t, cs[0], "memory_query", map[string]any{"space": space, "query": "registry", "cues": map[string]any{"phase": "debug", "repo": "infra"}})
		require.Equal(t, "debugging", cq["purpose"], "%s: the cues reach checkout", transport)
		a := call(t, cs[0], "context_assemble", map[string]any{"space": space, "query": "registry", "working_set": []any{"deploy.yaml"}})
		require.False(t, a.IsError, text(a))
		require.Contains(t, text(a), "- deploy.yaml")
	}
}

func TestTools_BadArgumentsAreToolErrorsWithTheHTTPCodes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	for transport, cs := range bothTransports(t, e) {
		sp := "bad-" + transport
		ok(t, cs[0], "memory_append", map[string]any{"space": sp, "type": "note", "content": "x"})
		for _, tc := range []struct {
			name, tool  string
			args        map[string]any
			code, field string
		}{
			{"empty query", "memory_checkout", map[string]any{"space": sp, "query": ""}, "invalid_request", "query"},
			{"no query", "memory_checkout", map[string]any{"space": sp}, "invalid_request", "query"},
			{"unknown purpose", "memory_checkout", map[string]any{"space": sp, "query": "x", "purpose": "gossip"}, "invalid_request", "purpose"},
			{"budget out of range", "memory_query", map[string]any{"space": sp, "query": "x", "max_tokens": 50}, "invalid_request", "max_tokens"},
			{"wrong type", "memory_checkout", map[string]any{"space": sp, "query": "x", "max_tokens": "lots"}, "invalid_request", "max_tokens"},
			{"bad as_of", "context_assemble", map[string]any{"space": sp, "query": "x", "as_of": "last tuesday"}, "invalid_request", "as_of"},
			{"missing space", "memory_checkout", map[string]any{"query": "x"}, "invalid_request", "space"},
			{"bad space", "memory_append", map[string]any{"space": "Not A Space", "type": "note"}, "invalid_request", "space"},
			{"space not a string", "memory_append", map[string]any{"space": 7, "type": "note"}, "invalid_request", "space"},
			{"unknown argument", "memory_checkout", map[string]any{"space": sp, "query": "x", "lanes": []any{"vector"}}, "invalid_request", "lanes"},
			{"missing type", "memory_append", map[string]any{"space": sp, "content": "x"}, "invalid_request", "type"},
			{"untyped data", "memory_append", map[string]any{"space": sp, "type": "message", "content": "x", "data": map[string]any{}}, "invalid_request", "data.role"},
			{"bad signal", "memory_feedback", map[string]any{"space": sp, "target_seqs": []any{1}, "signal": "meh"}, "invalid_request", "data.signal"},
			{"no targets", "memory_feedback", map[string]any{"space": sp, "signal": "wrong"}, "invalid_request", "data.target_seqs"},
			{"two targets", "memory_invalidate", map[string]any{"space": sp, "target_seq": 1, "target_id": "f1", "reason": "r"}, "invalid_request", "data.target_id"},
		} {
			e := toolError(t, cs[0], tc.tool, tc.args)
			require.Equal(t, tc.code, e["code"], "%s %s: %v", transport, tc.name, e)
			if tc.field != "" {
				require.Equal(t, tc.field, e["details"].(map[string]any)["field"], "%s %s: %v", transport, tc.name, e)
			}
		}
		// The first call an agent makes, on a space with no events, answers an empty packet.
		packet := ok(t, cs[0], "memory_checkout", map[string]any{"space": "nowhere", "query": "x"})
		require.Contains(t, packet, "text", "%s: %v", transport, packet)
		// Nothing crashed: the session still works, and nothing bad was appended.
		page := ok(t, cs[1], "memory_replay", map[string]any{"space": sp})
		require.Len(t, page["events"], 1)
		e := toolError(t, cs[1], "memory_replay", map[string]any{"space": sp, "limit": 0})
		require.Equal(t, "limit", e["details"].(map[string]any)["field"])
		e = toolError(t, cs[1], "memory_replay", map[string]any{"space": sp, "session_id": map[string]any{}})
		require.Equal(t, "session_id", e["details"].(map[string]any)["field"])

		// A tool outside the profile is not there (a protocol error, as for any unknown tool).
		_, err := cs[0].CallTool(context.Background(), &sdk.CallToolParams{Name: "memory_replay", Arguments: map[string]any{"space": sp}})
		require.Error(t, err)
	}
}

// TestTools_EveryFullToolReachesItsOperation calls every tool of the full profile with
// arguments its operation accepts, over streamable HTTP.
func TestTools_EveryFullToolReachesItsOperation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	cs := connectHTTP(t, e.serveHTTP(t).URL+"/mcp?profile=full", "")
	const sp = "all"
	ok(t, cs, "memory_append", map[string]any{"space": sp, "type": "fact.asserted", "session_id": "run-1",
		"data": map[string]any{"subject": "Alice", "predicate": "works at", "object": "Acme"}})
	ok(t, cs, "memory_append", map[string]any{"space": sp, "type": "task.updated", "session_id": "run-1",
		"data": map[string]any{"task_id": "T1", "status": "open", "title": "move deploys"}})
	e.project(t, sp)

	facts := ok(t, cs, "memory_facts", map[string]any{"space": sp, "entity": "alice", "limit": 10, "include_inferred": true})
	require.Len(t, facts["facts"], 1)
	at := ok(t, cs, "memory_facts", map[string]any{"space": sp, "at": "2000-01-01T00:00:00Z"})
	require.Equal(t, "at", at["view"])
	require.Empty(t, at["facts"])
	ent := ok(t, cs, "memory_entity", map[string]any{"space": sp, "entity": "Alice"})
	require.Equal(t, "Alice", ent["entity"].(map[string]any)["name"])
	require.EqualValues(t, 0, ok(t, cs, "memory_projection", map[string]any{"space": sp})["lag"])
	require.Equal(t, true, ok(t, cs, "memory_verify", map[string]any{"space": sp, "method": "sql"})["ok"])
	require.NotEmpty(t, ok(t, cs, "memory_index", map[string]any{"space": sp, "max_tokens": 500}))
	require.NotEmpty(t, ok(t, cs, "memory_timeline", map[string]any{"space": sp, "session_id": "run-1", "max_tokens": 300})["entries"])
	require.Equal(t, "event", ok(t, cs, "memory_item", map[string]any{"space": sp, "id": "ev:1"})["kind"])
	require.Equal(t, "session", ok(t, cs, "memory_item", map[string]any{"space": sp, "id": "session:run-1"})["kind"])
	docs := ok(t, cs, "memory_ingest_documents", map[string]any{"space": sp, "documents": []any{
		map[string]any{"path": "notes/deploy.md", "text": "# Deploys\n\nDeploys go through the blue cluster."}}})
	require.Equal(t, true, docs["documents"].([]any)[0].(map[string]any)["appended"])
	tr := ok(t, cs, "memory_ingest_transcript", map[string]any{"space": sp, "session_id": "chat-1", "turns": []any{
		map[string]any{"role": "user", "content": "Where do deploys go?"}, map[string]any{"role": "assistant", "content": "The blue cluster."}}})
	require.Len(t, tr["events"], 2)
	after := call(t, cs, "context_after_turn", map[string]any{"space": sp, "session_id": "run-1", "max_tokens": 600,
		"events": []any{map[string]any{"type": "message", "content": "Deploys moved to the green cluster", "data": map[string]any{"role": "user"}}}})
	require.False(t, after.IsError, text(after))
	require.Contains(t, text(after), "appended seq")
	hand := ok(t, cs, "memory_handoff", map[string]any{"space": sp, "session_id": "run-1", "tail_events": 5})
	require.Equal(t, "run-1", hand["session_id"])
	clean := ok(t, cs, "subagent_cleanup", map[string]any{"space": sp, "subagent_id": "researcher/1", "outcome": "success", "summary": "found it"})
	require.Equal(t, "subagent:researcher/1", clean["handoff"].(map[string]any)["session_id"])
	rec := ok(t, cs, "session_resume", map[string]any{"space": sp, "session_id": "run-1"})
	require.NotZero(t, rec["resumed_seq"])
	require.NotEmpty(t, rec["open_tasks"])

	// The memory actions reach theirs.
	sim := ok(t, cs, "memory_simulate_forward", map[string]any{"space": sp, "steps": []any{"git pull"}})
	require.Len(t, sim["evidence_needs"], 1)
	require.Equal(t, "run-1", ok(t, cs, "memory_reflect_backward", map[string]any{"space": sp, "session_id": "run-1"})["session_id"])
	require.NotNil(t, ok(t, cs, "memory_procedure_prior", map[string]any{"space": sp, "tools": []any{"git pull"}})["priors"])
	require.NotNil(t, ok(t, cs, "memory_failure_prior", map[string]any{"space": sp, "goal": "deploy fails"})["priors"])
	require.NotNil(t, ok(t, cs, "memory_causal_neighborhood", map[string]any{"space": sp, "tool": "git pull"})["links"])
	require.Equal(t, "proposal.created", ok(t, cs, "memory_propose_update", map[string]any{"space": sp, "kind": "consolidation", "evidence": []any{1}})["type"])
	ku := ok(t, cs, "memory_record_known_unknown", map[string]any{"space": sp, "question": "Which cluster is the fallback?", "idempotency_key": "ku-1"})
	require.Equal(t, "memory.known_unknown", ku["type"])
	require.Equal(t, "feedback.recorded", ok(t, cs, "memory_score_action", map[string]any{"space": sp, "action": "record_known_unknown",
		"action_seq": ku["event"].(map[string]any)["seq"], "signal": "helpful"})["type"])
	e3 := toolError(t, cs, "memory_revise_confidence", map[string]any{"space": sp, "artifact_id": "00", "confidence": 0.5, "reason": "r"})
	require.Equal(t, "artifact_not_found", e3["code"])
	woven := call(t, cs, "weave_memory", map[string]any{"space": sp, "goal": "move deploys", "reasoning_phase": "plan"})
	require.False(t, woven.IsError, text(woven))
	require.Contains(t, text(woven), "Prohibited use: ")
	require.NotZero(t, structured(t, woven)["surfaced_seq"])
	pro := call(t, cs, "memory_prospective", map[string]any{"space": sp, "goal": "move deploys", "no_record": true})
	require.False(t, pro.IsError, text(pro))
	require.Contains(t, text(pro), "## Missing evidence")

	// Cypher answers, or says AGE is not installed: either way it reached its operation.
	res := call(t, cs, "memory_cypher", map[string]any{"space": sp, "query": "MATCH (a:Entity) RETURN a.name", "columns": 1, "timeout_ms": 5000})
	if res.IsError {
		require.Equal(t, "age_unavailable", structured(t, res)["error"].(map[string]any)["code"], text(res))
	} else {
		require.NotNil(t, structured(t, res)["rows"])
	}
	e2 := toolError(t, cs, "memory_entity", map[string]any{"space": sp, "entity": "Nobody"})
	require.Equal(t, "entity_not_found", e2["code"])
	e2 = toolError(t, cs, "memory_item", map[string]any{"space": sp, "id": ""})
	require.Equal(t, "id", e2["details"].(map[string]any)["field"])
}
