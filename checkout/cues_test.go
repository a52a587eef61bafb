package checkout_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/validation"
)

// cued is a message with cues.
func cued(session, text, cues string) eventloom.NewEvent {
	ev := msg(session, "user", text)
	if cues != "" {
		ev.Cues = json.RawMessage(cues)
	}
	return ev
}

// placeOf is an item's 1-based place in a query result, 0 when absent.
func placeOf(res *checkout.QueryResult, id string) int {
	for i, it := range res.Items {
		if it.ItemID == id {
			return i + 1
		}
	}
	return 0
}

func TestQuery_MatchingCueLiftsTheCuedItemOverAnEqualUncuedOne(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "cues"
	// Two equal notes about the flaky login test, one from each repository's work, in sessions
	// of their own (so the session context treats them alike), and unrelated chatter.
	rs := f.append(t, space,
		cued("s1", "The login test is flaky because the fixture clock is not frozen.", `{"repo":"billing","task":"T-7"}`),
		cued("s2", "The login test is flaky because the fixture clock is not frozen.", `{"repo":"checkout-web"}`),
		cued("s3", "We had pizza for lunch on Friday.", `{"repo":"billing"}`),
	)
	f.index(t, space)
	a, b := "ev:1", "ev:2"
	require.Equal(t, int64(1), rs[0].Seq)

	query := "why is the login test flaky?"
	plain, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: query})
	require.NoError(t, err)
	// Equal text: the lanes rank the two side by side, in an order of their own tie-breaks.
	require.ElementsMatch(t, []int{1, 2}, []int{placeOf(plain, a), placeOf(plain, b)})
	// Cue whichever of the two ranks second: the cue must lift it.
	first, second := a, b
	if placeOf(plain, b) < placeOf(plain, a) {
		first, second = b, a
	}
	repo := map[string]string{a: "billing", b: "checkout-web"}[second]
	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: query, Cues: checkout.Cues{"repo": " " + strings.ToUpper(repo) + " "}})
	require.NoError(t, err)
	require.Less(t, placeOf(res, second), placeOf(res, first), "the cued note now ranks first")
	c := res.Items[placeOf(res, second)-1].Components[checkout.ComponentCues]
	require.Equal(t, 1, c.Rank, "one cue matched")
	require.InDelta(t, 1.2, c.Weight, 1e-9)
	require.Greater(t, c.Score, 0.0)
	require.NotContains(t, res.Items[placeOf(res, first)-1].Components, checkout.ComponentCues)

	// Two matching cues boost more, up to the cap.
	two, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: query, Cues: checkout.Cues{"repo": "billing", "task": "t-7"}})
	require.NoError(t, err)
	require.Equal(t, 1, placeOf(two, a))
	require.Equal(t, 2, two.Items[0].Components[checkout.ComponentCues].Rank)
	require.InDelta(t, 1.44, two.Items[0].Components[checkout.ComponentCues].Weight, 1e-9)

	// A cue on an unrelated item does not bring it above the query's matches.
	require.Greater(t, placeOf(two, "ev:3"), placeOf(two, b))
}

func TestQuery_NoMatchingCueChangesNothing(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "nocue"
	seedSpace(t, f, space)
	f.append(t, space, cued("s3", "The registry push timeout was raised in the deploy script.", `{"repo":"infra","tool":"make"}`))
	f.index(t, space)
	query := "why did the deploy time out?"
	body := func(cues checkout.Cues) string {
		res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: query, Cues: cues, DisableLanes: []string{checkout.LaneRecent}})
		require.NoError(t, err)
		for name := range res.Lanes {
			l := res.Lanes[name]
			l.MS = 0 // timings differ run to run
			res.Lanes[name] = l
		}
		out, err := json.Marshal(res)
		require.NoError(t, err)
		return string(out)
	}
	want := body(nil)
	require.Equal(t, want, body(checkout.Cues{}), "empty cues")
	require.Equal(t, want, body(checkout.Cues{"repo": "elsewhere", "task": "T-1"}), "cues no event carries")
	require.NotEqual(t, want, body(checkout.Cues{"repo": "infra"}), "a matching cue does change the ranking's components")
}

func TestQuery_CuesSteerTheInferredPurpose(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "purpose"
	seedSpace(t, f, space)
	f.index(t, space)
	for _, tc := range []struct {
		cues    checkout.Cues
		purpose string
		want    string
	}{
		{nil, "", checkout.PurposeGeneral},
		{checkout.Cues{"phase": "debug"}, "", checkout.PurposeDebugging},
		{checkout.Cues{"phase": "Code Review"}, "", checkout.PurposeReview},
		{checkout.Cues{"phase": "planning"}, "", checkout.PurposePlanning},
		{checkout.Cues{"tool": "pytest", "status": "failing"}, "", checkout.PurposeDebugging},
		{checkout.Cues{"tool": "dlv"}, "", checkout.PurposeDebugging},
		{checkout.Cues{"tool": "pytest"}, "", checkout.PurposeGeneral},
		{checkout.Cues{"task": "fix the error page"}, "", checkout.PurposeGeneral},
		{checkout.Cues{"phase": "whatever"}, "", checkout.PurposeGeneral},
		{checkout.Cues{"phase": "debug"}, checkout.PurposePlanning, checkout.PurposePlanning},
	} {
		res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: "the deploy pipeline", Purpose: tc.purpose, Cues: tc.cues})
		require.NoError(t, err)
		require.Equal(t, tc.want, res.Purpose, "%v", tc.cues)
		require.Equal(t, tc.purpose == "", res.PurposeInferred)
	}
}

func TestQuery_RejectsBadCues(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	many := checkout.Cues{}
	for _, k := range strings.Fields("a b c d e f g h i j k l m n o p q") {
		many[k] = "x"
	}
	for _, tc := range []struct {
		cues  checkout.Cues
		field string
	}{
		{checkout.Cues{"Repo": "x"}, "cues"},
		{checkout.Cues{"9lives": "x"}, "cues"},
		{checkout.Cues{strings.Repeat("k", 33): "x"}, "cues"},
		{checkout.Cues{"repo": "  "}, "cues.repo"},
		{checkout.Cues{"task": strings.Repeat("é", 201)}, "cues.task"},
		{many, "cues"},
	} {
		_, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "any", Query: "x", Cues: tc.cues})
		var ve *validation.Error
		require.True(t, errors.As(err, &ve), "%v: %v", tc.cues, err)
		require.Equal(t, tc.field, ve.Field, ve.Message)
		_, err = f.svc.Checkout(ctx, &checkout.Request{SpaceID: "any", Query: "x", Cues: tc.cues})
		require.ErrorAs(t, err, &ve)
	}
}
