package checkout_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

func typed(session, typ, data string) eventloom.NewEvent {
	return eventloom.NewEvent{Type: typ, SessionID: session, Data: json.RawMessage(data)}
}

func TestContextLifecycle_AssembleAfterTurnHandoffCleanupResume(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "life"
	seedSpace(t, f, space)
	f.append(t, space,
		typed("s1", "task.updated", `{"task_id":"T-7","status":"in_progress","title":"raise the registry timeout"}`),
		typed("s1", "task.updated", `{"task_id":"T-6","status":"done","title":"write the runbook"}`),
		typed("s1", "decision.recorded", `{"decision":"push images with a 120s client timeout","subject":"registry client"}`),
		msg("s1", "user", "Does the canary deploy need the same change?"),
	)
	f.index(t, space)

	// Assemble: working set included, budget kept.
	a, err := f.svc.Assemble(ctx, &checkout.AssembleRequest{
		Request:    checkout.Request{SpaceID: space, Query: "registry timeout", SessionID: "s1", MaxTokens: 800},
		WorkingSet: []string{"cmd/deploy/push.go", "task T-7"},
	})
	require.NoError(t, err)
	require.LessOrEqual(t, a.Tokens, 800)
	require.Contains(t, a.Text, "## Working set\n- cmd/deploy/push.go\n- task T-7\n")
	require.Nil(t, a.Recovery)

	// After turn: the finished turn is appended and found by the next context right away.
	res, err := f.svc.AfterTurn(ctx, &checkout.AfterTurnRequest{
		AssembleRequest: checkout.AssembleRequest{Request: checkout.Request{SpaceID: space, SessionID: "s1", MaxTokens: 1000}},
		Events: []eventloom.NewEvent{
			msg("", "user", "Where do canary images get pushed?"),
			msg("", "assistant", "Canary images go to the registry mirror in eu-west-4."),
		},
	})
	require.NoError(t, err)
	require.Len(t, res.Receipts, 2)
	require.Contains(t, res.Context.Text, "eu-west-4")

	// Handoff: summary, tail, chain, recovery and retrieval in one object.
	h, err := f.svc.HandoffBundle(ctx, &checkout.HandoffRequest{Request: checkout.Request{SpaceID: space, SessionID: "s1"}, TailEvents: 5})
	require.NoError(t, err)
	require.True(t, h.Chain.OK)
	require.Len(t, h.Tail, 5)
	require.Equal(t, res.Receipts[1].Seq, h.Tail[4].Seq)
	require.Equal(t, 2, h.Summary.ByType["task.updated"])
	require.Contains(t, h.Summary.Text, "Session s1")
	require.NotEmpty(t, h.Retrieval.Tiers)
	require.Zero(t, h.Retrieval.SurfacedSeq, "a handoff does not record surfacing")

	// Resume after compaction: a recovery packet from the log alone, every item cited.
	rec, err := f.svc.Resume(ctx, space, "s1")
	require.NoError(t, err)
	require.Len(t, rec.OpenTasks, 1)
	require.Contains(t, rec.OpenTasks[0].Text, "T-7 is in_progress")
	require.Contains(t, rec.Decisions[0].Text, "120s client timeout")
	var unknowns []string
	for _, u := range rec.KnownUnknowns {
		unknowns = append(unknowns, u.Text)
	}
	require.Contains(t, unknowns, "make deploy failed: context deadline exceeded pushing image")
	require.Contains(t, unknowns, "Where do canary images get pushed?")
	for _, group := range [][]checkout.RecoveryItem{rec.OpenTasks, rec.Findings, rec.Decisions, rec.KnownUnknowns} {
		for _, it := range group {
			var hash []byte
			require.NoError(t, f.pool.QueryRow(ctx, `SELECT hash FROM events WHERE space_id = $1 AND seq = $2`, space, it.Citation.Seq).Scan(&hash))
			require.Equal(t, []byte(it.Citation.Hash), hash)
		}
	}
	a, err = f.svc.Assemble(ctx, &checkout.AssembleRequest{Request: checkout.Request{SpaceID: space, SessionID: "s1", Query: "continue"}})
	require.NoError(t, err)
	require.NotNil(t, a.Recovery, "the session was just resumed")

	// Cleanup of a subagent: an event in its session plus a bundle for the parent.
	f.append(t, space, msg("subagent:scout", "assistant", "Scouted the mirror config: eu-west-4 is read-only."))
	c, err := f.svc.CleanupSubagent(ctx, &checkout.CleanupRequest{Request: checkout.Request{SpaceID: space}, SubagentID: "scout", Outcome: "success", Summary: "mirror is read-only"})
	require.NoError(t, err)
	require.NotZero(t, c.Receipt.Seq)
	require.Equal(t, "subagent:scout", c.Handoff.SessionID)
	require.Equal(t, 1, c.Handoff.Summary.ByType["subagent.cleaned_up"])

	// Bad input.
	_, err = f.svc.AfterTurn(ctx, &checkout.AfterTurnRequest{AssembleRequest: checkout.AssembleRequest{Request: checkout.Request{SpaceID: space, SessionID: "s1"}}})
	require.ErrorIs(t, err, eventloom.ErrInvalid)
	_, err = f.svc.CleanupSubagent(ctx, &checkout.CleanupRequest{Request: checkout.Request{SpaceID: space}, SubagentID: "scout", Outcome: "meh"})
	require.ErrorIs(t, err, eventloom.ErrInvalid)
	_, err = f.svc.HandoffBundle(ctx, &checkout.HandoffRequest{Request: checkout.Request{SpaceID: space, SessionID: "nobody"}})
	require.ErrorIs(t, err, eventloom.ErrNotFound)
}
