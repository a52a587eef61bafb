package mcp_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	zmcp "github.com/zaxy/zaxy/mcp"
)

func TestReviewTools_ListAndDecideInTheFullProfile(t *testing.T) {
	e := newEnv(t, false)
	core := connectStdio(t, e.api, zmcp.Config{})
	require.NotContains(t, toolNames(t, core), "memory_review_list", "review is full profile only")
	cs := connectStdio(t, e.api, zmcp.Config{Profile: zmcp.ProfileFull})
	ok(t, cs, "memory_append", map[string]any{"space": "mr", "type": "message", "content": "Dana leads the infra team", "data": map[string]any{"role": "user"}})
	ok(t, cs, "memory_append", map[string]any{"space": "mr", "type": "proposal.created",
		"data": map[string]any{"kind": "belief_update", "evidence": []int{1}, "fact": map[string]any{"subject": "Dana", "predicate": "leads", "object": "infra team"}}})
	e.project(t, "mr")

	page := ok(t, cs, "memory_review_list", map[string]any{"space": "mr", "status": "pending"})
	require.Len(t, page["proposals"], 1)
	got := ok(t, cs, "memory_review_get", map[string]any{"space": "mr", "proposal_seq": 2})
	require.Equal(t, "belief_update", got["kind"])
	d := ok(t, cs, "memory_review_accept", map[string]any{"space": "mr", "proposal_seq": 2, "reason": "Dana said so"})
	require.Equal(t, "accepted", d["status"])
	require.Len(t, d["events"], 2)
	e1 := toolError(t, cs, "memory_review_reject", map[string]any{"space": "mr", "proposal_seq": 2})
	require.Equal(t, "proposal_not_pending", e1["code"])
	e2 := toolError(t, cs, "memory_review_defer", map[string]any{"space": "mr", "proposal_seq": 1})
	require.Equal(t, "proposal_not_found", e2["code"])
}
