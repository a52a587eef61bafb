package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	zmcp "github.com/zaxy/zaxy/mcp"
)

// initialize is a JSON-RPC initialize request, as a client's first POST.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`

func post(t *testing.T, url, token, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, string(b)
}

func TestHTTP_MCPNeedsATokenThatReachesTheToolsSpace(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	srv := e.serveHTTP(t)
	ctx := context.Background()
	_, err := eventloom.NewStore(e.db.AppPool(t), nil, nil).Append(ctx, &eventloom.AppendParams{
		SpaceID: "secret-project", Events: []eventloom.NewEvent{{Type: "note", Content: "the launch date is 3 May"}}})
	require.NoError(t, err)
	writeA := e.token(t, auth.ScopeWrite, "team-a")
	readA := e.token(t, auth.ScopeRead, "team-a")

	// No token, or a bad one: 401 with the API's error body, before MCP is spoken.
	for _, token := range []string{"", "zx_000000000000_forged", "not-even-a-token"} {
		status, hdr, body := post(t, srv.URL+"/mcp", token, initialize)
		require.Equal(t, http.StatusUnauthorized, status, body)
		require.Contains(t, hdr.Get("WWW-Authenticate"), "Bearer")
		require.Contains(t, body, `"code":"unauthorized"`)
	}
	status, _, body := post(t, srv.URL+"/mcp", readA, initialize)
	require.Equal(t, http.StatusOK, status, body)
	// Behind a reverse proxy on the same host (a loopback connection for the public Host): the
	// token is what protects it, so DNS rebinding protection is off.
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(initialize))
	require.NoError(t, err)
	req.Host = "zaxy.example.com"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+readA)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	// Stateless: a lone tools/call (as in docs/mcp.md's curl example) needs no session.
	status, _, body = post(t, srv.URL+"/mcp", readA,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_checkout","arguments":{"space":"team-b","query":"x"}}}`)
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, `"isError":true`)
	require.Contains(t, body, `forbidden: the token does not grant this on this space`)

	_, err = sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: srv.URL + "/mcp", MaxRetries: -1}, nil)
	require.Error(t, err, "the SDK's client without a token cannot connect")

	cs := connectHTTP(t, srv.URL+"/mcp?profile=full", writeA)
	rec := ok(t, cs, "memory_append", map[string]any{"space": "team-a", "type": "note", "content": "standup at 9"})
	require.Len(t, rec["events"], 1)
	packet := ok(t, cs, "memory_checkout", map[string]any{"space": "team-a", "query": "standup"})
	require.Contains(t, packet["text"], "standup at 9")

	// Another space: forbidden, and the same bytes whether it exists or not.
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"memory_checkout", map[string]any{"query": "launch date"}},
		{"memory_replay", map[string]any{}},
		{"memory_append", map[string]any{"type": "note", "content": "x"}},
		{"memory_index", map[string]any{}},
	} {
		var bodies []string
		for _, space := range []string{"secret-project", "no-such-space"} {
			args := map[string]any{"space": space}
			for k, v := range tc.args {
				args[k] = v
			}
			res := call(t, cs, tc.tool, args)
			require.True(t, res.IsError, "%s on %s: %s", tc.tool, space, text(res))
			b, err := json.Marshal(res)
			require.NoError(t, err)
			bodies = append(bodies, string(b))
			require.NotContains(t, string(b), "secret")
			require.NotContains(t, string(b), "launch")
			require.Equal(t, "forbidden", structured(t, res)["error"].(map[string]any)["code"])
		}
		require.Equal(t, bodies[0], bodies[1], "%s: a forbidden space looks the same whether it exists or not", tc.tool)
	}

	// A read token reads but cannot append.
	ro := connectHTTP(t, srv.URL+"/mcp", readA)
	ok(t, ro, "memory_checkout", map[string]any{"space": "team-a", "query": "standup", "no_record": true})
	e1 := toolError(t, ro, "memory_append", map[string]any{"space": "team-a", "type": "note", "content": "x"})
	require.Equal(t, "forbidden", e1["code"])
	e1 = toolError(t, ro, "memory_feedback", map[string]any{"space": "team-a", "target_seqs": []any{1}, "signal": "helpful"})
	require.Equal(t, "forbidden", e1["code"])
	_, caps := capabilities(t, ro)
	require.NotEmpty(t, caps, "memory_capabilities needs only a valid token")

	// The API beside it keeps its own auth.
	resp, err = http.Get(srv.URL + "/v1/spaces/team-a/events")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}

func TestHTTP_AuthOffNeedsNoTokenAndStdioCanBeBoundToOne(t *testing.T) {
	t.Parallel()
	open := newEnv(t, false)
	srv := open.serveHTTP(t)
	cs := connectHTTP(t, srv.URL+"/mcp", "")
	ok(t, cs, "memory_append", map[string]any{"space": "dev", "type": "note", "content": "no token needed"})

	// Without auth, a browser must not be able to drive it: neither from another origin nor
	// through DNS rebinding (a loopback connection for a foreign Host).
	for name, set := range map[string]func(*http.Request){
		"cross-origin": func(r *http.Request) {
			r.Header.Set("Sec-Fetch-Site", "cross-site")
			r.Header.Set("Origin", "https://evil.example")
		},
		"dns rebinding": func(r *http.Request) { r.Host = "evil.example" },
	} {
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(initialize))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		set(req)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusForbidden, resp.StatusCode, name)
	}

	// zaxy mcp with ZAXY_MCP_TOKEN: every call carries that token.
	e := newEnv(t, true)
	readA := e.token(t, auth.ScopeRead, "team-a")
	bound := connectStdio(t, e.api, zmcp.Config{Token: readA})
	e1 := toolError(t, bound, "memory_append", map[string]any{"space": "team-a", "type": "note", "content": "x"})
	require.Equal(t, "forbidden", e1["code"])
	e1 = toolError(t, bound, "memory_checkout", map[string]any{"space": "team-b", "query": "x"})
	require.Equal(t, "forbidden", e1["code"])
	packet := ok(t, bound, "memory_checkout", map[string]any{"space": "team-a", "query": "x"})
	require.Contains(t, packet, "text", "the token reaches team-a, which has no events yet: an empty packet")
}

// TestHTTP_ArgumentsThatAreNotAnObjectAreAToolError sends what the SDK's client never would.
func TestHTTP_ArgumentsThatAreNotAnObjectAreAToolError(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	srv := e.serveHTTP(t)
	for args, want := range map[string]string{
		`[1,2]`: `invalid_request: arguments: must be a JSON object`,
		`"x"`:   `invalid_request: arguments: must be a JSON object`,
		`null`:  `invalid_request: space: must be 1-64 characters`,
		`{}`:    `invalid_request: space: must be 1-64 characters`,
	} {
		status, _, body := post(t, srv.URL+"/mcp", "",
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_checkout","arguments":`+args+`}}`)
		require.Equal(t, http.StatusOK, status, body)
		require.Contains(t, body, `"isError":true`, args)
		require.Contains(t, body, want, args)
	}
}
