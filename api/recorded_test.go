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
	t.Parallel()
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

// TestHTTP_ItemSalienceHistoryListsEachReinforcement: a surfacing, helpful feedback, a pin and
// an unpin of one event each add a step, in seq order, with the reinforcement they left (a
// surfacing 1.01, helpful feedback 1.01 × 1.05) and the pin state; now matches the last step's
// reinforcement. An id that is no memory item answers in_memory false.
func TestHTTP_ItemSalienceHistoryListsEachReinforcement(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, _ := e.do(t, "POST", "/v1/spaces/sh/events", `{"type":"message","session_id":"s1","content":"The staging registry times out after 30 seconds","data":{"role":"user"}}`)
	require.Equal(t, 201, status)
	e.project(t, "sh")
	status, p := e.do(t, "POST", "/v1/spaces/sh/checkout", `{"query":"registry timeout","max_tokens":500}`)
	require.Equal(t, 200, status, p)
	surfaced := p["surfaced_seq"].(float64)
	for _, body := range []string{
		`{"type":"feedback.recorded","data":{"target_seqs":[1],"signal":"helpful"}}`,
		`{"type":"memory.pinned","data":{"target_seqs":[1]}}`,
		`{"type":"memory.unpinned","data":{"target_seqs":[1]}}`,
	} {
		status, out := e.do(t, "POST", "/v1/spaces/sh/events", body)
		require.Equal(t, 201, status, out)
	}
	e.project(t, "sh")
	status, h := e.do(t, "GET", "/v1/spaces/sh/items/ev:1/salience", "")
	require.Equal(t, 200, status, h)
	require.Equal(t, "log", h["authority"])
	steps := h["steps"].([]any)
	require.Len(t, steps, 4)
	require.EqualValues(t, 4, h["total"])
	type step struct {
		seq           float64
		signal        string
		reinforcement float64
		pinned        bool
	}
	var got []step
	for _, s := range steps {
		m := s.(map[string]any)
		got = append(got, step{m["seq"].(float64), m["signal"].(string), m["reinforcement"].(float64), m["pinned"].(bool)})
	}
	require.Equal(t, []step{
		{surfaced, "surfaced", 1.01, false},
		{surfaced + 1, "helpful", 1.01 * 1.05, false},
		{surfaced + 2, "pinned", 1.01 * 1.05, true},
		{surfaced + 3, "unpinned", 1.01 * 1.05, false},
	}, got)
	now := h["now"].(map[string]any)
	require.InDelta(t, 1.01*1.05, now["reinforcement"], 1e-9)
	require.Equal(t, false, now["pinned"])

	require.Equal(t, true, h["in_memory"])
	status, out := e.do(t, "GET", "/v1/spaces/sh/items/ev:99/salience", "")
	require.Equal(t, 200, status, out)
	require.Equal(t, false, out["in_memory"])
	require.Empty(t, out["steps"])
}
