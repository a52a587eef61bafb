package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/review"
)

// TestProspective_ServesWhatReviewAccepted: accepting the build's mined skill proposal of a
// procedure appends a skill.recorded entry that the prospective pass serves as a reviewed skill
// and a plain checkout surfaces as a memory item; accepting a failure_prior serves its failure
// (and the pass stops warning that memory knows of none); invalidating an entry withdraws it;
// a rebuild gives the same projections.
func TestProspective_ServesWhatReviewAccepted(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "sk"
	seedTraces(t, f, space)
	f.build(t, space)
	decider := review.NewDecider(f.pool, f.store)
	accept := func(seq int64) []eventloom.Receipt {
		d, err := decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: seq, Decision: review.DecisionAccept, Actor: "reviewer"})
		require.NoError(t, err)
		f.index(t, space)
		return d.Events
	}
	prospective := func(goal string) *checkout.Prospective {
		p, err := f.svc.Prospective(ctx, &checkout.StepRequest{SpaceID: space, Goal: goal, ReasoningPhase: checkout.PhasePlan, NoRecord: true})
		require.NoError(t, err)
		return p
	}
	const goal = "build, test and lint the billing service"
	require.Empty(t, prospective(goal).Skills, "nothing reviewed yet")

	var proposal int64
	var slot string
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT p.seq, e.data->'artifact'->>'key' FROM proposals p JOIN events e ON e.space_id = p.space_id AND e.seq = p.seq
		WHERE p.space_id = $1 AND p.kind = 'skill' AND e.data->'artifact'->>'key' LIKE 'procedure:%go_build%' ORDER BY p.seq LIMIT 1`, space).Scan(&proposal, &slot))
	got := accept(proposal)
	require.Len(t, got, 2, "the decision and the skill entry")
	entry := got[1].Seq

	p := prospective(goal)
	require.Len(t, p.Skills, 1)
	sk := p.Skills[0]
	require.Equal(t, entry, sk.Seq)
	require.Equal(t, proposal, sk.ProposalSeq)
	require.Equal(t, "reviewed", sk.Label)
	require.Contains(t, sk.Steps, "go_build")
	require.NotEmpty(t, sk.ArtifactID)
	require.Contains(t, sk.Text, "Reviewed skill: ")
	require.Contains(t, p.Text, "## Reviewed skills")

	packet, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "reviewed skill go_build go_test", NoRecord: true})
	require.NoError(t, err)
	var ids []string
	for _, tier := range packet.Tiers {
		for _, it := range tier.Items {
			ids = append(ids, it.ItemID)
		}
	}
	require.Contains(t, ids, memoryitem.EventID(entry), "a plain checkout surfaces the skill entry")

	// A failure prior the retrospective pass proposed for a tool memory never saw fail twice.
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	failed := f.append(t, space, eventloom.NewEvent{Type: "tool_call.completed", SessionID: "task-9", OccurredAt: &at,
		Data: json.RawMessage(`{"tool":"publish_docs","outcome":"failure","error":"permission denied on docs bucket"}`)})[0].Seq
	fp := f.append(t, space, eventloom.NewEvent{Type: "proposal.created", Actor: "zaxy-retro",
		Data: json.RawMessage(fmt.Sprintf(`{"kind":"failure_prior","evidence":[%d],"confidence":0.7,"rationale":"publish_docs failed unrecovered"}`, failed))})[0].Seq
	f.index(t, space)
	const docs = "publish the docs"
	before := prospective(docs)
	require.Empty(t, before.Skills)
	require.Contains(t, fmt.Sprint(before.MissingEvidence), "no repeated failure shares this goal's words")
	accept(fp)
	after := prospective(docs)
	require.Len(t, after.Skills, 1)
	require.Equal(t, "publish_docs", after.Skills[0].Tool)
	require.Equal(t, "permission denied on docs bucket", after.Skills[0].Error)
	require.NotContains(t, fmt.Sprint(after.MissingEvidence), "no repeated failure shares this goal's words", "the reviewed failure prior covers it")

	// Invalidating the entry withdraws it; the proposal stays accepted.
	f.append(t, space, eventloom.NewEvent{Type: "memory.invalidated", Data: json.RawMessage(fmt.Sprintf(`{"target_seq":%d,"reason":"the plan changed"}`, entry))})
	f.index(t, space)
	require.Empty(t, prospective(goal).Skills)

	f.build(t, space)
	incremental, err := f.proj.Checksum(ctx, space)
	require.NoError(t, err)
	_, err = f.proj.Rebuild(ctx, space)
	require.NoError(t, err)
	f.build(t, space)
	rebuilt, err := f.proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, rebuilt)
}
