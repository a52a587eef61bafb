package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/console"
	"github.com/zaxy/zaxy/internal/buildinfo"
	"github.com/zaxy/zaxy/testcontainers"
)

func mcpClient() *sdk.Client {
	return sdk.NewClient(&sdk.Implementation{Name: "zaxy-cmd-test", Version: "1"}, nil)
}

func callTool(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (*sdk.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err, name)
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return res, out
}

func resultText(res *sdk.CallToolResult) string {
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*sdk.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

// TestMCPCommand_ServesToolsOverStdio runs the real zaxy mcp binary as an MCP client would
// (the SDK's CommandTransport: its stdin and stdout are the transport).
func TestMCPCommand_ServesToolsOverStdio(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	bin := buildZaxy(t)
	ctx := context.Background()

	cmd := exec.Command(bin, "mcp", "--profile", "full")
	cmd.Env = append(os.Environ(), "ZAXY_DATABASE_URL="+db.AppURL, "ZAXY_MCP_PROFILE=core")
	var stderr lockedBuffer // written by the process's stderr copier while the test reads it
	cmd.Stderr = &stderr
	cs, err := mcpClient().Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err, stderr.String())
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Greater(t, len(tools.Tools), 8, "--profile full wins over ZAXY_MCP_PROFILE")

	res, rec := callTool(t, cs, "memory_append", map[string]any{"space": "cli-mcp", "type": "decision.recorded", "session_id": "s",
		"content": "We ship the MCP server behind bearer tokens", "data": map[string]any{"decision": "MCP behind tokens"}})
	require.False(t, res.IsError, resultText(res))
	require.Len(t, rec["events"], 1)
	res, packet := callTool(t, cs, "memory_checkout", map[string]any{"space": "cli-mcp", "query": "how is the MCP server shipped?"})
	require.False(t, res.IsError, resultText(res))
	require.Contains(t, packet["text"], "behind bearer tokens")
	res, body := callTool(t, cs, "memory_checkout", map[string]any{"space": "cli-mcp", "query": "x", "purpose": "gossip"})
	require.True(t, res.IsError)
	require.Equal(t, "invalid_request", body["error"].(map[string]any)["code"])
	res, _ = callTool(t, cs, "memory_verify", map[string]any{"space": "cli-mcp"})
	require.False(t, res.IsError, resultText(res))

	require.NoError(t, cs.Close(), "closing stdin ends the process cleanly")
	require.NotContains(t, stderr.String(), `"level":"ERROR"`)

	// Refusals at startup.
	var out, errOut bytes.Buffer
	getenv := dbEnv(db)
	require.Equal(t, 2, run(ctx, []string{"mcp", "--profile", "everything"}, getenv, strings.NewReader(""), &out, &errOut))
	require.Contains(t, errOut.String(), "--profile: must be core, compact or full")
	withToken := func(k string) string {
		if k == "ZAXY_MCP_TOKEN" {
			return "zx_000000000000_forged"
		}
		return getenv(k)
	}
	errOut.Reset()
	require.Equal(t, 2, run(ctx, []string{"mcp"}, withToken, strings.NewReader(""), &out, &errOut))
	require.Contains(t, errOut.String(), "ZAXY_MCP_TOKEN is not a valid token")
	require.Equal(t, 0, run(ctx, []string{"--help"}, getenv, nil, &out, &errOut))
	require.Contains(t, out.String(), "ZAXY_MCP_PROFILE")
}

// TestServe_MountsMCPBehindTokens starts the real zaxy serve with auth on and talks MCP to its
// /mcp endpoint with the SDK's streamable HTTP client.
func TestServe_MountsMCPBehindTokens(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	bin := buildZaxy(t)
	ctx := context.Background()
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(ctx, []string{"token", "create", "--space", "team-a", "--scope", "write"}, dbEnv(db), nil, &out, &errOut), errOut.String())
	token := strings.TrimSpace(out.String())

	cmd := exec.Command(bin, "serve", "--profile", "full")
	cmd.Env = append(os.Environ(), "ZAXY_DATABASE_URL="+db.AppURL, "ZAXY_ADDR=127.0.0.1:0", "ZAXY_AUTH=on")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	_, url, found := strings.Cut(strings.TrimSpace(line), "serving on ")
	require.True(t, found, line)

	resp, err := http.Post(url+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	// The web console's files are served too, without a token and under its policy.
	resp, err = http.Get(url + "/console/")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, console.ContentSecurityPolicy, resp.Header.Get("Content-Security-Policy"))

	hc := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+token)
		return http.DefaultTransport.RoundTrip(r)
	})}
	cs, err := mcpClient().Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
	require.NoError(t, err)
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Greater(t, len(tools.Tools), 8, "serve --profile full")
	res, _ := callTool(t, cs, "memory_append", map[string]any{"space": "team-a", "type": "note", "content": "served over /mcp"})
	require.False(t, res.IsError, resultText(res))
	res, packet := callTool(t, cs, "memory_checkout", map[string]any{"space": "team-a", "query": "served"})
	require.False(t, res.IsError, resultText(res))
	require.Contains(t, packet["text"], "served over /mcp")
	res, body := callTool(t, cs, "memory_checkout", map[string]any{"space": "team-b", "query": "served"})
	require.True(t, res.IsError)
	require.Equal(t, "forbidden", body["error"].(map[string]any)["code"])
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestMCPCommand_WorkersProjectInProcess runs zaxy mcp --workers through run, its stdin and
// stdout pipes carrying the transport: appended facts get projected without any other process.
func TestMCPCommand_WorkersProjectInProcess(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	var errOut bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"mcp", "--workers", "--profile", "full"}, dbEnv(db), serverIn, serverOut, &errOut)
		_ = serverOut.Close()
	}()
	cs, err := mcpClient().Connect(ctx, &sdk.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	require.NoError(t, err)
	require.Equal(t, buildinfo.Get().Version, cs.InitializeResult().ServerInfo.Version, "the server info carries zaxy version's version")
	res, _ := callTool(t, cs, "memory_append", map[string]any{"space": "proj", "type": "fact.asserted",
		"data": map[string]any{"subject": "Alice", "predicate": "works at", "object": "Acme"}})
	require.False(t, res.IsError, resultText(res))
	require.Eventually(t, func() bool {
		_, facts := callTool(t, cs, "memory_facts", map[string]any{"space": "proj", "entity": "Alice"})
		list, _ := facts["facts"].([]any)
		return len(list) == 1
	}, 3*time.Minute, 100*time.Millisecond, "the in-process workers project the fact")
	require.NoError(t, cs.Close())
	require.NoError(t, clientOut.Close())
	require.Equal(t, 0, <-code, errOut.String())
}
