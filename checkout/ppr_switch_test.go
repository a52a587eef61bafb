package checkout_test

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/validation"
	"github.com/zaxy/zaxy/vocab"
)

// pprOthers are the lanes that would rank every item of seedPPRSpace's small space whatever the
// query: without them only the PPR lane reaches ev:2.
var pprOthers = []string{checkout.LaneVector, checkout.LaneTopic, checkout.LaneRecent}

const pprQuery = "What is Ana Ruiz working on?"

// TestCheckout_PPRWeightPerRequestSwitchesTheLane: a request's ppr_weight runs the lane on a
// service that leaves it off, and ppr_weight 0 switches it off on one that runs it.
func TestCheckout_PPRWeightPerRequestSwitchesTheLane(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "pprreq"
	seedPPRSpace(t, f, space)
	on, off := 0.5, 0.0

	def, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: pprQuery, DisableLanes: pprOthers})
	require.NoError(t, err)
	require.True(t, def.Lanes[checkout.LanePPR].Off, "off by default")
	require.Zero(t, placeOf(def, "ev:2"))

	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: pprQuery, DisableLanes: pprOthers, PPRWeight: &on})
	require.NoError(t, err)
	require.False(t, res.Lanes[checkout.LanePPR].Off)
	at := placeOf(res, "ev:2")
	require.NotZero(t, at, "the request's weight runs the walk")
	require.InDelta(t, on, res.Items[at-1].Components[checkout.LanePPR].Weight, 1e-9)

	pk, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: pprQuery, DisableLanes: pprOthers, PPRWeight: &on, NoRecord: true})
	require.NoError(t, err)
	require.False(t, pk.Diagnostics.Lanes[checkout.LanePPR].Off, "checkout reads it too")

	res, err = withPPR(f).Query(ctx, &checkout.Request{SpaceID: space, Query: pprQuery, DisableLanes: pprOthers, PPRWeight: &off})
	require.NoError(t, err)
	require.True(t, res.Lanes[checkout.LanePPR].Off, "ppr_weight 0 switches off the service's lane")
	require.Zero(t, placeOf(res, "ev:2"))
}

// TestCheckout_RejectsABadPPRWeight: a weight outside 0..5 (NaN too) is a validation error
// naming ppr_weight.
func TestCheckout_RejectsABadPPRWeight(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.append(t, "badppr", msg("", "user", "hello"))
	for _, w := range []float64{-0.1, 5.01, math.NaN(), math.Inf(1)} {
		var ve *validation.Error
		_, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: "badppr", Query: "x", PPRWeight: &w})
		require.ErrorAs(t, err, &ve, w)
		require.Equal(t, "ppr_weight", ve.Field)
		_, err = f.svc.Query(ctx, &checkout.Request{SpaceID: "badppr", Query: "x", PPRWeight: &w})
		require.ErrorAs(t, err, &ve, w)
		require.Equal(t, "ppr_weight", ve.Field)
	}
	for _, w := range []float64{0, 5} {
		_, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "badppr", Query: "x", PPRWeight: &w})
		require.NoError(t, err, w)
	}
}

// TestCheckout_APromotedPolicyCarryingAPPRWeightRunsTheLane: a space whose current policy
// (proposed and promoted through the log, as zaxy policy does) weighs the ppr lane runs it on a
// service that leaves it off; a purpose's own weight overrides general's, and a request's
// ppr_weight overrides the policy's.
func TestCheckout_APromotedPolicyCarryingAPPRWeightRunsTheLane(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "pprpol"
	seedPPRSpace(t, f, space)

	pol := checkout.BuiltinPolicy()
	pol.LaneWeights[checkout.PurposeGeneral][checkout.LanePPR] = 0.4
	pol.LaneWeights[checkout.PurposeDebugging] = map[string]float64{checkout.LanePPR: 0}
	version, err := checkout.PolicyVersionOf(pol)
	require.NoError(t, err)
	content, err := pol.Content()
	require.NoError(t, err)
	proposed, err := json.Marshal(vocab.PolicyProposed{Version: version, Base: checkout.BuiltinPolicyVersion, Policy: content})
	require.NoError(t, err)
	promoted, err := json.Marshal(vocab.PolicyPromoted{Version: version, Previous: checkout.BuiltinPolicyVersion})
	require.NoError(t, err)
	_, err = f.store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Admin: true, Events: []eventloom.NewEvent{
		{Type: vocab.TypePolicyProposed, Actor: "test", Data: proposed},
		{Type: vocab.TypePolicyPromoted, Actor: "test", Data: promoted}}})
	require.NoError(t, err)
	f.index(t, space)

	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: pprQuery, DisableLanes: pprOthers})
	require.NoError(t, err)
	require.Equal(t, version, res.PolicyVersion)
	require.False(t, res.Lanes[checkout.LanePPR].Off, "the policy's weight runs the lane")
	at := placeOf(res, "ev:2")
	require.NotZero(t, at)
	require.InDelta(t, 0.4, res.Items[at-1].Components[checkout.LanePPR].Weight, 1e-9)

	res, err = f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: pprQuery, DisableLanes: pprOthers, Purpose: checkout.PurposeDebugging})
	require.NoError(t, err)
	require.True(t, res.Lanes[checkout.LanePPR].Off, "debugging's own weight, 0, wins over general's")

	on := 1.0
	res, err = f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: pprQuery, DisableLanes: pprOthers, Purpose: checkout.PurposeDebugging, PPRWeight: &on})
	require.NoError(t, err)
	require.False(t, res.Lanes[checkout.LanePPR].Off, "the request's weight wins over the policy's")
}
