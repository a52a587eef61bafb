package mcp_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
)

// memory_append goes through the API's append: secrets are redacted and counted, and only an
// admin token may switch redaction off.
func TestHTTP_MemoryAppendRedactsAndTheSwitchNeedsAdmin(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	srv := e.serveHTTP(t)
	const secret = "sk-ant-api03-abcDEF123456_ghiJKL789012-mnoPQR"
	cs := connectHTTP(t, srv.URL+"/mcp", e.token(t, auth.ScopeWrite, "team-a"))
	rec := ok(t, cs, "memory_append", map[string]any{"space": "team-a", "type": "note", "content": "key " + secret,
		"actor": "ci", "data": map[string]any{"api_key": "abc"}})
	require.EqualValues(t, 2, rec["redactions"])
	e1 := toolError(t, cs, "memory_append", map[string]any{"space": "team-a", "type": "redaction.configured", "data": map[string]any{"mode": "off"}})
	require.Equal(t, "forbidden", e1["code"])

	page, err := eventloom.NewStore(e.db.AppPool(t), nil, nil).Replay(context.Background(), &eventloom.ReplayParams{SpaceID: "team-a"})
	require.NoError(t, err)
	require.Len(t, page.Events, 1)
	require.Equal(t, "key [REDACTED:anthropic_api_key]", page.Events[0].Content)
	require.JSONEq(t, `{"api_key":"[REDACTED:secret]"}`, string(page.Events[0].Data))

	adm := connectHTTP(t, srv.URL+"/mcp", e.token(t, auth.ScopeAdmin, "team-a"))
	ok(t, adm, "memory_append", map[string]any{"space": "team-a", "type": "redaction.configured", "data": map[string]any{"mode": "off"}})
	rec = ok(t, cs, "memory_append", map[string]any{"space": "team-a", "type": "note", "content": "key " + secret})
	require.EqualValues(t, 0, rec["redactions"])
}
