package api_test

import (
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"
)

// raw GETs a path and returns the status and body bytes.
func (e *env) raw(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(e.url + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

func TestHTTP_IndexTimelineAndItems(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, out := e.do(t, "POST", "/v1/spaces/d/events", `{"events":[
		{"type":"message","session_id":"run/1","content":"Alice moved to the Oslo office.\nMore.","data":{"role":"user","name":"Ann"}},
		{"type":"fact.asserted","session_id":"run/1","data":{"subject":"Alice","predicate":"works at","object":"Acme"}},
		{"type":"decision.recorded","session_id":"run/1","data":{"decision":"Use pgx","subject":"driver"}},
		{"type":"checkout.surfaced","session_id":"run/1","content":"bookkeeping"},
		{"type":"memory.invalidated","data":{"target_seq":1,"reason":"wrong office"}}]}`)
	require.Equal(t, 201, status, out)
	e.project(t, "d")

	// Index: within the default budget, with refs that load.
	status, out = e.do(t, "GET", "/v1/spaces/d/index", "")
	require.Equal(t, 200, status, out)
	require.EqualValues(t, 100, out["max_tokens"])
	require.LessOrEqual(t, out["tokens"].(float64), 100.0)
	require.NotContains(t, out["text"], "checkout")
	sessions := out["sessions"].([]any)
	require.Len(t, sessions, 1)
	ref := sessions[0].(map[string]any)["ref"].(string)
	require.Equal(t, "session:run/1", ref)
	status, item := e.do(t, "GET", "/v1/spaces/d/items/"+url.PathEscape(ref), "")
	require.Equal(t, 200, status, item)
	require.Equal(t, sessions[0].(map[string]any)["detail_tokens"], item["tokens"])
	require.EqualValues(t, 3, item["list"].(map[string]any)["total"], "bookkeeping left out")

	// Timeline: newest first, labelled, filtered by session.
	status, out = e.do(t, "GET", "/v1/spaces/d/timeline?session_id=run/1&max_tokens=200", "")
	require.Equal(t, 200, status, out)
	entries := out["entries"].([]any)
	require.Len(t, entries, 3)
	require.EqualValues(t, 3, entries[0].(map[string]any)["seq"])
	require.Equal(t, []any{"invalidated"}, entries[2].(map[string]any)["labels"])
	require.Contains(t, out["text"], "Ann: Alice moved to the Oslo office.")

	// Items: an event, labelled and cited.
	status, out = e.do(t, "GET", "/v1/spaces/d/items/ev:1", "")
	require.Equal(t, 200, status, out)
	require.Equal(t, "event", out["kind"])
	require.Equal(t, []any{"invalidated"}, out["labels"])
	require.Len(t, out["citations"], 2)

	// Byte-identical responses.
	for _, path := range []string{"/v1/spaces/d/index?max_tokens=500", "/v1/spaces/d/timeline", "/v1/spaces/d/items/ev:2"} {
		s1, a := e.raw(t, path)
		s2, b := e.raw(t, path)
		require.Equal(t, 200, s1, a)
		require.Equal(t, 200, s2)
		require.Equal(t, a, b, path)
	}

	for _, tc := range []struct {
		path        string
		status      int
		code, field string
	}{
		{"/v1/spaces/d/index?max_tokens=19", 400, "invalid_request", "max_tokens"},
		{"/v1/spaces/d/index?max_tokens=20001", 400, "invalid_request", "max_tokens"},
		{"/v1/spaces/d/index?max_tokens=0", 400, "invalid_request", "max_tokens"},
		{"/v1/spaces/d/index?max_tokens=lots", 400, "invalid_request", "max_tokens"},
		{"/v1/spaces/d/timeline?max_tokens=-1", 400, "invalid_request", "max_tokens"},
		{"/v1/spaces/d/timeline?before_seq=x", 400, "invalid_request", "before_seq"},
		{"/v1/spaces/d/timeline?before_seq=0", 400, "invalid_request", "before_seq"},
		{"/v1/spaces/d/items/Alice", 400, "invalid_request", "id"},
		{"/v1/spaces/d/items/ev:0", 400, "invalid_request", "id"},
		{"/v1/spaces/d/items/ev:4", 404, "item_not_found", "id"},
		{"/v1/spaces/d/items/ev:99", 404, "item_not_found", "id"},
		{"/v1/spaces/nope/items/ev:1", 404, "item_not_found", "id"},
		{"/v1/spaces/BAD/index", 400, "invalid_request", "space"},
	} {
		status, out := e.do(t, "GET", tc.path, "")
		require.Equal(t, tc.status, status, "%s: %v", tc.path, out)
		errObj := out["error"].(map[string]any)
		require.Equal(t, tc.code, errObj["code"], tc.path)
		require.Equal(t, tc.field, errObj["details"].(map[string]any)["field"], tc.path)
	}
}
