package api_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHTTP_FeelingOfKnowing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, _ := e.do(t, "POST", "/v1/spaces/fk/events", `{"events":[
		{"type":"message","content":"We talked about lunch and the weather.","data":{"role":"user"}},
		{"type":"message","content":"Lunch was late again and the weather turned.","data":{"role":"user"}},
		{"type":"message","content":"The harpsichord tuning is booked for Thursday.","data":{"role":"user"}}]}`)
	require.Equal(t, 201, status)
	e.project(t, "fk")
	status, out := e.do(t, "POST", "/v1/spaces/fk/feeling-of-knowing", `{"query":"When is the harpsichord tuning?"}`)
	require.Equal(t, 200, status, out)
	require.Equal(t, "likely", out["judgement"], out)
	require.Contains(t, out["signals"].(map[string]any)["known_terms"], "harpsichord")
	status, out = e.do(t, "POST", "/v1/spaces/fk/feeling-of-knowing", `{"query":"Which saxophone brand?"}`)
	require.Equal(t, 200, status, out)
	require.Equal(t, "unlikely", out["judgement"], out)

	for _, body := range []string{`{"query":""}`, `{"query":"   "}`, `{"query":"` + strings.Repeat("a", 4001) + `"}`} {
		status, out := e.do(t, "POST", "/v1/spaces/fk/feeling-of-knowing", body)
		require.Equal(t, 400, status, body)
		require.Equal(t, "query", out["error"].(map[string]any)["details"].(map[string]any)["field"], body)
	}
	status, out = e.do(t, "POST", "/v1/spaces/fk/feeling-of-knowing", `{"query":"x","as_of":"now"}`)
	require.Equal(t, 400, status, out)
	// A space with no events knows nothing.
	status, out = e.do(t, "POST", "/v1/spaces/none/feeling-of-knowing", `{"query":"harpsichord"}`)
	require.Equal(t, 200, status, out)
	require.Equal(t, "unlikely", out["judgement"])
}
