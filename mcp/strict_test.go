package mcp_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHTTP_ArgumentsBreakingTheStrictJSONRulesAreAToolError: a tool's arguments meet the same
// strict rules as an API body, before decoding into a map could keep the last duplicate key.
func TestHTTP_ArgumentsBreakingTheStrictJSONRulesAreAToolError(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	srv := e.serveHTTP(t)
	for _, tc := range []struct{ tool, args, want string }{
		{"memory_checkout", `{"space":"dev","query":"a","query":"b"}`, `invalid_request: query: is a duplicate key`},
		{"memory_append", `{"space":"dev","type":"note","content":"x","content":"y"}`, `invalid_request: content: is a duplicate key`},
		{"memory_append", `{"space":"dev","type":"note","content":"\ud800"}`, `invalid_request: content: must not contain a lone UTF-16 surrogate`},
		{"memory_append", `{"space":"dev","type":"note","content":"x","session_id":"a\u0000b"}`, `invalid_request: session_id: must not contain \\u0000`},
	} {
		status, _, body := post(t, srv.URL+"/mcp", "",
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"`+tc.tool+`","arguments":`+tc.args+`}}`)
		require.Equal(t, http.StatusOK, status, body)
		require.Contains(t, body, `"isError":true`, tc.args)
		require.Contains(t, body, tc.want, tc.args)
	}
	var n int
	require.NoError(t, e.db.AdminPool(t).QueryRow(context.Background(), `SELECT count(*) FROM events`).Scan(&n))
	require.Zero(t, n, "nothing was appended")
}
