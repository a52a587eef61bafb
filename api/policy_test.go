package api_test

import (
	"testing"

	"github.com/zaxy/zaxy/vocab"

	"github.com/stretchr/testify/require"
)

// TestHTTP_PolicyGateRefusesAWorseReplay: over HTTP, a proposed policy that replays worse than
// builtin-1 on the space's judged checkouts is refused with 409 policy_gate_failed and the
// gate's numbers, nothing is appended, and the other refusals have their own codes.
func TestHTTP_PolicyGateRefusesAWorseReplay(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// A recorded checkout whose lanes disagree (item 1 leads the keyword lane, item 2 the
	// vector lane), judged for item 2; then a proposal that leans on the keyword lane.
	status, out := e.do(t, "POST", "/v1/spaces/pg/events", `{"events":[
		{"type":"message","content":"the archive goes to cold storage","data":{"role":"user"}},
		{"type":"message","content":"archive archive","data":{"role":"user"}},
		{"type":"checkout.surfaced","actor":"zaxy","data":{"purpose":"general","query_sha256":"00","max_tokens":2000,"used_tokens":40,"policy_version":"builtin-1","items":[
			{"item_id":"ev:1","seqs":[1],"tier":"query","lanes":{"keyword":{"rank":1,"weight":1},"vector":{"rank":5,"weight":1.2}},"boost":1},
			{"item_id":"ev:2","seqs":[2],"tier":"query","lanes":{"keyword":{"rank":2,"weight":1},"vector":{"rank":1,"weight":1.2}},"boost":1}]}},
		{"type":"feedback.recorded","data":{"item_ids":["ev:2"],"signal":"helpful","checkout_seq":3}},
		{"type":"feedback.recorded","data":{"item_ids":["ev:1"],"signal":"unhelpful","checkout_seq":3}},
		{"type":"policy.proposed","data":{"version":"fit-00000000000a","base":"builtin-1","policy":{"lane_weights":{"general":{"keyword":10,"vector":0.1}},"kind_boosts":{},"speaker_boost":1.5,"named_speaker_boost":3,"temporal_boost":2}}}]}`)
	require.Equal(t, 201, status, out)
	before := e.count(t)

	status, out = e.do(t, "POST", "/v1/spaces/pg/policies/fit-00000000000a/promote", "")
	require.Equal(t, 409, status, out)
	e1 := out["error"].(map[string]any)
	require.Equal(t, "policy_gate_failed", e1["code"])
	require.Contains(t, e1["message"], "policy fit-00000000000a not promoted: its replay metric on the space's own history is 0.0000, below the current builtin-10's 1.0000")
	gate := e1["details"].(map[string]any)["gate"].(map[string]any)
	require.EqualValues(t, 1, gate["replay_pairs"])
	require.Equal(t, before, e.count(t), "a refused promotion appends nothing")

	for _, tc := range []struct {
		method, path, code string
		status             int
	}{
		{"POST", "/v1/spaces/pg/policies/fit-0000000000ff/promote", "policy_not_found", 404},
		{"POST", "/v1/spaces/pg/policies/v2/promote", "invalid_request", 400},
		{"POST", "/v1/spaces/pg/policies/builtin-10/promote", "invalid_request", 400}, // already current
		{"POST", "/v1/spaces/pg/policies/builtin-11/promote", "policy_not_found", 404},
		{"POST", "/v1/spaces/pg/policies/builtin-1x/promote", "invalid_request", 400},
		{"POST", "/v1/spaces/pg/policies/rollback", "nothing_to_roll_back", 409},
	} {
		status, out = e.do(t, tc.method, tc.path, "")
		require.Equal(t, tc.status, status, tc.path)
		require.Equal(t, tc.code, out["error"].(map[string]any)["code"], tc.path)
	}

	status, out = e.do(t, "GET", "/v1/spaces/pg/policies", "")
	require.Equal(t, 200, status, out)
	require.Equal(t, "builtin-10", out["current"])
	require.Len(t, out["policies"], len(vocab.BuiltinPolicyVersions)+1, "the built-in policies and the refused fit")
}
