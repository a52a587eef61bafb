package review_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/review"
	"github.com/zaxy/zaxy/validation"
)

// TestDecide_AcceptingAProposedJudgementAppendsIt: a feedback or confidence_revision proposal
// (the retrospective pass's, by default) appends the event it proposes when accepted, with
// proposal_seq naming it; rejecting appends nothing else.
func TestDecide_AcceptingAProposedJudgementAppendsIt(t *testing.T) {
	b := setupTx(t)
	ctx := context.Background()
	const space = "judged"
	revision := map[string]any{"artifact": map[string]any{"key": "failure:go vet:ab12", "id": strings.Repeat("a", 64)},
		"confidence": 0.42, "previous": 0.6, "reason": "blamed by outcome [3]", "evidence": []int{1}}
	seqs := b.AppendSeqs(t, space,
		ev("message", "The deploy config lives at /etc/app.yaml.", map[string]any{"role": "user"}), // 1
		ev("proposal.created", "", map[string]any{"kind": "confidence_revision", "evidence": []int{1}, "confidence": 0.6,
			"revision": revision}), // 2
		ev("proposal.created", "", map[string]any{"kind": "feedback", "evidence": []int{1}, "confidence": 0.9,
			"feedback": map[string]any{"target_seqs": []int{1}, "signal": "outdated"}}), // 3
	)
	_, err := b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: seqs[1], Decision: review.DecisionAccept, Actor: "r"})
	require.NoError(t, err)
	_, err = b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: seqs[2], Decision: review.DecisionReject, Actor: "r"})
	require.NoError(t, err)

	var n int
	var confidence float64
	var proposal int64
	require.NoError(t, b.DB.QueryRow(ctx, `SELECT count(*) OVER (), (data->>'confidence')::float8, (data->>'proposal_seq')::bigint
		FROM events WHERE space_id = $1 AND type = 'memory.confidence_revised'`, space).Scan(&n, &confidence, &proposal))
	require.Equal(t, 1, n)
	require.Equal(t, 0.42, confidence)
	require.Equal(t, seqs[1], proposal)
	require.NoError(t, b.DB.QueryRow(ctx, `SELECT count(*) FROM events WHERE space_id = $1 AND type = 'feedback.recorded'`, space).Scan(&n))
	require.Zero(t, n, "a rejected judgement appends nothing")

	b.Project(t, space)
	incremental := b.checksum(t, space)
	_, err = b.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, b.checksum(t, space))
}

func TestPropose_AJudgementProposalNeedsTheEventItProposes(t *testing.T) {
	b := setupTx(t)
	ctx := context.Background()
	b.AppendSeqs(t, "bad", ev("message", "x y z", map[string]any{"role": "user"}))
	for _, c := range []struct {
		data  map[string]any
		field string
	}{
		{map[string]any{"kind": "feedback", "evidence": []int{1}}, "data.feedback"},
		{map[string]any{"kind": "confidence_revision", "evidence": []int{1}}, "data.revision"},
		{map[string]any{"kind": "skill", "evidence": []int{1}, "feedback": map[string]any{"target_seqs": []int{1}, "signal": "helpful"}}, "data.feedback"},
		{map[string]any{"kind": "feedback", "evidence": []int{1}, "feedback": map[string]any{"target_seqs": []int{1}, "signal": "great"}}, "data.feedback.signal"},
	} {
		_, err := b.Store.Append(ctx, &eventloom.AppendParams{SpaceID: "bad", Events: []eventloom.NewEvent{ev("proposal.created", "", c.data)}})
		var ve *validation.Error
		require.True(t, errors.As(err, &ve), "%v: %v", c.data, err)
		require.True(t, strings.HasSuffix(ve.Field, c.field), "%s names %s", ve.Field, c.field)
	}
}
