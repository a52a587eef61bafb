package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
)

// call is a tool_call.completed event of session at minute m of 2026-03-02; a non-empty failure
// makes it a failed call with that error.
func call(session, tool, failure string, m int) eventloom.NewEvent {
	at := time.Date(2026, 3, 2, 9, m, 0, 0, time.UTC)
	data := fmt.Sprintf(`{"tool":%q,"outcome":"success"}`, tool)
	if failure != "" {
		data = fmt.Sprintf(`{"tool":%q,"outcome":"failure","error":%q}`, tool, failure)
	}
	return eventloom.NewEvent{Type: "tool_call.completed", SessionID: session, OccurredAt: &at, Data: json.RawMessage(data)}
}

// said is a message of session at minute m of 2026-03-02.
func said(session, role, text string, m int) eventloom.NewEvent {
	e := msg(session, role, text)
	at := time.Date(2026, 3, 2, 9, m, 0, 0, time.UTC)
	e.OccurredAt = &at
	return e
}

// remedySpace appends an agent's sessions: in t1 the migrate step fails on a lock, the agent
// says so, looks around, releases the lock and retries; then it lints and deploys. t2 fails the same way and
// is never fixed. Another space has the same sessions with other fixes. It returns the seqs of
// t1's events by name.
func remedySpace(t *testing.T, f *fixture, space, fix string) map[string]int64 {
	t.Helper()
	lock := "lock timeout waiting for the schema lock after 30s"
	r := f.append(t, space,
		said("t1", "user", "Add the export field to the billing service.", 0),
		call("t1", "read_file", "", 1),
		call("t1", "billing_migrate", lock, 2),
		said("t1", "assistant", "That did not work; trying something else.", 3),
		call("t1", "grep", "", 4),
		call("t1", "list_dir", "", 4),
		call("t1", fix, "", 4),
		call("t1", "billing_migrate", "", 5),
		call("t1", "run_linter", "", 6),
		call("t1", "billing_deploy", "", 7),
		said("t2", "user", "Rename the settings flag of the billing service.", 20),
		call("t2", "billing_migrate", lock, 21),
	)
	f.index(t, space)
	names := []string{"task", "read", "failure", "note", "grep", "list", "fix", "retry", "lint", "deploy", "task2", "failure2"}
	out := map[string]int64{}
	for i, n := range names {
		out[n] = r[i].Seq
	}
	return out
}

func remedyItems(t *testing.T, res *checkout.QueryResult) []string {
	t.Helper()
	var out []string
	for _, it := range res.Items {
		if _, ok := it.Components[checkout.LaneRemedy]; ok {
			out = append(out, it.ItemID)
		}
	}
	return out
}

// TestRemedyLane_FollowsAFailedCallToItsFixAndRetry: a question about a failure shares no word
// with the call that fixed it. The remedy lane follows the failed call through its session's
// next events up to the same tool's next call: the agent's note, what it looked at, the fix and
// the retry, nothing
// after the retry, nothing of the session that never fixed it, nothing that had not occurred by
// as_of, and nothing of another space.
func TestRemedyLane_FollowsAFailedCallToItsFixAndRetry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	seqs := remedySpace(t, f, "agent", "release_schema_lock")
	other := remedySpace(t, f, "agent-other", "restart_database")
	require.Equal(t, seqs, other, "both spaces number their events alike")
	q := "billing_migrate fails with a lock timeout waiting for the schema lock: what fixed it?"

	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "agent", Query: q, Limit: 50})
	require.NoError(t, err)
	ev := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, memoryitem.EventID(seqs[n]))
		}
		return out
	}
	require.ElementsMatch(t, ev("note", "grep", "list", "fix", "retry"), remedyItems(t, res), "the note, the look around, the fix and the retry")
	require.Equal(t, checkout.BuiltinPolicyVersion, res.PolicyVersion)
	for _, it := range res.Items {
		require.NotContains(t, it.Text, "restart_database", "nothing of the other space")
	}

	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: "agent", Query: q, NoRecord: true, MaxTokens: 400})
	require.NoError(t, err)
	require.Contains(t, p.Text, "tool release_schema_lock success", "the fix is in a small packet:\n%s", p.Text)

	// As of the minute after the failure, the fix had not happened: the lane shows the note.
	asOf := time.Date(2026, 3, 2, 9, 3, 30, 0, time.UTC)
	res, err = f.svc.Query(ctx, &checkout.Request{SpaceID: "agent", Query: q, AsOf: &asOf, Limit: 50})
	require.NoError(t, err)
	require.Equal(t, ev("note"), remedyItems(t, res))

	// builtin-2 has no remedy lane; switched off, the lane is reported off.
	two := checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), Policy: checkout.BuiltinPolicyOf("builtin-2")})
	res, err = two.Query(ctx, &checkout.Request{SpaceID: "agent", Query: q, Limit: 50})
	require.NoError(t, err)
	require.Empty(t, remedyItems(t, res))
	require.True(t, res.Lanes[checkout.LaneRemedy].Off)
	res, err = f.svc.Query(ctx, &checkout.Request{SpaceID: "agent", Query: q, Limit: 50, DisableLanes: []string{checkout.LaneKeyword}})
	require.NoError(t, err)
	require.True(t, res.Lanes[checkout.LaneRemedy].Off)
	require.Contains(t, res.Lanes[checkout.LaneRemedy].Error, "keyword lane is off")

	// The lane reads the session's memory events through the partial index, as the reply lane.
	plan := explainAnalyze(t, f, "lane_remedy.sql", []int64{seqs["failure"], seqs["failure2"]}, "agent", time.Now(), 4)
	require.Contains(t, plan, "events_session_memory")
}

// TestRemedyLane_AGenericToolsRetryIsTheSameCommand: an agent whose one tool is a shell runs
// its look around, its fix and its retry through it. The retry is the same tool with the same
// arguments; the shell's next call is not.
func TestRemedyLane_AGenericToolsRetryIsTheSameCommand(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	sh := func(args, failure string, m int) eventloom.NewEvent {
		e := call("s", "bash", failure, m)
		var d map[string]any
		require.NoError(t, json.Unmarshal(e.Data, &d))
		d["arguments"] = args
		raw, err := json.Marshal(d)
		require.NoError(t, err)
		e.Data = raw
		return e
	}
	r := f.append(t, "shell",
		said("s", "user", "Bump the YAML library.", 0),
		sh("go test ./...", "missing go.sum entry for module providing package gopkg.in/yaml.v3", 1),
		sh("cat go.mod", "", 2),
		sh("go mod tidy", "", 3),
		sh("go test ./...", "", 4),
		sh("git commit -am bump", "", 5),
	)
	f.index(t, "shell")
	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "shell", Query: "go test fails with a missing go.sum entry: what fixed it?", Limit: 20})
	require.NoError(t, err)
	require.ElementsMatch(t, []string{memoryitem.EventID(r[2].Seq), memoryitem.EventID(r[3].Seq), memoryitem.EventID(r[4].Seq)}, remedyItems(t, res),
		"the look around, the fix and the retry; not the commit after it")
}

// TestReplyLane_ShowsNoAnswerGivenAfterAsOf: the reply lane follows a question to its answer
// only when the answer had been given by as_of (it once followed to the next message whenever
// it was said).
func TestReplyLane_ShowsNoAnswerGivenAfterAsOf(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	r := f.append(t, "asof",
		said("s", "assistant", "Which registry does your staging deploy push its images to?", 0),
		said("s", "user", "The internal Harbor instance at harbor.corp.", 30),
	)
	f.index(t, "asof")
	q := "Which registry do my staging images go to?"
	answer := memoryitem.EventID(r[1].Seq)
	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "asof", Query: q, Limit: 10})
	require.NoError(t, err)
	require.Equal(t, 1, res.Lanes[checkout.LaneReply].Count)
	before := time.Date(2026, 3, 2, 9, 10, 0, 0, time.UTC)
	res, err = f.svc.Query(ctx, &checkout.Request{SpaceID: "asof", Query: q, AsOf: &before, Limit: 10})
	require.NoError(t, err)
	require.Equal(t, 0, res.Lanes[checkout.LaneReply].Count)
	for _, it := range res.Items {
		require.NotEqual(t, answer, it.ItemID, "an answer given after as_of")
	}
}

// TestStableTier_LeavesToolStateToTheQueryTier: an agent's busiest tools' last outcomes are the
// most confirmed facts of its space. Under builtin-3 the stable tier holds the space's asserted
// knowledge and no tool's state; a question about a tool still finds its state in the query
// tier. Under builtin-2 the packet is what it was.
func TestStableTier_LeavesToolStateToTheQueryTier(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	evs := []eventloom.NewEvent{fact("deploy pipeline", "runs on", "GitHub Actions", "2026-01-01T00:00:00Z")}
	for i := range 12 {
		evs = append(evs, call("s", "read_file", "", i))
	}
	evs = append(evs, call("s", "billing_deploy", "back-off pulling image registry.local/billing", 30))
	f.append(t, "tools", evs...)
	f.index(t, "tools")
	stable := func(p *checkout.Packet) []string {
		var out []string
		for _, tier := range p.Tiers {
			if tier.Name == "stable" {
				for _, it := range tier.Items {
					out = append(out, it.Text)
				}
			}
		}
		return out
	}
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: "tools", Query: "Where does the deploy pipeline run?", NoRecord: true})
	require.NoError(t, err)
	require.Equal(t, []string{"deploy pipeline runs on GitHub Actions"}, stable(p))

	p, err = f.svc.Checkout(ctx, &checkout.Request{SpaceID: "tools", Query: "why did billing_deploy fail?", NoRecord: true})
	require.NoError(t, err)
	require.Contains(t, p.Text, "billing_deploy last_error back-off pulling image")
	require.False(t, slices.ContainsFunc(stable(p), func(s string) bool { return strings.Contains(s, "billing_deploy") }))

	two := checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), Policy: checkout.BuiltinPolicyOf("builtin-2")})
	p, err = two.Checkout(ctx, &checkout.Request{SpaceID: "tools", Query: "Where does the deploy pipeline run?", NoRecord: true})
	require.NoError(t, err)
	require.Equal(t, "read_file last_outcome success", stable(p)[0], "builtin-2 packs the most confirmed fact first, as it did")
}

// TestRemedyLane_FollowsOnlyAFailureTheQuestionIsAbout: a question that shares a word with a
// failed call but is about something else (here the person on call, answered in another
// session) does not pull the failure's fix and look around into the ranking; fusion reads ranks
// only, and in a small space every failure is among the keyword lane's first hits.
func TestRemedyLane_FollowsOnlyAFailureTheQuestionIsAbout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	seqs := remedySpace(t, f, "oncall", "release_schema_lock")
	r := f.append(t, "oncall",
		said("t3", "user", "Who is on call for the billing service this week?", 40),
		said("t3", "assistant", "Priya is on call for billing until Friday.", 41),
	)
	f.index(t, "oncall")

	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "oncall", Query: "Who is on call for billing?", Limit: 50})
	require.NoError(t, err)
	require.Empty(t, remedyItems(t, res), "no failure is what the question is about")
	var top []string
	for _, it := range res.Items[:2] {
		top = append(top, it.ItemID)
	}
	require.Contains(t, top, memoryitem.EventID(r[1].Seq), "the answer ranks beside the question it repeats")

	// A question about the failure still follows it.
	res, err = f.svc.Query(ctx, &checkout.Request{SpaceID: "oncall", Query: "billing_migrate fails with a lock timeout: what fixed it?", Limit: 50})
	require.NoError(t, err)
	require.Contains(t, remedyItems(t, res), memoryitem.EventID(seqs["fix"]))
}
