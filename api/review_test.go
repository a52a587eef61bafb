package api_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers/fixture"
)

func TestHTTP_ReviewListsAndDecidesProposals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, out := e.do(t, "POST", "/v1/spaces/r1/events", `{"events":[
		{"type":"fact.asserted","data":{"subject":"Alice","predicate":"works at","object":"Acme"}},
		{"type":"message","content":"Alice moved to Beta","data":{"role":"user"}},
		{"type":"proposal.created","actor":"agent","data":{"kind":"belief_update","evidence":[2],"confidence":0.7,"fact":{"subject":"Alice","predicate":"works at","object":"Beta"}}},
		{"type":"proposal.created","actor":"agent","data":{"kind":"skill","evidence":[2]}}]}`)
	require.Equal(t, 201, status, out)
	status, out = e.do(t, "POST", "/v1/spaces/r1/events", `{"type":"proposal.created","data":{"kind":"belief_update","evidence":[2],"fact":{"subject":"Alice"}}}`)
	require.Equal(t, 400, status)
	require.Equal(t, "data.fact.predicate", out["error"].(map[string]any)["details"].(map[string]any)["field"])
	fixture.Project(t, e.db.AppPool(t), "r1")

	status, out = e.do(t, "GET", "/v1/spaces/r1/proposals?status=pending&limit=1", "")
	require.Equal(t, 200, status, out)
	require.Len(t, out["proposals"], 1)
	require.EqualValues(t, 3, out["next_after_seq"])
	status, out = e.do(t, "GET", "/v1/spaces/r1/proposals?status=pending&after_seq=3", "")
	require.Equal(t, 200, status, out)
	require.Len(t, out["proposals"], 1)
	require.Nil(t, out["next_after_seq"])
	status, out = e.do(t, "GET", "/v1/spaces/r1/proposals?status=maybe", "")
	require.Equal(t, 400, status)
	require.Equal(t, "status", out["error"].(map[string]any)["details"].(map[string]any)["field"])

	status, out = e.do(t, "GET", "/v1/spaces/r1/proposals/3", "")
	require.Equal(t, 200, status, out)
	require.Equal(t, "belief_update", out["kind"])
	require.Equal(t, "agent", out["proposed_by"])
	status, out = e.do(t, "GET", "/v1/spaces/r1/proposals/2", "")
	require.Equal(t, 404, status)
	require.Equal(t, "proposal_not_found", out["error"].(map[string]any)["code"])

	before := e.count(t)
	status, out = e.do(t, "POST", "/v1/spaces/r1/proposals/3/accept", `{"actor":"ann","reason":"confirmed"}`)
	require.Equal(t, 201, status, out)
	require.Equal(t, "accepted", out["status"])
	require.Len(t, out["events"], 2)
	require.Equal(t, before+2, e.count(t))

	for _, tc := range []struct {
		path, code string
		status     int
	}{
		{"/v1/spaces/r1/proposals/3/reject", "proposal_not_pending", 409},
		{"/v1/spaces/r1/proposals/3/defer", "proposal_not_pending", 409},
		{"/v1/spaces/r1/proposals/1/accept", "proposal_not_found", 404},
		{"/v1/spaces/r1/proposals/77/reject", "proposal_not_found", 404},
		{"/v1/spaces/r1/proposals/zero/reject", "invalid_request", 400},
	} {
		status, out = e.do(t, "POST", tc.path, `{}`)
		require.Equal(t, tc.status, status, tc.path)
		require.Equal(t, tc.code, out["error"].(map[string]any)["code"], tc.path)
	}
	require.Equal(t, before+2, e.count(t), "refused decisions append nothing")

	status, out = e.do(t, "POST", "/v1/spaces/r1/proposals/4/defer", `{"reason":"later"}`)
	require.Equal(t, 201, status, out)
	require.Equal(t, "deferred", out["status"])
}
