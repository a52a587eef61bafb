package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
)

// TestWeave_ShowsTheAnswerAfterAQuestionItSurfaces: an episode's ranked turn that asks
// something is followed in the weave by the turn after it in the session, its answer, though
// that shares no word with the query (the lanes rank the question, not the answer); the line
// says which one it follows. A ranked turn that asks nothing brings no neighbour, and an answer
// too long to show whole is left to the ranking.
func TestWeave_ShowsTheAnswerAfterAQuestionItSurfaces(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "exchanges"
	long := "Mostly quiet weeks. " + strings.Repeat("We cleaned the garage, sorted old boxes and drove the kids to practice. ", 5)
	rs := f.append(t, space,
		turn("s1", "Jon", "user", "Are you nervous about the studio opening night?"),
		turn("s1", "Gina", "assistant", "I'm excited! It's been a wild ride, but I'm ready."),
		turn("s1", "Jon", "user", "The studio opening night sold out in an hour."),
		turn("s1", "Gina", "assistant", "Congrats, that is huge news for the dance school."),
		turn("s2", "Jon", "user", "How was your week before the studio opening night?"),
		turn("s2", "Gina", "assistant", long),
		turn("s2", "Jon", "user", "Sounds busy."),
	)
	f.build(t, space)
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "studio opening night", Weave: true, MaxTokens: 2000, NoRecord: true})
	require.NoError(t, err)
	w := p.Weave
	shown := map[int64]checkout.WeaveEvidence{}
	var order []int64
	for _, ev := range w.Evidence {
		shown[ev.Citation.Seq] = ev
		order = append(order, ev.Citation.Seq)
	}
	question, answer := rs[0].Seq, rs[1].Seq
	require.Contains(t, shown, question, "the question ranks: %v", order)
	require.Contains(t, shown, answer, "its answer follows it: %v", order)
	require.Equal(t, question, shown[answer].Follows)
	require.Equal(t, shown[question].Ref+1, shown[answer].Ref, "right after it")
	require.Contains(t, w.Text, fmt.Sprintf("[W%d] I'm excited!", shown[answer].Ref))
	require.Zero(t, shown[question].Follows)
	// A statement brings no neighbour: its successor is shown only if ranked for itself.
	if ev, ok := shown[rs[3].Seq]; ok {
		require.Zero(t, ev.Follows, "a statement's successor is not shown as its answer")
	}
	// A question whose answer is too long to show whole does not bring it.
	require.Contains(t, shown, rs[4].Seq, "%v", order)
	if ev, ok := shown[rs[5].Seq]; ok {
		require.Zero(t, ev.Follows, "the long answer is not an exchange")
	}
	for _, ev := range w.Evidence {
		require.Contains(t, w.SourceEventRefs, ev.Citation, "evidence comes only from the woven artifacts' sources")
	}
	require.LessOrEqual(t, w.Budget.Used, w.Budget.Tokens)
}

// TestWeave_ShowsTheAnswerToAQuestionAtALongSessionsCut: the 48th event of a long session asks
// something; its episode runs on to the answer (latent segments), so the weave shows the
// answer after the question as within any episode.
func TestWeave_ShowsTheAnswerToAQuestionAtALongSessionsCut(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "cut-exchange"
	var evs []eventloom.NewEvent
	for i := range 60 {
		role, text := "user", fmt.Sprintf("Copied table number %d without trouble.", i)
		switch i {
		case 47:
			text = "Where did the billing ledger backup end up?"
		case 48:
			role, text = "assistant", "It sits in the cold storage bucket since Tuesday."
		}
		evs = append(evs, msg("long", role, text))
	}
	rs := f.append(t, space, evs...)
	f.build(t, space)
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "billing ledger backup", Weave: true, MaxTokens: 2000, NoRecord: true})
	require.NoError(t, err)
	shown := map[int64]checkout.WeaveEvidence{}
	for _, ev := range p.Weave.Evidence {
		shown[ev.Citation.Seq] = ev
	}
	question, answer := rs[47].Seq, rs[48].Seq
	require.Contains(t, shown, question, p.Weave.Text)
	require.Contains(t, shown, answer, "the answer follows the question across the 48-event mark: %s", p.Weave.Text)
	require.Equal(t, question, shown[answer].Follows)
}

// TestWeave_ShowsAnEpisodesLLMSummaryLabelled: an episode with an LLM-assisted summary (what the
// episode_summarize job stores) is woven with that summary in its inferred-context line,
// labelled with the model, and in its JSON; the evidence lines are the same events as without it.
func TestWeave_ShowsAnEpisodesLLMSummaryLabelled(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "llm-woven"
	f.append(t, space,
		turn("s1", "Jon", "user", "Are you nervous about the studio opening night?"),
		turn("s1", "Gina", "assistant", "I'm excited! It's been a wild ride, but I'm ready."),
	)
	f.build(t, space)
	ask := func() *checkout.Weave {
		p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "studio opening night", Weave: true, MaxTokens: 1000, NoRecord: true})
		require.NoError(t, err)
		require.Len(t, p.Weave.Inferred, 1)
		return p.Weave
	}
	plain := ask()
	require.Nil(t, plain.Inferred[0].LLMSummary)
	require.NotContains(t, plain.Text, "llm-assisted")
	_, err := f.pool.Exec(ctx, `INSERT INTO latent_llm_summaries (space_id, artifact_id, model, summary) VALUES ($1, $2, 'stand-in@1', 'Jon asked Gina about the opening; she is excited.')`,
		space, plain.Inferred[0].ArtifactID)
	require.NoError(t, err)
	woven := ask()
	require.Equal(t, &checkout.WeaveLLMSummary{Model: "stand-in@1", Summary: "Jon asked Gina about the opening; she is excited.", Method: "llm-assisted"}, woven.Inferred[0].LLMSummary)
	require.Contains(t, woven.Text, "(suggestive; llm-assisted summary by stand-in@1; confidence")
	require.Regexp(t, `\n- episode, \d{4}-\d\d-\d\d( to \d{4}-\d\d-\d\d)? \(suggestive; llm-assisted`, woven.Text, "the LLM summary follows the episode's date")
	require.Contains(t, woven.Text, "Jon asked Gina about the opening")
	require.Equal(t, plain.Evidence, woven.Evidence, "the summary is context, never evidence")
	require.LessOrEqual(t, woven.Budget.Used, woven.Budget.Tokens)
}

// TestWeave_AnEpisodesLineSaysWhenItHappened: an episode's inferred-context line is its time
// window (the evidence lines carry no date: "last Saturday" needs one), not a cut of its
// extractive summary, which stays whole in the JSON.
func TestWeave_AnEpisodesLineSaysWhenItHappened(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "episode-when"
	day := func(d time.Time, e eventloom.NewEvent) eventloom.NewEvent {
		e.OccurredAt = &d
		return e
	}
	may8 := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	may9 := time.Date(2023, 5, 9, 0, 30, 0, 0, time.UTC)
	f.append(t, space,
		day(may8, turn("s1", "Mel", "user", "I ran a charity race for mental health last Saturday.")),
		day(may8.Add(time.Minute), turn("s1", "Caro", "assistant", "That charity race sounds great, Mel!")),
		day(may8.Add(2*time.Minute), turn("s2", "Mel", "user", "Pottery class this week was relaxing.")),
		day(may9, turn("s2", "Caro", "assistant", "Pottery sounds like a lovely way to unwind.")),
	)
	f.build(t, space)
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "charity race pottery", Weave: true, MaxTokens: 1000, NoRecord: true})
	require.NoError(t, err)
	w := p.Weave
	require.Len(t, w.Inferred, 2)
	require.Contains(t, w.Text, "\n- episode, 2023-05-08 (suggestive; shown W", "one day: its date")
	require.Contains(t, w.Text, "\n- episode, 2023-05-08 to 2023-05-09 (suggestive; shown W", "across midnight: both dates")
	for _, a := range w.Inferred {
		require.NotEmpty(t, a.Summary, "the extractive summary stays in the JSON")
		require.NotContains(t, w.Text, "): "+a.Summary[:20], "the line shows no cut of the extractive summary")
	}
	require.NotContains(t, w.Text, "cited events", "how many events an episode cites tells a reader nothing")
	require.LessOrEqual(t, w.Budget.Used, w.Budget.Tokens)

	// A confidence revised below 1 is shown.
	f.revise(t, space, w.Inferred[0].ArtifactID, 0.4)
	p, err = f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "charity race pottery", Weave: true, MaxTokens: 1000, NoRecord: true})
	require.NoError(t, err)
	require.Contains(t, p.Weave.Text, "(suggestive; confidence 0.40; shown W")
}

// TestWeave_AFailurePatternShowsAFailureAndItsFix: a failure pattern's evidence lines are one of
// its failures, the calls that fixed it and the tool's next success, in order, not the failures
// the lanes ranked (a question about the error ranks every failure, and the fix shares no word
// with it). The failure shown is the fixed one the lanes ranked best.
func TestWeave_AFailurePatternShowsAFailureAndItsFix(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "w9"
	c := &traceClock{t: time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)}
	for i, wait := range []string{"30s", "45s", "60s"} {
		s := fmt.Sprintf("task-%d", i+1)
		evs := []eventloom.NewEvent{c.ev("message", s, "Ship the invoice rounding change.", map[string]string{"role": "user"}),
			c.tool(s, "go_build", ""),
			// The waits differ, so the failures are not one repeated item; the pattern masks them.
			c.tool(s, "migrate", "lock timeout waiting for schema_migrations after "+wait)}
		if i == 0 { // the agent looks around before it fixes (the failure the question ranks first)
			evs = append(evs, c.tool(s, "read_file", ""), c.tool(s, "grep", ""))
		}
		f.append(t, space, append(evs, c.tool(s, "release_lock", ""), c.tool(s, "migrate", ""))...)
	}
	f.build(t, space)
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "migrate: lock timeout waiting for schema_migrations after 30s",
		ReasoningPhase: checkout.PhaseAct, NoRecord: true})
	require.NoError(t, err)
	// The structured artifacts' lines come first, best artifact first: here the failure pattern's.
	var failure *checkout.WeaveArtifact
	for i, a := range p.Weave.Inferred {
		if a.Type != "episode" {
			failure = &p.Weave.Inferred[i]
			break
		}
	}
	require.NotNil(t, failure, p.Weave.Text)
	require.Equal(t, "failure", failure.Type, p.Weave.Text)
	require.GreaterOrEqual(t, len(p.Weave.Evidence), 3)
	lines := p.Weave.Evidence[:3]
	for _, ev := range lines {
		require.Contains(t, ev.ArtifactIDs, failure.ArtifactID)
	}
	require.Contains(t, lines[0].Text, "migrate failure")
	require.Contains(t, lines[1].Text, "release_lock success", "the fix, the call nearest the retry: %s", p.Weave.Text)
	require.Contains(t, lines[2].Text, "migrate success")
	require.Less(t, lines[0].Citation.Seq, lines[1].Citation.Seq)
	require.Less(t, lines[1].Citation.Seq, lines[2].Citation.Seq)
}

// TestWeave_ALineCitesTheLastRepeatOfItsEvent: an event the encoding gate found repeated later
// is shown once in the weave, and its line cites the last repeat as the item does in a tier
// ("when did it last fail?" is answered by the copy; before, the weave showed the first failure
// and took the item from the tiers, so the last one was in no packet with a weave).
func TestWeave_ALineCitesTheLastRepeatOfItsEvent(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "weave-repeats"
	fail := "dial tcp search-db:5432: connect: connection refused"
	rc := f.append(t, space,
		eventloom.NewEvent{Type: "gate.configured", Data: json.RawMessage(`{"mode":"on"}`)},
		call("s1", "search_test", fail, 1),
		said("s1", "assistant", "Restarted the search database.", 2),
		call("s1", "search_test", "", 3),
		call("s2", "search_test", fail, 10),
		call("s2", "search_test", "", 11),
		call("s3", "search_test", fail, 20),
		said("s3", "assistant", "Restarted it again.", 21),
	)
	f.index(t, space)
	f.build(t, space)
	first, last := rc[1], rc[6]
	q := fmt.Sprintf("When did search_test last fail with %q?", fail)
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: q, Weave: true, MaxTokens: 1000, NoRecord: true})
	require.NoError(t, err)
	var line *checkout.WeaveEvidence
	for i, ev := range p.Weave.Evidence {
		if ev.Citation.Seq == first.Seq {
			line = &p.Weave.Evidence[i]
		}
	}
	require.NotNil(t, line, "the failure is woven: %+v", p.Weave.Evidence)
	require.Equal(t, 2, line.Repeats)
	require.Equal(t, checkout.Citation{Seq: last.Seq, Hash: last.Hash}, *line.LastRepeat)
	require.Equal(t, []int64{first.Seq, last.Seq}, line.Seqs())
	require.Contains(t, p.Weave.Text, fmt.Sprintf("(repeated 2 times later; seq %d #", first.Seq))
	require.Contains(t, p.Weave.Text, fmt.Sprintf("; seq %d #%s)", last.Seq, line.LastRepeat.Hash.String()[:8]))
	require.Contains(t, p.Weave.Text, "(repeated once later; seq", "the success repeated once")
	requireVerified(t, f, space, []checkout.Citation{*line.LastRepeat})
	for _, tier := range p.Tiers {
		for _, it := range tier.Items {
			require.NotEqual(t, memoryitem.EventID(first.Seq), it.ItemID, "shown once")
		}
	}
	require.LessOrEqual(t, p.Weave.Budget.Used, p.Weave.Budget.Tokens)

	// The plain profile ranks each copy as itself: no line has repeats.
	p, err = f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: q, Weave: true, MaxTokens: 1000, NoRecord: true,
		RetrievalProfile: checkout.ProfilePlain})
	require.NoError(t, err)
	for _, ev := range p.Weave.Evidence {
		require.Zero(t, ev.Repeats)
		require.Nil(t, ev.LastRepeat)
	}
}

// TestWeave_ALongOutputIsOneLineAroundWhatTheQuestionAsks: the same long test log, failed in
// three sessions, is one evidence line (the failure pattern cites each run, and identical lines
// said the same thing three times), that line shows the failure's explanation from the middle of
// the log (the line looks for the question's words in the whole text, not only in its first
// 1,200 characters), and it says the log was repeated.
func TestWeave_ALongOutputIsOneLineAroundWhatTheQuestionAsks(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "weave-long-output"
	events := []eventloom.NewEvent{{Type: "gate.configured", Data: json.RawMessage(`{"mode":"on"}`)}}
	for _, s := range []string{"a", "b", "c"} {
		events = append(events, msg(s, "user", "Run the refund tests."),
			eventloom.NewEvent{Type: "tool_call.completed", SessionID: s, Content: testLog(),
				Data: json.RawMessage(`{"tool":"bash","arguments":"go test ./refund/...","outcome":"failure","error":"exit status 1"}`)})
	}
	f.append(t, space, events...)
	f.index(t, space)
	f.build(t, space)
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "Why was the second refund not idempotent?", Weave: true, MaxTokens: 1000, NoRecord: true})
	require.NoError(t, err)
	var logs []checkout.WeaveEvidence
	for _, ev := range p.Weave.Evidence {
		if ev.Kind == "tool_call.completed" {
			logs = append(logs, ev)
		}
	}
	require.Len(t, logs, 1, "one line for the three identical logs: %s", p.Weave.Text)
	require.Contains(t, logs[0].Text, "second refund of the same charge was not idempotent")
	require.Equal(t, 2, logs[0].Repeats)
	requireVerified(t, f, space, []checkout.Citation{logs[0].Citation, *logs[0].LastRepeat})
}

// TestWeave_ShowsWhatANamedSpeakerSaysAfterAStatement: under builtin-6 a ranked statement brings
// the next turn of its episode when a speaker the goal names says it (as the reply lane follows
// it); under builtin-5, and when the goal names no speaker, a statement brings nothing.
func TestWeave_ShowsWhatANamedSpeakerSaysAfterAStatement(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "weave-statements"
	rs := f.append(t, space,
		turn("s1", "Jon", "user", "The studio opening night sold out in an hour."),
		turn("s1", "Gina", "assistant", "Congrats, that is huge news for your dance school!"),
		turn("s1", "Jon", "user", "Thanks. I also repainted the lobby."),
		turn("s2", "Gina", "assistant", "My store's new line sold out too."),
	)
	f.build(t, space)
	statement, next := rs[0].Seq, rs[1].Seq
	weave := func(version, goal string) map[int64]checkout.WeaveEvidence {
		t.Helper()
		svc := checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), Policy: checkout.BuiltinPolicyOf(version)})
		p, err := svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: goal, Weave: true, MaxTokens: 2000, NoRecord: true})
		require.NoError(t, err)
		shown := map[int64]checkout.WeaveEvidence{}
		for _, ev := range p.Weave.Evidence {
			shown[ev.Citation.Seq] = ev
		}
		require.Contains(t, shown, statement, "the statement ranks")
		return shown
	}
	const named = "What did Gina say when the studio opening night sold out?"
	six := weave("builtin-6", named)
	require.Contains(t, six, next)
	require.Equal(t, statement, six[next].Follows, "Gina's turn follows Jon's statement")
	require.Equal(t, six[statement].Ref+1, six[next].Ref)
	if ev, ok := weave("builtin-5", named)[next]; ok {
		require.Zero(t, ev.Follows, "builtin-5 follows only questions")
	}
	if ev, ok := weave("builtin-6", "When did the studio opening night sell out?")[next]; ok {
		require.Zero(t, ev.Follows, "no speaker named: no statement followed")
	}
}

// TestWeave_ShowsTheReplyLanesBestAnswersFirst: an answer shares no word with a question about
// it, so only the reply lane ranks it (by the question before it) and fusion sets it below the
// turns several lanes rank. Under builtin-7 the weave shows the reply lane's best answers first;
// under builtin-6 a small weave has no room for it. A packet without a weave ranks and reads the
// same under both.
func TestWeave_ShowsTheReplyLanesBestAnswersFirst(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "weave-reply-answers"
	var events []eventloom.NewEvent
	// More turns about the painting than the vector lane ranks, so that only the reply lane
	// ranks the answer.
	for i := range 110 {
		verb := []string{"hung", "sold a print of", "varnished", "photographed", "framed", "signed"}[i%6]
		events = append(events, turn("s1", "Ana", "user", fmt.Sprintf("On day %d I %s the lighthouse painting for the show.", i+1, verb)))
	}
	events = append(events,
		turn("s1", "Ben", "assistant", "Your lighthouse painting is lovely! What inspired it?"),
		turn("s1", "Ana", "user", "A walk along the cliffs at dawn with my grandfather."),
		turn("s1", "Ben", "assistant", "Beautiful. Shall we frame it this week?"),
	)
	rs := f.append(t, space, events...)
	f.build(t, space)
	answer := rs[111].Seq
	const goal = "What inspired Ana's lighthouse painting for the show?"
	checkoutWith := func(version string, weave bool, tokens int) *checkout.Packet {
		t.Helper()
		svc := checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), Policy: checkout.BuiltinPolicyOf(version)})
		p, err := svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: goal, Weave: weave, MaxTokens: tokens, NoRecord: true})
		require.NoError(t, err)
		return p
	}
	refOf := func(p *checkout.Packet) int {
		for _, ev := range p.Weave.Evidence {
			if ev.Citation.Seq == answer {
				return ev.Ref
			}
		}
		return 0
	}
	seven := checkoutWith("builtin-7", true, 300)
	require.Equal(t, 1, refOf(seven), "the reply lane's best answer is the weave's first line: %s", seven.Weave.Text)
	requireVerified(t, f, space, []checkout.Citation{seven.Weave.Evidence[0].Citation})
	six := checkoutWith("builtin-6", true, 300)
	require.NotEqual(t, 1, refOf(six), "builtin-6 shows the answer by its fused rank: %s", six.Weave.Text)
	plainSix, plainSeven := checkoutWith("builtin-6", false, 300), checkoutWith("builtin-7", false, 300)
	require.Equal(t, plainSix.Text, plainSeven.Text, "without a weave builtin-7 packs as builtin-6")
}
