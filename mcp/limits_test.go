package mcp_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	zmcp "github.com/zaxy/zaxy/mcp"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// postVersion is post with an MCP-Protocol-Version header (none when version is "").
func postVersion(t *testing.T, url, token, version, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	if version != "" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

func TestHTTP_MCPRefusesJSONRPCBatches(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	srv := e.serveHTTP(t)
	read := e.token(t, auth.ScopeRead, "team-a")
	call := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"memory_query","arguments":{"space":"team-a","query":"x"}}}`, id)
	}
	var calls []string
	for i := range 1200 {
		calls = append(calls, call(i+1))
	}
	batch := "[" + strings.Join(calls, ",") + "]"

	// Whatever version the client claims (the SDK itself still serves batches to 2025-03-26
	// and to clients that send no version), a batch is refused at once with a JSON-RPC error.
	for _, version := range []string{"", "2025-03-26", "2025-06-18"} {
		status, body := postVersion(t, srv.URL+"/mcp", read, version, batch)
		require.Equal(t, http.StatusBadRequest, status, "version %q: %s", version, body)
		var rpc struct {
			ID    any `json:"id"`
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		require.NoError(t, json.Unmarshal([]byte(body), &rpc), body)
		require.Equal(t, -32600, rpc.Error.Code)
		require.Contains(t, rpc.Error.Message, "batches are not supported")
		require.Nil(t, rpc.ID)
	}
	status, body := postVersion(t, srv.URL+"/mcp", read, "", "  \n[ "+call(1)+"]")
	require.Equal(t, http.StatusBadRequest, status, "leading whitespace does not hide a batch: %s", body)

	// One call per POST still works.
	status, body = postVersion(t, srv.URL+"/mcp", read, "", call(7))
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, `"id":7`)
	require.Contains(t, body, `"result"`, "the call reached the API (the space has no events yet)")
}

func TestHTTP_MCPToolResultsObeyTheAPIResponseCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	pool := e.db.AppPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	var evs []eventloom.NewEvent
	for i := range 30 {
		evs = append(evs, eventloom.NewEvent{Type: "note", Content: fmt.Sprintf("zebras %d %s", i, strings.Repeat("z", 2000))})
	}
	fixture.Append(t, store, "herd", evs...)
	apiHandler := apitest.NewHandler(t, api.Config{MaxResponseBytes: 16 << 10}, api.Services{Pool: pool, Store: store}, nil)
	h, err := zmcp.NewHTTPHandler(zmcp.HTTPConfig{}, zmcp.Services{API: apiHandler}, nil)
	require.NoError(t, err)
	srv := httptest.NewServer(zmcp.Mount(apiHandler, h))
	t.Cleanup(srv.Close)

	status, body := postVersion(t, srv.URL+"/mcp", "", "",
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_query","arguments":{"space":"herd","query":"zebras","limit":200}}}`)
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, `"isError":true`)
	require.Contains(t, body, `response_too_large`)
	require.Less(t, len(body), 16<<10, "the refusal is small")

	status, body = postVersion(t, srv.URL+"/mcp", "", "",
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_query","arguments":{"space":"herd","query":"zebras","limit":2}}}`)
	require.Equal(t, http.StatusOK, status, body)
	require.NotContains(t, body, `"isError":true`)
}
