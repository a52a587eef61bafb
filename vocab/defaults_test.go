package vocab_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/vocab"
)

func TestComplete_MessageRoleFromARoleActor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, typ, actor, data, want string
	}{
		{"no data", "message", "user", ``, `{"role":"user"}`},
		{"empty data", "message", "assistant", `{}`, `{"role":"assistant"}`},
		{"other keys kept", "message", "tool", `{"name":"grep","n":1.50}`, `{"n":1.50,"name":"grep","role":"tool"}`},
		{"null role", "message", "system", `{"role":null}`, `{"role":"system"}`},
		{"a given role wins", "message", "user", `{"role":"assistant"}`, `{"role":"assistant"}`},
		{"a bad given role is left for Validate", "message", "user", `{"role":"robot"}`, `{"role":"robot"}`},
		{"an actor that is no role", "message", "alice", `{}`, `{}`},
		{"no actor", "message", "", ``, ``},
		{"roles are exact", "message", "User", `{}`, `{}`},
		{"other types", "note", "user", `{}`, `{}`},
		{"not an object", "message", "user", `[1]`, `[1]`},
	} {
		got := vocab.Complete(tc.typ, tc.actor, json.RawMessage(tc.data))
		require.Equal(t, tc.want, string(got), tc.name)
	}
}

func TestComplete_ThenValidate(t *testing.T) {
	t.Parallel()
	require.NoError(t, vocab.Validate("message", "hi", vocab.Complete("message", "user", nil)))
	var fe *vocab.FieldError
	require.ErrorAs(t, vocab.Validate("message", "hi", vocab.Complete("message", "alice", nil)), &fe)
	require.Equal(t, "data.role", fe.Field)
	require.Contains(t, fe.Message, `"data": {"role": "user"}`)
}
