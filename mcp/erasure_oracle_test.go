package mcp_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Through memory_ingest_transcript, as over HTTP: after an erasure, re-sending the erased
// transcript is appended anew, as a text never sent is, not refused as a conflict naming the
// erased seq; a retry of an import not erased is still replayed.
func TestMCP_ErasureLeavesNoTranscriptGuessOracle(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	srv := e.serveHTTP(t)
	cs := connectHTTP(t, srv.URL+"/mcp?profile=full", "")
	args := map[string]any{"space": "g", "turns": []any{map[string]any{"role": "user", "content": "my pin is 4321"}}}
	out := ok(t, cs, "memory_ingest_transcript", args)
	require.Equal(t, false, out["replayed"])
	out = ok(t, cs, "memory_ingest_transcript", args)
	require.Equal(t, true, out["replayed"])

	resp, err := http.Post(srv.URL+"/v1/spaces/g/erasures", "application/json", strings.NewReader(`{"seq":1,"reason":"GDPR request"}`))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)

	res := call(t, cs, "memory_ingest_transcript", args)
	require.False(t, res.IsError, "the erased text is not confirmed: %s", text(res))
	require.Equal(t, false, structured(t, res)["replayed"])
}
