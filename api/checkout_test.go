package api_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHTTP_CheckoutAndQuery(t *testing.T) {
	e := newEnv(t)
	status, _ := e.do(t, "POST", "/v1/spaces/c/events", `{"events":[
		{"type":"message","content":"The staging registry times out after 30 seconds","data":{"role":"user"}},
		{"type":"fact.asserted","data":{"subject":"registry","predicate":"timeout","value":"30s"}}]}`)
	require.Equal(t, 201, status)

	// Not projected yet: the verbatim lane still finds it.
	status, out := e.do(t, "POST", "/v1/spaces/c/checkout", `{"query":"registry timeout","max_tokens":500}`)
	require.Equal(t, 200, status, out)
	require.Contains(t, out["text"], "times out after 30 seconds")
	require.LessOrEqual(t, out["budget"].(map[string]any)["used"].(float64), 500.0)
	require.NotZero(t, out["surfaced_seq"])

	e.project(t, "c")
	status, out = e.do(t, "POST", "/v1/spaces/c/query", `{"query":"registry timeout","disable_lanes":["recent"]}`)
	require.Equal(t, 200, status, out)
	items := out["items"].([]any)
	require.NotEmpty(t, items)
	require.NotEmpty(t, items[0].(map[string]any)["components"])

	for _, tc := range []struct{ body, field string }{
		{`{"query":""}`, "query"},
		{`{"query":"x","max_tokens":50}`, "max_tokens"},
		{`{"query":"x","max_tokens":50000}`, "max_tokens"},
		{`{"query":"x","purpose":"gossip"}`, "purpose"},
		{`{"query":"x","as_of":"last tuesday"}`, "as_of"},
		{`{"query":"x","lanes":["vector"]}`, "lanes"},
	} {
		status, out := e.do(t, "POST", "/v1/spaces/c/checkout", tc.body)
		require.Equal(t, 400, status, tc.body)
		require.Equal(t, tc.field, out["error"].(map[string]any)["details"].(map[string]any)["field"], tc.body)
	}
	status, out = e.do(t, "POST", "/v1/spaces/none/checkout", `{"query":"x"}`)
	require.Equal(t, 404, status, out)
}
