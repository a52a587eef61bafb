package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// hookFixture is the payload testdata/hooks/<name>.json, as Claude Code writes it on a hook's
// stdin.
func hookFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "hooks", name+".json"))
	require.NoError(t, err)
	return string(b)
}

// spaceEvents are the events of space, read through the server.
func spaceEvents(t *testing.T, api *client.Client, space string) []eventloomwire.Event {
	t.Helper()
	var out []eventloomwire.Event
	for e, err := range api.Events(t.Context(), space, nil) {
		require.NoError(t, err)
		out = append(out, e)
	}
	return out
}

// ofType are the events of evs of type typ.
func ofType(evs []eventloomwire.Event, typ string) []eventloomwire.Event {
	var out []eventloomwire.Event
	for _, e := range evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// TestHook_ClaudeCodePayloadsDriveTheLifecycle feeds Claude Code's documented hook payloads
// (testdata/hooks) through zaxy hook against a live server: Stop records the transcript's last
// turn once (a repeat appends nothing), PreCompact records the handoff with its trigger,
// SessionStart after a compaction or a resume prints the recovery packet (open task, failed
// tool call and a recorded known unknown, cited) as plain text or Claude Code's JSON and
// appends session.resumed, SessionStart at startup prints nothing, and SubagentStop cleans up
// the subagent with its last words as the summary.
func TestHook_ClaudeCodePayloadsDriveTheLifecycle(t *testing.T) {
	t.Parallel()
	srv := startLiveServer(t)
	writer := srv.token(t, "shop", "write")
	zx := srv.cli(writer, "ZAXY_SPACE", "shop")
	api, err := client.New(srv.url, client.WithToken(srv.token(t, "*", "admin")))
	require.NoError(t, err)
	ctx := t.Context()

	// Stop: the last turn of the transcript, not the one before it nor the subagent's note.
	code, out, errOut := zx.run(t, hookFixture(t, "stop"), "hook", "stop")
	require.Equal(t, 0, code, errOut)
	require.Empty(t, out)
	require.Contains(t, errOut, "recorded the turn of session sess-1: 4 events")
	evs := spaceEvents(t, api, "shop")
	require.Len(t, evs, 4)
	var texts []string
	for _, e := range evs {
		require.Equal(t, "sess-1", e.SessionID)
		texts = append(texts, e.Type+": "+e.Content)
	}
	require.Equal(t, []string{
		"message: Deploy the canary to eu-west-4.",
		"message: I'll run the deploy target.",
		"tool_call.completed: ",
		"message: The image push timed out; I need to know which registry the canary uses.",
	}, texts)
	var call struct{ Tool, Outcome, Error, Arguments string }
	require.NoError(t, json.Unmarshal(evs[2].Data, &call))
	require.Equal(t, "Bash", call.Tool)
	require.Equal(t, "failure", call.Outcome)
	require.Equal(t, "error: context deadline exceeded pushing image", call.Error)
	require.Contains(t, call.Arguments, "make deploy REGION=eu-west-4")

	code, _, errOut = zx.run(t, hookFixture(t, "stop"), "hook", "stop")
	require.Equal(t, 0, code, errOut)
	require.Len(t, spaceEvents(t, api, "shop"), 4, "a repeated Stop for the same turn appends nothing")

	// What the agent recorded meanwhile: an open task and a known unknown.
	zx.ok(t, "", "append", "--space", "shop", "--type", "task.updated", "--session", "sess-1", "--data", `{"task_id":"T-7","status":"in_progress","title":"canary deploy"}`)
	_, err = api.RecordKnownUnknown(ctx, "shop", &client.KnownUnknownRequest{Question: "Which registry holds the canary images?",
		Context: "deploying the canary", SessionID: "sess-1"})
	require.NoError(t, err)

	// PreCompact: the handoff recorded, with the compaction's trigger.
	code, out, errOut = zx.run(t, hookFixture(t, "pre-compact"), "hook", "pre-compact")
	require.Equal(t, 0, code, errOut)
	require.Empty(t, out)
	require.Contains(t, errOut, "recorded the handoff of session sess-1 before a auto compaction")
	compacting := ofType(spaceEvents(t, api, "shop"), sessionCompactingType)
	require.Len(t, compacting, 1)
	var handoff struct {
		Trigger       string `json:"trigger"`
		Summary       string `json:"summary"`
		OpenTasks     int    `json:"open_tasks"`
		KnownUnknowns int    `json:"known_unknowns"`
		HeadSeq       int64  `json:"head_seq"`
	}
	require.NoError(t, json.Unmarshal(compacting[0].Data, &handoff))
	require.Equal(t, "auto", handoff.Trigger)
	require.Contains(t, handoff.Summary, "Session sess-1")
	require.Equal(t, 1, handoff.OpenTasks)
	require.Equal(t, 2, handoff.KnownUnknowns, "the recorded known unknown and the failed tool call")
	require.Equal(t, compacting[0].Seq-1, handoff.HeadSeq)

	// SessionStart after the compaction: the recovery packet on stdout, for Claude Code to inject.
	code, out, errOut = zx.run(t, hookFixture(t, "session-start-compact"), "hook", "session-start")
	require.Equal(t, 0, code, errOut)
	require.True(t, strings.HasPrefix(out, "# Zaxy memory: where session sess-1 stands (space shop, after compact)\n"), out)
	require.Contains(t, out, "## Open tasks\n- task T-7 is in_progress: canary deploy (seq ")
	require.Contains(t, out, "## Known unknowns\n- not known: Which registry holds the canary images? (came up in: deploying the canary) (seq ")
	require.Contains(t, out, "- Bash failed: error: context deadline exceeded pushing image (seq ")
	resumed := ofType(spaceEvents(t, api, "shop"), "session.resumed")
	require.Len(t, resumed, 1)
	require.Equal(t, "sess-1", resumed[0].SessionID)

	// After a resume, in Claude Code's JSON form.
	code, out, errOut = zx.run(t, hookFixture(t, "session-start-resume"), "hook", "session-start", "--json")
	require.Equal(t, 0, code, errOut)
	var injected struct {
		HookSpecificOutput struct{ HookEventName, AdditionalContext string } `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &injected), out)
	require.Equal(t, "SessionStart", injected.HookSpecificOutput.HookEventName)
	require.Contains(t, injected.HookSpecificOutput.AdditionalContext, "not known: Which registry holds the canary images?")

	// At startup and after /clear there is nothing to recover: no output, nothing appended.
	before := len(spaceEvents(t, api, "shop"))
	for _, f := range []string{"session-start-startup", "session-start-clear"} {
		code, out, errOut = zx.run(t, hookFixture(t, f), "hook", "session-start")
		require.Equal(t, 0, code, errOut)
		require.Empty(t, out, f)
	}
	require.Len(t, spaceEvents(t, api, "shop"), before)

	// SubagentStop: the subagent cleaned up, its last words as the summary.
	code, _, errOut = zx.run(t, hookFixture(t, "subagent-stop"), "hook", "subagent-stop")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, errOut, "cleaned up subagent scout")
	cleaned := ofType(spaceEvents(t, api, "shop"), "subagent.cleaned_up")
	require.Len(t, cleaned, 1)
	require.Equal(t, "subagent:scout", cleaned[0].SessionID)
	require.Equal(t, "Canary images go to registry.eu-west-4.example.com; the mirror is read-only.", cleaned[0].Content)
}

// TestHook_NeverBlocksTheHarness: whatever goes wrong (no server, a server that cannot be
// reached, a token without the rights, no space, a payload that is not JSON or is another
// event's), zaxy hook exits 0 with one line on stderr and nothing on stdout; only a usage
// error exits 2.
func TestHook_NeverBlocksTheHarness(t *testing.T) {
	t.Parallel()
	srv := startLiveServer(t)
	reader := srv.token(t, "shop", "read")
	// A server that never answers: the hook gives up at --timeout.
	hang := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hang.Close)
	cases := []struct {
		name, stdin, want string
		env               map[string]string
		args              []string
	}{
		{"no server", hookFixture(t, "stop"), "no server: set ZAXY_URL", map[string]string{"ZAXY_SPACE": "shop"}, nil},
		{"unreachable", hookFixture(t, "session-start-compact"), "cannot reach the server at http://127.0.0.1:1",
			map[string]string{"ZAXY_URL": "http://127.0.0.1:1", "ZAXY_SPACE": "shop"}, nil},
		{"read-only token", hookFixture(t, "session-start-compact"), "HTTP 403",
			map[string]string{"ZAXY_URL": srv.url, "ZAXY_TOKEN": reader, "ZAXY_SPACE": "shop"}, nil},
		{"server that never answers", hookFixture(t, "session-start-compact"), "context deadline exceeded",
			map[string]string{"ZAXY_URL": hang.URL, "ZAXY_SPACE": "shop"}, []string{"hook", "session-start", "--timeout", "300ms"}},
		{"no space", hookFixture(t, "stop"), "no space: set ZAXY_SPACE", map[string]string{"ZAXY_URL": srv.url}, nil},
		{"not JSON", "hello", "not the hook's JSON", map[string]string{"ZAXY_URL": srv.url, "ZAXY_SPACE": "shop"}, nil},
		{"another event's payload", hookFixture(t, "stop"), "the payload is for Stop, not PreCompact",
			map[string]string{"ZAXY_URL": srv.url, "ZAXY_SPACE": "shop"}, []string{"hook", "pre-compact"}},
		{"missing transcript", `{"session_id":"s","transcript_path":"/nonexistent/t.jsonl","hook_event_name":"Stop"}`, "read transcript",
			map[string]string{"ZAXY_URL": srv.url, "ZAXY_TOKEN": reader, "ZAXY_SPACE": "shop"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if args == nil {
				args = []string{"hook", "stop"}
				if strings.Contains(tc.stdin, "SessionStart") {
					args = []string{"hook", "session-start"}
				}
			}
			c := &cli{env: tc.env}
			code, out, errOut := c.run(t, tc.stdin, args...)
			require.Equal(t, 0, code, errOut)
			require.Empty(t, out)
			require.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
			require.Contains(t, errOut, "not done (the harness goes on)")
			require.Contains(t, errOut, tc.want)
		})
	}
	c := &cli{env: map[string]string{"ZAXY_URL": srv.url, "ZAXY_SPACE": "shop"}}
	code, _, errOut := c.run(t, "{}", "hook", "post-tool-use")
	require.Equal(t, 2, code, "an unknown event is a usage error")
	require.Contains(t, errOut, `unknown event "post-tool-use"`)
}

// TestHook_GenericFormRecordsTheTurnsEvents: a harness with no Claude Code transcript sends
// the turn's events in the payload; they are recorded once.
func TestHook_GenericFormRecordsTheTurnsEvents(t *testing.T) {
	t.Parallel()
	srv := startLiveServer(t)
	zx := srv.cli(srv.token(t, "shop", "write"), "ZAXY_SPACE", "shop")
	payload := `{"session_id":"run-42","hook_event_name":"Stop","events":[
		{"type":"message","content":"Rotate the API key.","data":{"role":"user"}},
		{"type":"decision.recorded","data":{"decision":"rotate keys monthly"}}]}`
	for range 2 {
		code, _, errOut := zx.run(t, payload, "hook", "stop")
		require.Equal(t, 0, code, errOut)
	}
	out := zx.ok(t, "", "replay", "--space", "shop")
	require.Equal(t, 2, strings.Count(out, "\n"), "recorded once: %s", out)
	require.Contains(t, out, `"session_id":"run-42"`)
}

// TestHookDoctor_ChecksAClaudeCodeConfiguration: the shipped settings with an MCP entry and a
// token pass; a project without the Stop hook, with SessionStart only on startup, with no
// MCP server and no token fails naming each.
func TestHookDoctor_ChecksAClaudeCodeConfiguration(t *testing.T) {
	t.Parallel()
	settings, err := os.ReadFile("../../docs/hooks/claude-code-settings.json")
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".claude"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), settings, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers":{"zaxy":{"command":"zaxy","args":["mcp","--profile","compact"]}}}`), 0o644))
	c := &cli{env: map[string]string{"ZAXY_TOKEN": "zx_test"}}
	code, out, errOut := c.run(t, "", "hook", "doctor", dir)
	require.Equal(t, 0, code, out+errOut)
	require.Contains(t, out, `OK   mcp server: "zaxy": stdio, profile compact`)
	require.Contains(t, out, "OK   hook SessionStart: zaxy hook session-start")
	require.Contains(t, out, "OK   ZAXY_TOKEN: set in the environment")
	require.Contains(t, out, "OK   ZAXY_SPACE: set in the settings' env")

	var cfg map[string]any
	require.NoError(t, json.Unmarshal(settings, &cfg))
	hooks := cfg["hooks"].(map[string]any)
	delete(hooks, "Stop")
	hooks["SessionStart"] = []any{map[string]any{"matcher": "startup", "hooks": []any{map[string]any{"type": "command", "command": "zaxy hook session-start"}}}}
	b, err := json.Marshal(cfg)
	require.NoError(t, err)
	broken := filepath.Join(t.TempDir(), "settings.json")
	require.NoError(t, os.WriteFile(broken, b, 0o644))
	code, out, _ = (&cli{env: map[string]string{}}).run(t, "", "hook", "doctor", broken)
	require.Equal(t, 1, code, out)
	require.Contains(t, out, "FAIL hook Stop: no zaxy hook stop")
	require.Contains(t, out, `FAIL hook SessionStart: "zaxy hook session-start": no matcher covers compact and resume`)
	require.Contains(t, out, "FAIL mcp server: no zaxy MCP server")
	require.Contains(t, out, "FAIL ZAXY_TOKEN: not set")
	require.Contains(t, out, "OK   hook PreCompact")

	code, _, errOut = (&cli{env: map[string]string{}}).run(t, "", "hook", "doctor", filepath.Join(dir, "missing"))
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "read harness configuration")
}

// TestLastTurn_ACompactionSplitsTheTurn: in a transcript whose turn a compaction cut, the turn
// before the cut (recorded by pre-compact) ends at the compaction, and the turn at Stop starts
// after the compaction's summary, leaving out the summary and the harness's own messages; a
// tool result given as blocks is a success when is_error is false.
func TestLastTurn_ACompactionSplitsTheTurn(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "hooks", "transcript-compacted.jsonl")
	events, last, err := lastTurn(path)
	require.NoError(t, err)
	require.Equal(t, "c7", last)
	require.Len(t, events, 1)
	require.Equal(t, "The orders table is migrated; the indexes are next.", events[0].Content)

	b, err := os.ReadFile(path)
	require.NoError(t, err)
	before := filepath.Join(t.TempDir(), "before.jsonl")
	require.NoError(t, os.WriteFile(before, []byte(strings.Join(strings.SplitAfter(string(b), "\n")[:3], "")), 0o644))
	events, last, err = lastTurn(before)
	require.NoError(t, err)
	require.Equal(t, "c3", last)
	require.Len(t, events, 2)
	require.Equal(t, "Migrate the orders table.", events[0].Content)
	require.JSONEq(t, `{"tool":"Bash","arguments":"{\"command\":\"make migrate\"}","outcome":"success"}`, string(events[1].Data))
}
