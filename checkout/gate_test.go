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
	original, repeat := memoryitem.EventID(rc[1].Seq), memoryitem.EventID(rc[3].Seq)
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

// TestGate_ACopyRanksForTheItemItRepeatsAndIsCited: a tool call repeated in a later session is
// redundant of the first one, so only the first is ranked. A question only the copies answer
// (the recent lane of the later session) still gets the item, ranked in the copies' place,
// telling how often it was repeated and citing the last copy that had happened by as_of and
// was not invalidated.
func TestGate_ACopyRanksForTheItemItRepeatsAndIsCited(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rc := f.append(t, "rep",
		eventloom.NewEvent{Type: "gate.configured", Data: json.RawMessage(`{"mode":"on"}`)},
		call("s1", "go_test", "", 1),
		said("s2", "user", "Please make the build green again.", 10),
		call("s2", "go_test", "", 11),
		said("s2", "assistant", "I changed the parser's error path.", 12),
		call("s2", "go_test", "", 13),
		said("s2", "assistant", "Done.", 14),
	)
	f.index(t, "rep")
	original, first, last := memoryitem.EventID(rc[1].Seq), rc[3].Seq, rc[5].Seq
	var others []string
	for _, l := range checkout.Lanes {
		if l != checkout.LaneRecent {
			others = append(others, l)
		}
	}
	ask := func(r checkout.Request) *checkout.QueryResult {
		t.Helper()
		r.SpaceID, r.SessionID, r.Query, r.DisableLanes = "rep", "s2", "did the tests pass?", others
		res, err := f.svc.Query(ctx, &r)
		require.NoError(t, err)
		return res
	}
	cited := func(it *checkout.Item) []int64 {
		var out []int64
		for _, c := range it.Citations {
			out = append(out, c.Seq)
		}
		return out
	}

	def := ask(checkout.Request{})
	got := queryIDs(def)
	require.Contains(t, got, original, "the copies ranked, so the item they repeat does")
	require.NotContains(t, got, memoryitem.EventID(first))
	require.NotContains(t, got, memoryitem.EventID(last))
	require.Equal(t, 2, def.Salience.Redundant)
	require.Equal(t, 2, got[original].Repeats)
	require.Equal(t, []int64{rc[1].Seq, last}, cited(got[original]))
	require.Contains(t, got[original].Components, checkout.LaneRecent, "it ranks with its best copy's components")
	require.Equal(t, eventloom.Hash(rc[5].Hash), got[original].Citations[1].Hash)

	// As of a time between the copies, only the first had happened.
	between := time.Date(2026, 3, 2, 9, 12, 0, 0, time.UTC)
	got = queryIDs(ask(checkout.Request{AsOf: &between}))
	require.Equal(t, 1, got[original].Repeats)
	require.Equal(t, []int64{rc[1].Seq, first}, cited(got[original]))

	// The plain profile ranks each copy as itself.
	plain := queryIDs(ask(checkout.Request{RetrievalProfile: checkout.ProfilePlain}))
	require.Contains(t, plain, memoryitem.EventID(last))
	require.NotContains(t, plain, original)
	require.Zero(t, plain[memoryitem.EventID(last)].Repeats)

	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: "rep", SessionID: "s2", Query: "did the tests pass?", DisableLanes: others, NoRecord: true})
	require.NoError(t, err)
	require.Contains(t, p.Text, fmt.Sprintf("repeated 2 times later; seq %d", rc[1].Seq))
	require.Contains(t, p.Text, fmt.Sprintf("seq %d #", last))

	// An invalidated copy is no repeat: the last one left is cited.
	f.append(t, "rep", eventloom.NewEvent{Type: "memory.invalidated",
		Data: json.RawMessage(fmt.Sprintf(`{"target_seq":%d,"reason":"that run was on a stale checkout"}`, last))})
	f.index(t, "rep")
	got = queryIDs(ask(checkout.Request{}))
	require.Equal(t, 1, got[original].Repeats)
	require.Equal(t, []int64{rc[1].Seq, first}, cited(got[original]))
}

// TestGate_RepeatsAreCountedUpToAThousand: an item repeated more often than that says 1,000 and
// still cites its last repeat (the count reads the copies, the last is one probe).
func TestGate_RepeatsAreCountedUpToAThousand(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	events := []eventloom.NewEvent{{Type: "gate.configured", Data: json.RawMessage(`{"mode":"on"}`)}}
	for range 1002 {
		events = append(events, eventloom.NewEvent{Type: "tool_call.completed", SessionID: "s1", Content: "nothing to commit, working tree clean",
			Data: json.RawMessage(`{"tool":"bash","arguments":"git status","outcome":"success"}`)})
	}
	rc := f.append(t, "many", events...)
	f.index(t, "many")
	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "many", Query: "is the working tree clean?"})
	require.NoError(t, err)
	got := queryIDs(res)[memoryitem.EventID(rc[1].Seq)]
	require.NotNil(t, got)
	require.Equal(t, 1000, got.Repeats)
	require.Equal(t, rc[len(rc)-1].Seq, got.Citations[len(got.Citations)-1].Seq)
}
