package api_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHTTP_MessageTakesItsRoleFromARoleActor(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, out := e.do(t, "POST", "/v1/spaces/r/events", `{"type":"message","actor":"user","content":"I moved to Oslo."}`)
	require.Equal(t, 201, status, out)

	// The stored event says its role itself: the log, not the reader, carries it, and the
	// chain covers it.
	_, page := e.do(t, "GET", "/v1/spaces/r/events", "")
	ev := page["events"].([]any)[0].(map[string]any)
	require.Equal(t, map[string]any{"role": "user"}, ev["data"])
	_, v := e.do(t, "GET", "/v1/spaces/r/verify", "")
	require.Equal(t, true, v["ok"], v)

	e.project(t, "r")
	status, item := e.do(t, "GET", "/v1/spaces/r/items/ev:1", "")
	require.Equal(t, 200, status, item)
	require.Contains(t, item["text"], `"role": "user"`, "the projected item reads the filled role")

	// A batch: each message takes its own actor's role; a role given wins over the actor.
	status, out = e.do(t, "POST", "/v1/spaces/r/events", `{"events":[
		{"type":"message","actor":"assistant","content":"Noted."},
		{"type":"message","actor":"tool","content":"ok","data":{"role":"system","name":"ci"}}]}`)
	require.Equal(t, 201, status, out)
	_, page = e.do(t, "GET", "/v1/spaces/r/events?after_seq=1", "")
	evs := page["events"].([]any)
	require.Equal(t, map[string]any{"role": "assistant"}, evs[0].(map[string]any)["data"])
	require.Equal(t, map[string]any{"role": "system", "name": "ci"}, evs[1].(map[string]any)["data"])
}

func TestHTTP_MessageWithoutRoleOrRoleActorNamesDataRole(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, body := range []string{
		`{"type":"message","actor":"alice","content":"hi"}`,
		`{"type":"message","content":"hi"}`,
		`{"type":"message","actor":"alice","content":"hi","data":{"role":null}}`,
	} {
		status, out := e.do(t, "POST", "/v1/spaces/r/events", body)
		require.Equal(t, 400, status, body)
		errObj := out["error"].(map[string]any)
		require.Equal(t, "invalid_request", errObj["code"], body)
		require.Equal(t, "data.role", errObj["details"].(map[string]any)["field"], body)
		require.Contains(t, errObj["message"], `"data": {"role": "user"}`, "the message shows the fix")
	}
	status, out := e.do(t, "POST", "/v1/spaces/r/events", `{"type":"message","actor":"user","content":"hi","data":{"role":"robot"}}`)
	require.Equal(t, 400, status, "a role given is checked, whatever the actor")
	require.Equal(t, "data.role", out["error"].(map[string]any)["details"].(map[string]any)["field"])
	require.Zero(t, e.count(t))
}
