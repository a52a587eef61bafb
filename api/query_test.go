package api_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHTTP_QueryParametersAreDecodedFromTheirTypesAndBadOnesNamed covers decodeQuery through
// the GET routes: every kind of field parses, and a value that does not is a 400 naming it.
func TestHTTP_QueryParametersAreDecodedFromTheirTypesAndBadOnesNamed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, out := e.do(t, "POST", "/v1/spaces/q/events", `{"events":[
		{"type":"note","content":"one","session_id":"a"},{"type":"note","content":"two","session_id":"b"},
		{"type":"note","content":"three","session_id":"a"}]}`)
	require.Equal(t, 201, status, out)

	status, out = e.do(t, "GET", "/v1/spaces/q/events?session_id=a&after_seq=1&limit=5&recorded_before=2999-01-01T00:00:00Z", "")
	require.Equal(t, 200, status, out)
	require.Len(t, out["events"], 1)
	require.EqualValues(t, 3, out["events"].([]any)[0].(map[string]any)["seq"])
	status, out = e.do(t, "GET", "/v1/spaces/q/events?until_seq=2&limit=", "")
	require.Equal(t, 200, status, "an empty parameter is absent: %v", out)
	require.Len(t, out["events"], 2)
	status, out = e.do(t, "GET", "/v1/spaces/q/facts?include_inferred=true&as_of_seq=3&limit=10", "")
	require.Equal(t, 200, status, out)
	require.Equal(t, "as_of", out["view"])

	for _, tc := range []struct{ path, field string }{
		{"/v1/spaces/q/events?limit=ten", "limit"},
		{"/v1/spaces/q/events?limit=0", "limit"},
		{"/v1/spaces/q/events?after_seq=1.5", "after_seq"},
		{"/v1/spaces/q/events?recorded_before=yesterday", "recorded_before"},
		{"/v1/spaces/q/facts?include_inferred=yes", "include_inferred"},
		{"/v1/spaces/q/facts?at=2024-01-01T00:00:00Z&as_of_seq=1", "at"},
		{"/v1/spaces/q/facts?as_of_seq=-1", "as_of_seq"},
		{"/v1/spaces/q/facts?limit=10001", "limit"},
	} {
		status, out := e.do(t, "GET", tc.path, "")
		require.Equal(t, 400, status, "%s: %v", tc.path, out)
		errObj := out["error"].(map[string]any)
		require.Equal(t, "invalid_request", errObj["code"], tc.path)
		require.Equal(t, tc.field, errObj["details"].(map[string]any)["field"], tc.path)
	}
}

// TestHTTP_PathParametersAreUnescapedAndTypeErrorsNameTheBodyField covers an escaped slash in a
// path parameter and a wrong-typed field of an embedded request type.
func TestHTTP_PathParametersAreUnescapedAndTypeErrorsNameTheBodyField(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, out := e.do(t, "POST", "/v1/spaces/p/subagents/researcher%2F1/cleanup", `{"outcome":"success"}`)
	require.Equal(t, 201, status, out)
	require.Equal(t, "subagent:researcher/1", out["handoff"].(map[string]any)["session_id"])
	status, out = e.do(t, "POST", "/v1/spaces/p/sessions/run%2F7/resume", "")
	require.Equal(t, 201, status, out)
	require.Equal(t, "run/7", out["session_id"])

	status, out = e.do(t, "POST", "/v1/spaces/p/checkout", `{"query":"x","max_tokens":"lots"}`)
	require.Equal(t, 400, status, out)
	errObj := out["error"].(map[string]any)
	require.Equal(t, "max_tokens", errObj["details"].(map[string]any)["field"])
	require.Equal(t, "max_tokens: must be an integer", errObj["message"])
}
