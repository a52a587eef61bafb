package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// textSearchEnv is a database's environment with a text search configuration other than
// English: "simple" keeps every word as it is written, where English stems "running" to "run".
func textSearchEnv(db *testcontainers.Database) map[string]string {
	return map[string]string{"ZAXY_DATABASE_URL": db.AppURL, "ZAXY_ADDR": "127.0.0.1:0", "ZAXY_AUTH": "off",
		"ZAXY_MODEL_DIR": "/nonexistent/zaxy-models", "ZAXY_SHUTDOWN_TIMEOUT": "10s", "ZAXY_TEXT_SEARCH_CONFIG": "simple"}
}

// feltTerms polls feel until the space's projection has reached every event (the answer's
// projection_lag is 0 and it counts an item), failing only when the lag stops falling for a
// minute, and returns the known and unknown terms of the last answer.
func feltTerms(t *testing.T, feel func() map[string]any) (known, unknown []string) {
	t.Helper()
	lastLag, progressed := int64(-1), time.Now()
	for {
		out := feel()
		sketch, _ := out["sketch"].(map[string]any)
		signals, _ := out["signals"].(map[string]any)
		lag, _ := sketch["projection_lag"].(float64)
		items, _ := signals["space_items"].(float64)
		if sketch != nil && lag == 0 && items > 0 {
			for _, k := range signals["known_terms"].([]any) {
				known = append(known, k.(string))
			}
			for _, k := range signals["unknown_terms"].([]any) {
				unknown = append(unknown, k.(string))
			}
			return known, unknown
		}
		if int64(lag) != lastLag {
			lastLag, progressed = int64(lag), time.Now()
		}
		require.Less(t, time.Since(progressed), time.Minute, "the projection stopped advancing: %v", out)
		time.Sleep(100 * time.Millisecond)
	}
}

// The feeling of knowing reads a query's lexemes under ZAXY_TEXT_SEARCH_CONFIG, as the
// projector stored them: under "simple" the word "running" is known as written, and "run" is
// not (under the English configuration it reads the query as "run", which the space does not
// hold, and answers that memory does not know). zaxy serve, over HTTP.
func TestServe_FeelingOfKnowingUsesTheTextSearchConfig(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	env := textSearchEnv(db)
	ctx, cancel := context.WithCancel(context.Background())
	stdoutR, stdoutW := io.Pipe()
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve"}, func(k string) string { return env[k] }, nil, stdoutW, &stderr)
		_ = stdoutW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	require.NoError(t, err, stderr.String())
	go func() { _, _ = io.Copy(io.Discard, stdoutR) }()
	_, url, ok := strings.Cut(strings.TrimSpace(line), "serving on ")
	require.True(t, ok, line)

	post := func(path, body string) map[string]any {
		resp, err := http.Post(url+path, "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"), path)
		var out map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		require.Less(t, resp.StatusCode, 300, "%s: %v", path, out)
		return out
	}
	post("/v1/spaces/ts/events", `{"type":"note","content":"the deployments were running smoothly"}`)
	known, unknown := feltTerms(t, func() map[string]any {
		return post("/v1/spaces/ts/feeling-of-knowing", `{"query":"running deployments"}`)
	})
	require.ElementsMatch(t, []string{"running", "deployments"}, known, "unknown: %v", unknown)
	require.Empty(t, unknown)

	// Every response of zaxy serve says nosniff: the MCP endpoint and the console too.
	for _, path := range []string{"/mcp", "/console/", "/healthz"} {
		resp, err := http.Get(url + path)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"), path)
	}
}

// The same through zaxy mcp's memory_feeling_of_knowing tool (stdio, workers in process).
func TestMCPCommand_FeelingOfKnowingUsesTheTextSearchConfig(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	env := textSearchEnv(db)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	var errOut lockedBuffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"mcp", "--workers", "--profile", "full"}, func(k string) string { return env[k] }, serverIn, serverOut, &errOut)
		_ = serverOut.Close()
	}()
	cs, err := mcpClient().Connect(ctx, &sdk.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	require.NoError(t, err)
	res, _ := callTool(t, cs, "memory_append", map[string]any{"space": "ts", "type": "note", "content": "the deployments were running smoothly"})
	require.False(t, res.IsError, resultText(res))
	known, unknown := feltTerms(t, func() map[string]any {
		res, out := callTool(t, cs, "memory_feeling_of_knowing", map[string]any{"space": "ts", "query": "running deployments"})
		require.False(t, res.IsError, resultText(res))
		return out
	})
	require.ElementsMatch(t, []string{"running", "deployments"}, known, "unknown: %v", unknown)
	require.Empty(t, unknown)
	require.NoError(t, cs.Close())
	require.NoError(t, clientOut.Close())
	require.Equal(t, 0, <-code, errOut.String())
}
