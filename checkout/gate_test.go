package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

func TestGate_RedundantItemLeavesDefaultRankingAndStaysReachable(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rc := f.append(t, "gate",
		eventloom.NewEvent{Type: "gate.configured", Data: json.RawMessage(`{"mode":"on"}`)},
		msg("s1", "user", "The kafka retention for the audit topic is seven days, set by the platform team."),
		msg("s1", "user", "Lunch is at noon on Thursdays."),
		msg("s2", "user", "the kafka retention for the audit topic is seven days set by the platform team"),
	)
	f.index(t, "gate")
	original, repeat := fmt.Sprintf("ev:%d", rc[1].Seq), fmt.Sprintf("ev:%d", rc[3].Seq)
	ask := func(r checkout.Request) *checkout.QueryResult {
		r.SpaceID, r.Query = "gate", "kafka retention audit topic"
		res, err := f.svc.Query(ctx, &r)
		require.NoError(t, err)
		return res
	}

	def := ask(checkout.Request{})
	require.Contains(t, queryIDs(def), original)
	require.NotContains(t, queryIDs(def), repeat, "the repeat is no ranked entry of its own")
	require.Equal(t, 1, def.Salience.Redundant)
	require.InDelta(t, 1.02, queryIDs(def)[original].Salience.Reinforcement, 1e-12, "the repeat reinforced the original")

	all := queryIDs(ask(checkout.Request{IncludeAttenuated: true}))
	require.Contains(t, all, repeat, "explicit recall still reaches it")
	require.Equal(t, original, all[repeat].Labels.RedundantOf)
	require.Equal(t, checkout.AttenuatedByRedundancy, all[repeat].Labels.AttenuatedBy)

	plain := queryIDs(ask(checkout.Request{RetrievalProfile: checkout.ProfilePlain}))
	require.Contains(t, plain, repeat, "the plain profile ranks as before the gate")
	require.Empty(t, plain[repeat].Labels.RedundantOf)

	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: "gate", Query: "kafka retention audit topic", IncludeAttenuated: true, NoRecord: true})
	require.NoError(t, err)
	require.Contains(t, p.Text, "redundant of "+original)
}
