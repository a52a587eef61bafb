package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	zmcp "github.com/zaxy/zaxy/mcp"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// env is a migrated database of its own with the real API on it (River jobs are enqueued, not
// worked: project projects a space in the test instead).
type env struct {
	db     *testcontainers.Database
	api    http.Handler
	tokens *auth.Store // nil when auth is off
}

func newEnv(t *testing.T, withAuth bool) *env {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	client, err := jobs.NewInsertOnlyClient(pool, nil)
	require.NoError(t, err)
	e := &env{db: db}
	if withAuth {
		e.tokens = auth.NewStore(pool)
	}
	e.api = apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: eventloom.NewStore(pool, jobs.NewOutbox(client), nil), Auth: e.tokens}, nil)
	return e
}

func (e *env) project(t *testing.T, space string) {
	t.Helper()
	fixture.Project(t, e.db.AppPool(t), space)
}

// token issues a token for spaces with scope.
func (e *env) token(t *testing.T, scope string, spaces ...string) string {
	t.Helper()
	_, plain, err := e.tokens.Create(context.Background(), spaces, scope, "test")
	require.NoError(t, err)
	return plain
}

// serveHTTP starts what zaxy serve serves: the API with the MCP endpoint mounted at /mcp.
func (e *env) serveHTTP(t *testing.T) *httptest.Server {
	t.Helper()
	h, err := zmcp.NewHTTPHandler(zmcp.HTTPConfig{}, zmcp.Services{API: e.api, Auth: e.tokens}, nil)
	require.NoError(t, err)
	srv := httptest.NewServer(zmcp.Mount(e.api, h))
	t.Cleanup(srv.Close)
	return srv
}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connectHTTP connects the SDK's client to the streamable HTTP endpoint at url.
func connectHTTP(t *testing.T, url, token string) *sdk.ClientSession {
	t.Helper()
	hc := &http.Client{}
	if token != "" {
		hc.Transport = bearer{token: token, next: http.DefaultTransport}
	}
	return connect(t, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1})
}

// connectStdio serves cfg, each call served by apiHandler, over a pair of pipes, as zaxy mcp
// serves its stdin and stdout, and connects the SDK's client to the other ends.
func connectStdio(t *testing.T, apiHandler http.Handler, cfg zmcp.Config) *sdk.ClientSession {
	t.Helper()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- zmcp.ServeStdio(ctx, cfg, zmcp.Services{API: apiHandler}, nil, serverIn, serverOut) }()
	t.Cleanup(func() {
		cancel()
		_ = clientOut.Close()
		_ = serverOut.Close()
		<-done
	})
	return connect(t, &sdk.IOTransport{Reader: clientIn, Writer: clientOut})
}

func connect(t *testing.T, tr sdk.Transport) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "zaxy-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls a tool and requires the call itself (not the tool) to succeed.
func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err, "%s: a tool's failure must be a tool error, not a protocol error", name)
	return res
}

// ok calls a tool that must succeed and returns its structured content.
func ok(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	res := call(t, cs, name, args)
	require.False(t, res.IsError, "%s: %s", name, text(res))
	return structured(t, res)
}

// toolError calls a tool that must fail and returns the error body's "error" object.
func toolError(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	res := call(t, cs, name, args)
	require.True(t, res.IsError, "%s should fail: %s", name, text(res))
	body := structured(t, res)
	e, isObj := body["error"].(map[string]any)
	require.True(t, isObj, "%s: the structured content is the API's error body: %v", name, body)
	require.Equal(t, e["code"].(string)+": "+e["message"].(string), text(res))
	return e
}

func text(res *sdk.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, isText := res.Content[0].(*sdk.TextContent); isText {
		return tc.Text
	}
	return ""
}

func structured(t *testing.T, res *sdk.CallToolResult) map[string]any {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out), string(b))
	return out
}

func toolNames(t *testing.T, cs *sdk.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	names := make([]string, len(res.Tools))
	for i, tl := range res.Tools {
		names[i] = tl.Name
	}
	return names
}
