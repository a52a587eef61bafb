package mcp_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTools_AppendMessageTakesItsRoleFromTheActor(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	for transport, cs := range bothTransports(t, e) {
		space := "role-" + transport
		rec := ok(t, cs[0], "memory_append", map[string]any{
			"space": space, "type": "message", "actor": "user", "content": "My deploys go through the staging registry.",
		})
		seq := rec["events"].([]any)[0].(map[string]any)["seq"]
		page := ok(t, cs[1], "memory_replay", map[string]any{"space": space})
		ev := page["events"].([]any)[0].(map[string]any)
		require.Equal(t, seq, ev["seq"])
		require.Equal(t, map[string]any{"role": "user"}, ev["data"], "%s: the stored event carries the role", transport)

		e.project(t, space)
		item := ok(t, cs[1], "memory_item", map[string]any{"space": space, "id": "ev:1"})
		require.Contains(t, item["text"], `"role": "user"`, "%s: the projected item reads the role", transport)

		te := toolError(t, cs[0], "memory_append", map[string]any{
			"space": space, "type": "message", "actor": "alice", "content": "hi",
		})
		require.Equal(t, "invalid_request", te["code"])
		require.Equal(t, "data.role", te["details"].(map[string]any)["field"], "%s: %v", transport, te)
		require.Contains(t, te["message"], `"data": {"role": "user"}`, "the error shows the fix")
	}
}
