package checkout_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/vocab"
)

// traceClock spaces scripted events a minute apart.
type traceClock struct{ t time.Time }

func (c *traceClock) ev(typ, session, content string, data any) eventloom.NewEvent {
	c.t = c.t.Add(time.Minute)
	at := c.t
	e := eventloom.NewEvent{Type: typ, SessionID: session, Content: content, OccurredAt: &at}
	if data != nil {
		raw, err := json.Marshal(data)
		if err != nil {
			panic(err)
		}
		e.Data = raw
	}
	return e
}

func (c *traceClock) tool(session, tool, errText string) eventloom.NewEvent {
	d := map[string]string{"tool": tool, "outcome": "success"}
	if errText != "" {
		d["outcome"], d["error"] = "failure", errText
	}
	return c.ev("tool_call.completed", session, "", d)
}

// seedTraces scripts an agent's sessions on a billing service: in each of four sessions the
// same build → test → lint procedure, and in three of them migrate failing on a lock timeout
// and fixed by releasing the lock; one session records a decision that the failure followed.
func seedTraces(t *testing.T, f *fixture, space string) {
	t.Helper()
	c := &traceClock{t: time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)}
	for i := 1; i <= 4; i++ {
		s := fmt.Sprintf("task-%d", i)
		evs := []eventloom.NewEvent{
			c.ev("message", s, fmt.Sprintf("Task %d: change the billing service invoice rounding and ship it.", i), map[string]string{"role": "user"}),
		}
		if i == 2 {
			evs = append(evs, c.ev("decision.recorded", s, "", map[string]string{"decision": "run the billing schema migration before the tests"}))
		}
		evs = append(evs, c.tool(s, "go_build", ""), c.tool(s, "go_test", ""), c.tool(s, "golangci_lint", ""))
		if i <= 3 {
			evs = append(evs,
				c.tool(s, "migrate", "lock timeout waiting for schema_migrations after 30s"),
				c.tool(s, "release_lock", ""),
				c.tool(s, "migrate", ""),
				c.ev("message", s, "The billing migration failed on a lock timeout; releasing the stale schema lock fixed it.", map[string]string{"role": "assistant"}))
		}
		f.append(t, space, evs...)
	}
}

// build projects the space, derives its artifacts and projects again (the build appends its
// proposals), as the workers do.
func (f *fixture) build(t *testing.T, space string) {
	t.Helper()
	ctx := context.Background()
	f.index(t, space)
	b, err := latent.NewBuilder(ctx, f.pool, f.store, latent.Config{})
	require.NoError(t, err)
	_, err = b.Build(ctx, space)
	require.NoError(t, err)
	f.index(t, space)
}

// requireVerified checks that every citation resolves to an event of space with that hash,
// not erased or invalidated, and that the space's chain verifies.
func requireVerified(t *testing.T, f *fixture, space string, cites []checkout.Citation) {
	t.Helper()
	ctx := context.Background()
	for _, c := range cites {
		var hash []byte
		var erased *int64
		var invalidated bool
		require.NoError(t, f.pool.QueryRow(ctx, `SELECT hash, erased_by_seq, EXISTS (SELECT FROM invalidations i WHERE i.space_id = e.space_id AND i.target_seq = e.seq)
			FROM events e WHERE space_id = $1 AND seq = $2`, space, c.Seq).Scan(&hash, &erased, &invalidated), "seq %d", c.Seq)
		require.Equal(t, hex.EncodeToString(hash), c.Hash.String(), "seq %d", c.Seq)
		require.Nil(t, erased, "seq %d", c.Seq)
		require.False(t, invalidated, "seq %d", c.Seq)
	}
	v, err := f.store.Verify(ctx, space)
	require.NoError(t, err)
	require.True(t, v.OK)
}

func TestWeave_CitesOnlyVerifiedEventsAndLabelsLatentContext(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	seedTraces(t, f, "w1")
	f.build(t, "w1")

	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: "w1", Query: "the billing migration failed with a lock timeout", ReasoningPhase: checkout.PhaseAct})
	require.NoError(t, err)
	w := p.Weave
	require.NotNil(t, w)
	require.Len(t, w.WeaveID, 64)
	require.Equal(t, checkout.PhaseAct, w.ReasoningPhase)
	require.NotEmpty(t, w.Inferred)
	require.NotEmpty(t, w.Evidence)
	types := map[string]bool{}
	for _, a := range w.Inferred {
		types[a.Type] = true
		require.Equal(t, "suggestive", a.Label)
		require.Equal(t, "non_authoritative", a.Authority)
		require.NotEmpty(t, a.Citations, "an artifact is never woven without its sources")
		requireVerified(t, f, "w1", a.Citations)
	}
	require.True(t, types["failure"], "the failure pattern is woven: %v", types)
	requireVerified(t, f, "w1", w.SourceEventRefs)
	for _, ev := range w.Evidence {
		require.Contains(t, w.SourceEventRefs, ev.Citation, "evidence comes only from the woven artifacts' sources")
		require.NotEmpty(t, ev.ArtifactIDs)
		require.Contains(t, w.Text, fmt.Sprintf("[W%d] ", ev.Ref))
	}
	require.Contains(t, w.Text, "Inferred context (suggestive")
	require.Contains(t, w.Text, "Expected use: "+checkout.WeaveExpectedUse)
	require.Contains(t, w.Text, "Prohibited use: "+checkout.WeaveProhibitedUse)
	require.True(t, strings.HasSuffix(p.Text, w.Text), "the weave is rendered after the tiers")
	require.LessOrEqual(t, w.Budget.Used, w.Budget.Tokens)
	require.LessOrEqual(t, p.Budget.Used, p.Budget.Requested)
	// Events the weave shows are not repeated in the tiers.
	for _, tier := range p.Tiers {
		for _, it := range tier.Items {
			for _, ev := range w.Evidence {
				require.NotEqual(t, memoryitem.EventID(ev.Citation.Seq), it.ItemID)
			}
		}
	}
	// The surfacing records the weave beside (not among) the surfaced items.
	var data struct {
		Items []struct {
			ItemID string `json:"item_id"`
		} `json:"items"`
		Weave *checkout.SurfacedWeave `json:"weave"`
	}
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT data FROM events WHERE space_id = 'w1' AND seq = $1`, p.SurfacedSeq).Scan(&data))
	require.NotNil(t, data.Weave)
	require.Equal(t, w.WeaveID, data.Weave.WeaveID)
	require.Equal(t, w.ArtifactIDs, data.Weave.ArtifactIDs)
	for _, it := range data.Items {
		require.False(t, strings.HasPrefix(it.ItemID, "artifact:"))
	}

	// The weave_memory action returns the same kind of weave and records it.
	wm, err := f.svc.WeaveMemory(ctx, &checkout.StepRequest{SpaceID: "w1", Goal: "the billing migration failed with a lock timeout", ReasoningPhase: checkout.PhaseAct})
	require.NoError(t, err)
	require.NotZero(t, wm.SurfacedSeq)
	require.NotEmpty(t, wm.ArtifactIDs)
	requireVerified(t, f, "w1", wm.SourceEventRefs)
	var typ string
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT type FROM events WHERE space_id = 'w1' AND seq = $1`, wm.SurfacedSeq).Scan(&typ))
	require.Equal(t, checkout.SurfacedType, typ)
}

func TestWeave_InvalidatedSourceStalesItsArtifactsAndLeavesTheWeave(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	seedTraces(t, f, "w2")
	f.build(t, "w2")
	req := func() *checkout.StepRequest {
		return &checkout.StepRequest{SpaceID: "w2", Goal: "the billing migration failed with a lock timeout", ReasoningPhase: checkout.PhaseAct, NoRecord: true}
	}
	before, err := f.svc.WeaveMemory(ctx, req())
	require.NoError(t, err)
	var failureID string
	var target int64
	for _, a := range before.Inferred {
		if a.Type == "failure" {
			failureID, target = a.ArtifactID, a.Citations[0].Seq
		}
	}
	require.NotEmpty(t, failureID, "the failure pattern is woven before the invalidation")
	require.Empty(t, before.Rejected)

	f.append(t, "w2", eventloom.NewEvent{Type: "memory.invalidated", Data: json.RawMessage(fmt.Sprintf(`{"target_seq":%d,"reason":"the log line was misattributed"}`, target))})
	citing := func(w *checkout.Weave) bool {
		for _, c := range w.SourceEventRefs {
			if c.Seq == target {
				return true
			}
		}
		return false
	}
	rejected := func(w *checkout.Weave, id string) *checkout.RejectedArtifact {
		for i := range w.Rejected {
			if w.Rejected[i].ArtifactID == id {
				return &w.Rejected[i]
			}
		}
		return nil
	}

	// Before any projection or rebuild: the weave verifies sources at query time.
	now, err := f.svc.WeaveMemory(ctx, req())
	require.NoError(t, err)
	require.NotContains(t, now.ArtifactIDs, failureID)
	require.False(t, citing(now), "no woven artifact cites the invalidated event")
	r := rejected(now, failureID)
	require.NotNil(t, r, "the rejection is reported")
	require.Equal(t, "stale", r.Reason)
	require.Contains(t, r.Detail, "invalidated")

	// After the projection and the artifact build: the artifact itself is stale.
	f.build(t, "w2")
	var staleReason *string
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT stale_reason FROM latent_artifacts WHERE space_id = 'w2' AND artifact_id = $1`, failureID).Scan(&staleReason))
	require.NotNil(t, staleReason)
	require.Equal(t, "invalidated", *staleReason)
	after, err := f.svc.WeaveMemory(ctx, req())
	require.NoError(t, err)
	require.NotContains(t, after.ArtifactIDs, failureID)
	require.False(t, citing(after))
	for _, a := range after.Inferred {
		requireVerified(t, f, "w2", a.Citations)
	}
	var warned bool
	for _, wr := range after.Warnings {
		warned = warned || (wr.Code == checkout.WeaveWarnStale && wr.ItemID == "artifact:"+failureID)
	}
	require.True(t, warned, "a stale warning names the rejected artifact: %+v", after.Warnings)
	requireSourcesFollowArtifacts(t, f, "w2")
}

// requireSourcesFollowArtifacts checks that latent_sources (kept by triggers, migration
// 000021) holds exactly the (seq, artifact) pairs of space's artifacts.
func requireSourcesFollowArtifacts(t *testing.T, f *fixture, space string) {
	t.Helper()
	var missing, extra, n int
	require.NoError(t, f.pool.QueryRow(context.Background(), `
		WITH want AS (SELECT s.seq, a.artifact_id FROM latent_artifacts a CROSS JOIN unnest(a.source_seqs) s (seq) WHERE a.space_id = $1),
		     have AS (SELECT seq, artifact_id FROM latent_sources WHERE space_id = $1)
		SELECT (SELECT count(*) FROM (SELECT * FROM want EXCEPT SELECT * FROM have) x),
		       (SELECT count(*) FROM (SELECT * FROM have EXCEPT SELECT * FROM want) y),
		       (SELECT count(*) FROM have)`, space).Scan(&missing, &extra, &n))
	require.Zero(t, missing)
	require.Zero(t, extra)
	require.Positive(t, n)
}

func TestCheckout_WithoutWeaveIsByteIdenticalWhateverTheArtifacts(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	seedTraces(t, f, "w3")
	f.build(t, "w3")
	asOf := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	packet := func() []byte {
		p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: "w3", Query: "the billing migration failed with a lock timeout", AsOf: &asOf, NoRecord: true})
		require.NoError(t, err)
		require.Nil(t, p.Weave)
		p.Diagnostics.TotalMS = 0
		for k, l := range p.Diagnostics.Lanes {
			l.MS = 0
			p.Diagnostics.Lanes[k] = l
		}
		b, err := json.Marshal(p)
		require.NoError(t, err)
		require.NotContains(t, string(b), `"weave"`)
		return b
	}
	var n int
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT count(*) FROM latent_current WHERE space_id = 'w3'`).Scan(&n))
	require.Positive(t, n)
	withArtifacts := packet()
	_, err := f.pool.Exec(ctx, `DELETE FROM latent_artifacts WHERE space_id = 'w3'`)
	require.NoError(t, err)
	require.Equal(t, string(withArtifacts), string(packet()), "a default checkout never reads artifacts")

	// And the weave is opt-in: weave true or a phase.
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: "w3", Query: "billing", AsOf: &asOf, NoRecord: true, Weave: true})
	require.NoError(t, err)
	require.NotNil(t, p.Weave)
	require.Empty(t, p.Weave.Inferred, "no artifacts, nothing woven")
	_, err = f.svc.Checkout(ctx, &checkout.Request{SpaceID: "w3", Query: "billing", ReasoningPhase: "dream"})
	require.ErrorContains(t, err, "reasoning_phase")
	_, err = f.svc.WeaveMemory(ctx, &checkout.StepRequest{SpaceID: "w3", Goal: " "})
	var ve *eventloom.ValidationError
	require.ErrorAs(t, err, &ve)
	require.Equal(t, "goal", ve.Field, "a step request's errors name its own field")
}

func TestProspective_ReturnsPriorsForMinedProceduresAndFailures(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	seedTraces(t, f, "w4")
	f.build(t, "w4")

	p, err := f.svc.Prospective(ctx, &checkout.StepRequest{SpaceID: "w4", Goal: "build, test and lint the billing service, then run the schema migrate",
		ReasoningPhase: checkout.PhasePlan})
	require.NoError(t, err)
	require.NotNil(t, p.Weave)
	require.NotEmpty(t, p.ProcedurePriors)
	top := p.ProcedurePriors[0]
	require.Equal(t, []string{"go_build", "go_test", "golangci_lint"}, top.Steps[:3])
	require.GreaterOrEqual(t, top.Sessions, 3)
	require.Equal(t, "suggestive", top.Label)
	requireVerified(t, f, "w4", top.Citations)

	require.NotEmpty(t, p.FailurePriors)
	fp := p.FailurePriors[0]
	require.Equal(t, "migrate", fp.Tool)
	require.Len(t, fp.Last, 3)
	require.True(t, slices.IsSortedFunc(fp.Last, func(a, b checkout.FailureOccurrence) int { return int(b.FailureSeq - a.FailureSeq) }), "newest first")
	require.Contains(t, fp.Text, "last 3 times migrate failed because: lock timeout waiting for schema_migrations after 30s")
	require.Equal(t, []string{"release_lock"}, fp.Fix)
	requireVerified(t, f, "w4", fp.Citations)

	require.NotEmpty(t, p.CausalContext, "the decision → failure link")
	requireVerified(t, f, "w4", p.CausalContext[0].Citations)
	require.Equal(t, checkout.EstimateTokens(p.Text), p.TokenEstimate)
	require.Contains(t, p.Text, "## Procedure priors (suggestive)")
	require.Contains(t, p.Text, "## Failure priors (suggestive)")
	require.NotZero(t, p.SurfacedSeq)
	// The record lists the priors, each with the tools it is about, for the retrospective pass.
	var rec struct {
		Priors []vocab.SurfacedArtifact `json:"priors"`
	}
	var data []byte
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT data FROM events WHERE space_id = 'w4' AND seq = $1`, p.SurfacedSeq).Scan(&data))
	require.NoError(t, json.Unmarshal(data, &rec))
	require.Len(t, rec.Priors, len(p.ProcedurePriors)+len(p.FailurePriors)+len(p.CausalContext))
	require.Equal(t, top.ArtifactID, rec.Priors[0].ArtifactID)
	require.Equal(t, top.Steps, rec.Priors[0].Tools, "a procedure's steps")
	require.Equal(t, fp.ArtifactID, rec.Priors[len(p.ProcedurePriors)].ArtifactID)
	require.Equal(t, []string{"migrate"}, rec.Priors[len(p.ProcedurePriors)].Tools, "a failure pattern's tool")
	require.Equal(t, seqsOfCitations(fp.Citations), rec.Priors[len(p.ProcedurePriors)].Seqs)

	// A goal memory knows nothing about gets explicit missing-evidence warnings, not priors.
	q, err := f.svc.Prospective(ctx, &checkout.StepRequest{SpaceID: "w4", Goal: "translate the onboarding handbook into Portuguese", NoRecord: true})
	require.NoError(t, err)
	require.Empty(t, q.ProcedurePriors)
	require.Empty(t, q.FailurePriors)
	require.GreaterOrEqual(t, len(q.MissingEvidence), 2)
	require.Contains(t, q.Text, "## Missing evidence")
}

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

// TestWeave_VerifiesAtMost384CitedEvents: the weave reads in full and verifies the best scored
// artifacts only while they cite 384 events together. Ten full episodes (48 events each) each
// hold a ranked event; a budget that fits them all still weaves eight, citing 384 events.
func TestWeave_VerifiesAtMost384CitedEvents(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "weave-verify-cap"
	var evs []eventloom.NewEvent
	for s := range 10 {
		session := fmt.Sprintf("s%d", s)
		evs = append(evs, turn(session, "Ana", "user", fmt.Sprintf("The zebra crossing near depot %d needs new paint.", s)))
		for i := range latent.EpisodeMaxEvents - 1 {
			evs = append(evs, turn(session, "Bo", "assistant", fmt.Sprintf("Noted item %d of session %d about the schedule.", i, s)))
		}
	}
	f.append(t, space, evs...)
	f.build(t, space)
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "zebra crossing paint", Weave: true, MaxTokens: 20000, NoRecord: true})
	require.NoError(t, err)
	w := p.Weave
	require.Equal(t, 8, len(w.Inferred), "384 cited events are eight full episodes")
	require.Equal(t, 384, len(w.SourceEventRefs))
	require.Zero(t, w.Budget.Omitted, "the budget left none out")
	for _, a := range w.Inferred {
		require.Len(t, a.Citations, latent.EpisodeMaxEvents)
	}
}

func seqsOfCitations(cs []checkout.Citation) []int64 {
	out := make([]int64, len(cs))
	for i, c := range cs {
		out[i] = c.Seq
	}
	return out
}

// revise appends a memory.confidence_revised of artifact id for each of cs, in order, naming
// the artifact's slot as revise_confidence does.
func (f *fixture) revise(t *testing.T, space, id string, cs ...float64) {
	t.Helper()
	var slot string
	require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT slot FROM latent_artifacts WHERE space_id = $1 AND artifact_id = $2`,
		space, id).Scan(&slot))
	for _, c := range cs {
		data, err := json.Marshal(vocab.MemoryConfidenceRevised{Artifact: vocab.ArtifactRef{Key: slot, ID: id}, Confidence: c, Reason: "judged"})
		require.NoError(t, err)
		f.append(t, space, eventloom.NewEvent{Type: vocab.TypeMemoryConfidenceRevised, Data: data})
	}
}

// TestProspective_RanksPriorsByTheirLatestConfidenceRevision: a revision of a prior's
// confidence (revise_confidence, or the retrospective pass judging an outcome) is what the
// pass ranks and shows it by from then on; the artifact row, and produced_confidence, keep the
// producer's.
func TestProspective_RanksPriorsByTheirLatestConfidenceRevision(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	seedTraces(t, f, "w6")
	f.build(t, "w6")
	req := &checkout.StepRequest{SpaceID: "w6", Goal: "build, test and lint the billing service, then run the schema migrate",
		ReasoningPhase: checkout.PhasePlan, NoRecord: true}
	before, err := f.svc.Prospective(ctx, req)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(before.ProcedurePriors), 2)
	top := before.ProcedurePriors[0]
	require.Equal(t, top.ProducedConfidence, top.Confidence, "no revision yet")

	second := before.ProcedurePriors[1]
	revise := func(id string, cs ...float64) { f.revise(t, "w6", id, cs...) }
	revise(top.ArtifactID, 0.5, 0.02) // the latest one counts
	revise(second.ArtifactID, 0.99)
	after, err := f.svc.Prospective(ctx, req)
	require.NoError(t, err)
	first := after.ProcedurePriors[0]
	require.Equal(t, second.ArtifactID, first.ArtifactID, "the procedure revised up comes first")
	require.InDelta(t, 0.99, first.Confidence, 1e-9)
	require.Equal(t, second.ProducedConfidence, first.ProducedConfidence, "the artifact row keeps the producer's")
	require.Contains(t, after.Text, "confidence 0.99")
	for _, p := range after.ProcedurePriors {
		if p.ArtifactID == top.ArtifactID {
			require.InDelta(t, 0.02, p.Confidence, 1e-9, "the latest revision, not the first")
		}
	}
}

// TestWeave_RanksAndShowsArtifactsByTheirLatestConfidenceRevision: the weave ranks, shows and
// warns by an artifact's latest confidence revision (revise_confidence, or the retrospective
// pass judging an outcome), as the prospective pass's priors do; produced_confidence keeps the
// producer's.
func TestWeave_RanksAndShowsArtifactsByTheirLatestConfidenceRevision(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	seedTraces(t, f, "w7")
	f.build(t, "w7")
	req := &checkout.Request{SpaceID: "w7", Query: "the billing migration failed with a lock timeout", ReasoningPhase: checkout.PhaseAct, NoRecord: true}
	// structured lists the woven artifacts other than episodes, in the weave's order.
	structured := func(w *checkout.Weave) []checkout.WeaveArtifact {
		var out []checkout.WeaveArtifact
		for _, a := range w.Inferred {
			if a.Type != "episode" {
				out = append(out, a)
			}
		}
		return out
	}
	lowConfidence := func(w *checkout.Weave, id string) bool {
		return slices.ContainsFunc(w.Warnings, func(x checkout.Warning) bool {
			return x.Code == checkout.WeaveWarnLowConfidence && x.ItemID == "artifact:"+id
		})
	}
	before, err := f.svc.Checkout(ctx, req)
	require.NoError(t, err)
	arts := structured(before.Weave)
	require.GreaterOrEqual(t, len(arts), 2)
	failure, causal := arts[0], arts[len(arts)-1]
	require.Equal(t, "failure", failure.Type)
	require.Equal(t, "causal", causal.Type)
	for _, a := range arts {
		require.Equal(t, a.ProducedConfidence, a.Confidence, "no revision yet")
	}
	require.True(t, lowConfidence(before.Weave, causal.ArtifactID))
	require.False(t, lowConfidence(before.Weave, failure.ArtifactID))

	revise := func(id string, cs ...float64) { f.revise(t, "w7", id, cs...) }
	revise(failure.ArtifactID, 0.9, 0.2) // the latest one counts
	revise(causal.ArtifactID, 0.95)
	after, err := f.svc.Checkout(ctx, req)
	require.NoError(t, err)
	arts = structured(after.Weave)
	require.Equal(t, "procedure", arts[0].Type, "the failure pattern blamed down falls behind the procedures it led")
	require.Equal(t, failure.ArtifactID, arts[len(arts)-2].ArtifactID)
	byID := map[string]checkout.WeaveArtifact{}
	for _, a := range arts {
		byID[a.ArtifactID] = a
	}
	require.InDelta(t, 0.95, byID[causal.ArtifactID].Confidence, 1e-9)
	require.InDelta(t, 0.2, byID[failure.ArtifactID].Confidence, 1e-9, "the latest revision, not the first")
	require.Equal(t, failure.ProducedConfidence, byID[failure.ArtifactID].ProducedConfidence, "the artifact row keeps the producer's")
	require.Contains(t, after.Weave.Text, "- causal (suggestive; confidence 0.95;")
	require.Contains(t, after.Weave.Text, "- failure (suggestive; confidence 0.20;")
	require.True(t, lowConfidence(after.Weave, failure.ArtifactID), "blamed below 0.5: a hypothesis now")
	require.False(t, lowConfidence(after.Weave, causal.ArtifactID))
}

// TestConfidenceRevision_CarriesOverToANewAddressOfTheSameSlotAndSources: a revision names the
// artifact's slot and the digest of its sources beside its id, so what was learned about it
// holds when the artifact is re-addressed with the same slot and sources (as a new producer
// version re-addresses every artifact), in the priors and in the weave; a revision of the slot
// with other sources (another version of it, other evidence) does not.
func TestConfidenceRevision_CarriesOverToANewAddressOfTheSameSlotAndSources(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "w8"
	seedTraces(t, f, space)
	f.build(t, space)
	req := &checkout.StepRequest{SpaceID: space, Goal: "build, test and lint the billing service, then run the schema migrate",
		ReasoningPhase: checkout.PhasePlan, NoRecord: true}
	before, err := f.svc.Prospective(ctx, req)
	require.NoError(t, err)
	require.NotEmpty(t, before.ProcedurePriors)
	old := before.ProcedurePriors[0]

	var slot string
	var seqs []int64
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT slot, source_seqs FROM latent_artifacts WHERE space_id = $1 AND artifact_id = $2`,
		space, old.ArtifactID).Scan(&slot, &seqs))
	revise := func(id, sources string, c float64) int64 {
		data, err := json.Marshal(vocab.MemoryConfidenceRevised{Artifact: vocab.ArtifactRef{Key: slot, ID: id, SourcesSHA256: sources},
			Confidence: c, Reason: "judged"})
		require.NoError(t, err)
		return f.append(t, space, eventloom.NewEvent{Type: vocab.TypeMemoryConfidenceRevised, Data: data})[0].Seq
	}
	revise(old.ArtifactID, vocab.SourcesDigest(seqs), 0.31)
	// A later revision, erased: the 0.31 holds again.
	erased := revise(old.ArtifactID, vocab.SourcesDigest(seqs), 0.05)
	_, err = erasure.New(f.pool, f.store, f.proj, nil).Erase(ctx, &eventloom.EraseParams{SpaceID: space, Seq: erased, Reason: "revised by mistake"})
	require.NoError(t, err)
	f.build(t, space) // the erasure rebuilt the projections; the workers derive the artifacts again
	// Another version of the slot, citing other events: its revision is not this one's.
	revise(strings.Repeat("0", 64), vocab.SourcesDigest(seqs[:len(seqs)-1]), 0.99)
	// Nor is a revision in another space naming this slot, these sources and even this id.
	forged, err := json.Marshal(vocab.MemoryConfidenceRevised{Artifact: vocab.ArtifactRef{Key: slot, ID: old.ArtifactID,
		SourcesSHA256: vocab.SourcesDigest(seqs)}, Confidence: 0.01, Reason: "forged"})
	require.NoError(t, err)
	// Its seq is past every seq of this space, so only the space keeps it out.
	var head int64
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT max(seq) FROM events WHERE space_id = $1`, space).Scan(&head))
	filler := make([]eventloom.NewEvent, head+1)
	for i := range filler {
		filler[i] = msg("s", "user", fmt.Sprintf("filler %d", i))
	}
	f.append(t, space+"-other", filler...)
	f.append(t, space+"-other", eventloom.NewEvent{Type: vocab.TypeMemoryConfidenceRevised, Data: forged})

	// Re-address the artifact as a new producer version would: same row, same slot and
	// sources, another id.
	newID := strings.Repeat("ab", 32)
	_, err = f.pool.Exec(ctx, `WITH old AS (DELETE FROM latent_artifacts WHERE space_id = $1 AND artifact_id = $2 RETURNING *)
		INSERT INTO latent_artifacts SELECT (jsonb_populate_record(NULL::latent_artifacts, to_jsonb(o) || jsonb_build_object('artifact_id', $3::text))).* FROM old o`,
		space, old.ArtifactID, newID)
	require.NoError(t, err)

	after, err := f.svc.Prospective(ctx, req)
	require.NoError(t, err)
	var got *checkout.Prior
	for i := range after.ProcedurePriors {
		if after.ProcedurePriors[i].ArtifactID == newID {
			got = &after.ProcedurePriors[i]
		}
	}
	require.NotNil(t, got, "the re-addressed procedure is still a prior")
	require.InDelta(t, 0.31, got.Confidence, 1e-9, "the revision of its old address holds, not the other version's")
	require.Equal(t, old.ProducedConfidence, got.ProducedConfidence)
	woven := false
	for _, a := range after.Weave.Inferred {
		if a.ArtifactID == newID {
			woven = true
			require.InDelta(t, 0.31, a.Confidence, 1e-9, "the weave reads the same revision")
		}
	}
	require.True(t, woven, "the procedure is woven: %s", after.Weave.Text)

	// The digest SQL computes is the one Go writes.
	var digest string
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT zaxy_artifact_sources_digest($1)`, seqs).Scan(&digest))
	require.Equal(t, vocab.SourcesDigest(seqs), digest)
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

// TestWeave_AsOfWeavesOnlyWhatHadHappenedByThen: a checkout asked about another time gets a
// weave of the artifacts whose every source had occurred by then. The failure pattern, mined
// from failures before and after as_of, is left out with an after_as_of diagnostic; the first
// session's episode, over by then, is woven; no citation of the weave occurred after as_of.
func TestWeave_AsOfWeavesOnlyWhatHadHappenedByThen(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "w-asof"
	seedTraces(t, f, space)
	f.build(t, space)
	q := "the billing migration failed with a lock timeout"
	now, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: q, ReasoningPhase: checkout.PhaseAct, NoRecord: true})
	require.NoError(t, err)
	failure := ""
	for _, a := range now.Weave.Inferred {
		if a.Type == "failure" {
			failure = a.ArtifactID
		}
	}
	require.NotEmpty(t, failure, "without as_of the failure pattern is woven")

	asOf := time.Date(2026, 2, 1, 9, 15, 30, 0, time.UTC) // in the second of four sessions
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: q, ReasoningPhase: checkout.PhaseAct, NoRecord: true, AsOf: &asOf})
	require.NoError(t, err)
	w := p.Weave
	occurred := func(c checkout.Citation) time.Time {
		var at time.Time
		require.NoError(t, f.pool.QueryRow(ctx, `SELECT occurred_at FROM events WHERE space_id = $1 AND seq = $2`, space, c.Seq).Scan(&at))
		return at
	}
	require.NotEmpty(t, w.Inferred, w.Text)
	for _, a := range w.Inferred {
		require.NotEqual(t, failure, a.ArtifactID)
		for _, c := range a.Citations {
			require.False(t, occurred(c).After(asOf), "artifact %s cites seq %d", a.ArtifactID, c.Seq)
		}
	}
	for _, c := range w.SourceEventRefs {
		require.False(t, occurred(c).After(asOf), "seq %d", c.Seq)
	}
	var rejected *checkout.RejectedArtifact
	for i, r := range w.Rejected {
		if r.ArtifactID == failure {
			rejected = &w.Rejected[i]
		}
	}
	require.NotNil(t, rejected, "the failure pattern is rejected with a diagnostic: %+v", w.Rejected)
	require.Equal(t, "after_as_of", rejected.Reason)
	require.True(t, occurred(checkout.Citation{Seq: rejected.Seq}).After(asOf))
	require.True(t, slices.ContainsFunc(w.Warnings, func(x checkout.Warning) bool {
		return x.Code == checkout.WeaveWarnAfterAsOf && x.ItemID == "artifact:"+failure
	}), "%+v", w.Warnings)
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
// the log (the event's text was cut to its first 1,200 characters before the line looked for
// the question's words), and it says the log was repeated.
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
