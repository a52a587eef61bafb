package api_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHTTP_RecordedCheckoutShowsTheTextHandedOut: GET /checkouts/{seq} of a checkout's
// surfaced_seq answers the text the caller received, byte for byte, with the recorded hash
// matching it; a seq that is no checkout is 404 checkout_not_found, a bad one 400 naming seq.
func TestHTTP_RecordedCheckoutShowsTheTextHandedOut(t *testing.T) {
	e := newEnv(t)
	status, _ := e.do(t, "POST", "/v1/spaces/rc/events", `{"events":[
		{"type":"message","session_id":"s1","content":"The staging registry times out after 30 seconds","data":{"role":"user","name":"Dana"}},
		{"type":"fact.asserted","data":{"subject":"registry","predicate":"timeout","value":"30s"}}]}`)
	require.Equal(t, 201, status)
	e.project(t, "rc")
	status, p := e.do(t, "POST", "/v1/spaces/rc/checkout", `{"query":"registry timeout","max_tokens":500,"session_id":"s1","who_when":true}`)
	require.Equal(t, 200, status, p)
	seq := int64(p["surfaced_seq"].(float64))

	status, rec := e.do(t, "GET", fmt.Sprintf("/v1/spaces/rc/checkouts/%d", seq), "")
	require.Equal(t, 200, status, rec)
	require.Equal(t, p["text"], rec["text"])
	sum := sha256.Sum256([]byte(p["text"].(string)))
	require.Equal(t, hex.EncodeToString(sum[:]), rec["recorded_sha256"])
	require.Equal(t, rec["recorded_sha256"], rec["rendered_sha256"])
	require.Equal(t, "matches", rec["status"])
	require.Equal(t, "s1", rec["session_id"])
	require.NotEmpty(t, rec["items"])

	status, out := e.do(t, "GET", "/v1/spaces/rc/checkouts/1", "")
	require.Equal(t, 404, status, out)
	require.Equal(t, "checkout_not_found", out["error"].(map[string]any)["code"])
	status, out = e.do(t, "GET", "/v1/spaces/rc/checkouts/x", "")
	require.Equal(t, 400, status, out)
	require.Equal(t, "seq", out["error"].(map[string]any)["details"].(map[string]any)["field"])
}
