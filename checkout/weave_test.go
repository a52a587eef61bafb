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
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/validation"
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
	var ve *validation.Error
	require.ErrorAs(t, err, &ve)
	require.Equal(t, "goal", ve.Field, "a step request's errors name its own field")
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
