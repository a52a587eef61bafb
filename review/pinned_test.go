package review_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/review"
)

// packetLabels checks a space out and returns its items' labels and the items it warns are
// conflicted.
func (b *bundle) packetLabels(t *testing.T, space, query string) (map[string]checkout.Labels, []string) {
	t.Helper()
	packet, err := checkout.New(b.pool, b.Store, checkout.Config{Embedder: embedding.NewOffline()}).
		Checkout(context.Background(), &checkout.Request{SpaceID: space, Query: query, NoRecord: true})
	require.NoError(t, err)
	labels := map[string]checkout.Labels{}
	for _, tier := range packet.Tiers {
		for _, it := range tier.Items {
			labels[it.ItemID] = it.Labels
		}
	}
	var warned []string
	for _, w := range packet.Warnings {
		if w.Code == "conflicted" {
			warned = append(warned, w.ItemID)
		}
	}
	return labels, warned
}

func TestInterference_PreferenceReversingAPinnedOneIsProposed(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	space := "pinned"
	b.Append(t, space,
		ev("preference.stated", "I like my coffee black", map[string]any{"holder": "Ann", "topic": "coffee", "preference": "black"}), // 1
	)
	b.Project(t, space)
	old := b.history(t, space, "ann", "prefers coffee")
	require.Len(t, old, 1)
	b.Append(t, space,
		ev("memory.pinned", "", map[string]any{"item_ids": []string{memoryitem.FactID(old[0].ID)}}),                                       // 2
		ev("preference.stated", "Actually, with milk now", map[string]any{"holder": "Ann", "topic": "coffee", "preference": "with milk"}), // 3
	)
	b.Project(t, space)

	hist := b.history(t, space, "ann", "prefers coffee")
	require.Len(t, hist, 1, "no silent supersession of the pinned preference")
	require.Equal(t, "current", hist[0].Status)
	require.Equal(t, "black", hist[0].Object)
	require.Equal(t, "conflicted", hist[0].ReviewStatus)
	page, err := review.List(ctx, b.DB, review.ListParams{SpaceID: space, Status: review.StatusOpen})
	require.NoError(t, err)
	require.Len(t, page.Proposals, 1)
	p := page.Proposals[0]
	require.Equal(t, int64(3), p.Seq, "the statement itself is the proposal")
	require.Equal(t, hist[0].ID, *p.Contradicts)
	require.Equal(t, "belief_update", p.Kind)
	require.Contains(t, p.Rationale, "pinned")

	labels, warned := b.packetLabels(t, space, "Ann coffee black, or with milk now?")
	require.True(t, labels[memoryitem.FactID(hist[0].ID)].Conflicted, "the pinned preference")
	require.True(t, labels["ev:3"].Conflicted, "the statement contradicting it")
	require.False(t, labels["ev:1"].Conflicted)
	require.Contains(t, warned, memoryitem.FactID(hist[0].ID))

	incremental := b.checksum(t, space)
	_, err = b.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, b.checksum(t, space))

	// Accepting asserts the new preference through review; the pinned one is replaced.
	_, err = b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: 3, Decision: review.DecisionAccept, Actor: "ann"})
	require.NoError(t, err)
	b.Project(t, space)
	hist = b.history(t, space, "ann", "prefers coffee")
	require.Len(t, hist, 2)
	require.Equal(t, "superseded", hist[0].Status)
	require.Equal(t, "rejected", hist[0].ReviewStatus)
	require.Equal(t, "with milk", hist[1].Object)
	require.Equal(t, "accepted", hist[1].ReviewStatus)
	_, err = b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: 3, Decision: review.DecisionAccept, Actor: "ann"})
	require.ErrorIs(t, err, review.ErrNotPending)

	// Unpinned, a reversal versions as before.
	b.Append(t, space,
		ev("memory.unpinned", "", map[string]any{"item_ids": []string{memoryitem.FactID(hist[1].ID)}}),
		ev("preference.stated", "", map[string]any{"holder": "Ann", "topic": "coffee", "preference": "oat milk"}),
	)
	b.Project(t, space)
	require.Len(t, b.history(t, space, "ann", "prefers coffee"), 3)
}

func TestInterference_TypedFactAgainstAnEndorsedFactIsProposed(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	space := "endorsed"
	b.Append(t, space,
		ev("fact.asserted", "", map[string]any{"subject": "deploy", "predicate": "runs on", "object": "GitHub Actions"}), // 1
		ev("fact.asserted", "", map[string]any{"subject": "lint", "predicate": "runs on", "object": "pre-commit"}),       // 2
	)
	b.Project(t, space)
	deploy, lint := b.history(t, space, "deploy", "runs on"), b.history(t, space, "lint", "runs on")
	helpful := func(id string) map[string]any {
		return map[string]any{"item_ids": []string{memoryitem.FactID(id)}, "signal": "helpful"}
	}
	b.Append(t, space,
		ev("feedback.recorded", "", helpful(deploy[0].ID)),                                                        // 3
		ev("feedback.recorded", "", helpful(deploy[0].ID)),                                                        // 4
		ev("feedback.recorded", "", helpful(lint[0].ID)),                                                          // 5: one helpful is no endorsement
		ev("fact.asserted", "", map[string]any{"subject": "deploy", "predicate": "runs on", "object": "Jenkins"}), // 6
		ev("fact.asserted", "", map[string]any{"subject": "lint", "predicate": "runs on", "object": "CI"}),        // 7
	)
	b.Project(t, space)

	deploy = b.history(t, space, "deploy", "runs on")
	require.Len(t, deploy, 1, "strong positive feedback: the new statement waits for review")
	require.Equal(t, "conflicted", deploy[0].ReviewStatus)
	require.Equal(t, "current", deploy[0].Status)
	lint = b.history(t, space, "lint", "runs on")
	require.Len(t, lint, 2, "weak feedback: versions as before")
	require.Equal(t, "unreviewed", lint[0].ReviewStatus)

	page, err := review.List(ctx, b.DB, review.ListParams{SpaceID: space, Status: review.StatusOpen})
	require.NoError(t, err)
	require.Len(t, page.Proposals, 1)
	require.Equal(t, int64(6), page.Proposals[0].Seq)
	require.Contains(t, page.Proposals[0].Rationale, "endorsed")
	require.JSONEq(t, `{"subject":"deploy","predicate":"runs on","object":"Jenkins","valid_from":"`+
		page.Proposals[0].ProposedAt.UTC().Format("2006-01-02T15:04:05.999999999Z")+`"}`, string(page.Proposals[0].Fact))

	labels, warned := b.packetLabels(t, space, "what does deploy run on")
	require.True(t, labels[memoryitem.FactID(deploy[0].ID)].Conflicted)
	require.Contains(t, warned, memoryitem.FactID(deploy[0].ID))

	// Rejecting upholds the endorsed fact; a rebuild gives the same projections.
	_, err = b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: 6, Decision: review.DecisionReject, Actor: "r"})
	require.NoError(t, err)
	b.Project(t, space)
	deploy = b.history(t, space, "deploy", "runs on")
	require.Len(t, deploy, 1)
	require.Equal(t, "accepted", deploy[0].ReviewStatus)
	incremental := b.checksum(t, space)
	_, err = b.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, b.checksum(t, space))

	require.True(t, review.Endorsed(2, 1))
	require.False(t, review.Endorsed(2, 2), "as much negative feedback cancels it")
	require.False(t, review.Endorsed(1, 0))
}
