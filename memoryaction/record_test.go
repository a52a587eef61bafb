package memoryaction_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/retrospective"
	"github.com/zaxy/zaxy/vocab"
)

// records are the space's memory_action.surfaced events after seq, decoded, with their
// sessions and actors.
func (b *testBundle) records(t *testing.T, space string, after int64) ([]vocab.MemoryActionSurfaced, []string) {
	t.Helper()
	type row struct {
		Who  string
		Data vocab.MemoryActionSurfaced
	}
	rows, err := b.db.Query(context.Background(), `SELECT session_id || '/' || actor, data FROM events
		WHERE space_id = $1 AND seq > $2 AND type = 'memory_action.surfaced' ORDER BY seq`, space, after)
	require.NoError(t, err)
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[row])
	require.NoError(t, err)
	var out []vocab.MemoryActionSurfaced
	var who []string
	for _, r := range got {
		out, who = append(out, r.Data), append(who, r.Who)
	}
	return out, who
}

func TestReadingActions_EachRecordsWhatItSurfacedInTheCallersSession(t *testing.T) {
	const space = "ma-record"
	b := seeded(t, space)
	ctx := context.Background()
	before := b.head(t, space)
	rec := memoryaction.Recording{SessionID: "agent-7", Actor: "planner"}

	procs, err := b.actions.ProcedurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"git pull", "go build"}, Recording: rec})
	require.NoError(t, err)
	require.NotEmpty(t, procs.Priors)
	fails, err := b.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"Go Vet"}, Recording: rec})
	require.NoError(t, err)
	require.NotEmpty(t, fails.Priors)
	sim, err := b.actions.SimulateForward(ctx, memoryaction.SimulateParams{SpaceID: space, Steps: []string{"git pull", "go vet"}, Recording: rec})
	require.NoError(t, err)
	nb, err := b.actions.CausalNeighborhood(ctx, memoryaction.NeighborhoodParams{SpaceID: space, Tool: "go vet", Recording: rec})
	require.NoError(t, err)
	refl, err := b.actions.ReflectBackward(ctx, memoryaction.ReflectParams{SpaceID: space, SessionID: "agent-7"})
	require.NoError(t, err)
	require.Len(t, refl.MemoryActions, 4, "the reflection lists the session's recorded actions")
	require.Equal(t, memoryaction.ActionProcedurePrior, refl.MemoryActions[0].Action)

	got, who := b.records(t, space, before)
	require.Len(t, got, 5, "each reading action left exactly one event")
	require.Equal(t, []string{"agent-7/planner", "agent-7/planner", "agent-7/planner", "agent-7/planner", "agent-7/agent"}, who)
	answers := []struct {
		action string
		record *eventloom.Receipt
		refs   []memoryaction.SourceRef
	}{
		{memoryaction.ActionProcedurePrior, procs.Record, procs.SourceEventRefs},
		{memoryaction.ActionFailurePrior, fails.Record, fails.SourceEventRefs},
		{memoryaction.ActionSimulateForward, sim.Record, sim.SourceEventRefs},
		{memoryaction.ActionCausalNeighborhood, nb.Record, nb.SourceEventRefs},
		{memoryaction.ActionReflectBackward, refl.Record, refl.SourceEventRefs},
	}
	for i, a := range answers {
		require.Equal(t, a.action, got[i].Action)
		require.NotNil(t, a.record, a.action)
		require.Equal(t, before+int64(i)+1, a.record.Seq, "%s: the answer names its record", a.action)
		require.Equal(t, seqsOf(a.refs), got[i].CitedSeqs, "%s: the record cites what the answer cited", a.action)
		require.Len(t, got[i].RequestSHA256, 64)
	}
	// The artifacts as the retrospective pass reads them: ids, types, tools, confidences, seqs.
	require.Equal(t, []string{"git pull", "go build"}, got[0].Tools)
	for i, p := range procs.Priors {
		a := got[0].Artifacts[i]
		require.Equal(t, p.ID, a.ArtifactID)
		require.Equal(t, "procedure", a.Type)
		require.Equal(t, p.Confidence, a.Confidence)
		require.Equal(t, seqsOf(p.SourceEventRefs), a.Seqs)
		require.NotEmpty(t, a.Tools, "a procedure's steps")
	}
	require.Equal(t, []string{"go vet"}, got[1].Tools, "tools as the action normalized them")
	require.Equal(t, fails.Priors[0].ID, got[1].Artifacts[0].ArtifactID)
	require.Equal(t, []string{"go vet"}, got[1].Artifacts[0].Tools, "a failure pattern's tool")
	var risky []string
	for _, a := range got[2].Artifacts {
		if a.Type != "procedure" {
			risky = append(risky, a.ArtifactID)
			require.Equal(t, []string{"go vet"}, a.Tools)
		}
	}
	require.NotEmpty(t, risky, "simulate_forward records the artifacts of its risks")
	require.Equal(t, []string{"git pull", "go vet"}, got[2].Tools)
	b.requireVerified(t, space, []memoryaction.SourceRef{{Seq: procs.Record.Seq, Hash: procs.Record.Hash.String()}})
	// A record is bookkeeping: projected, it is no memory item checkout could rank.
	b.Project(t, space)
	var items int
	require.NoError(t, b.db.QueryRow(ctx, `SELECT count(*) FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND item_id = ANY ($2)`,
		space, []string{memoryitem.EventID(procs.Record.Seq), memoryitem.EventID(refl.Record.Seq)}).Scan(&items))
	require.Zero(t, items)
}

func TestReadingActions_NoRecordAppendsNothingAndABadSessionIsRefusedBeforeReading(t *testing.T) {
	const space = "ma-record-dry"
	b := seeded(t, space)
	ctx := context.Background()
	head := b.head(t, space)
	_, err := b.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"go vet"},
		Recording: memoryaction.Recording{SessionID: "s", NoRecord: true}})
	require.NoError(t, err)
	_, err = b.actions.ReflectBackward(ctx, memoryaction.ReflectParams{SpaceID: space, SessionID: "s1", NoRecord: true})
	require.NoError(t, err)
	require.Equal(t, head, b.head(t, space), "no_record appends nothing")

	_, err = b.actions.ProcedurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Goal: "build",
		Recording: memoryaction.Recording{SessionID: "a\x00b"}})
	requireField(t, err, "session_id")
	_, err = b.actions.SimulateForward(ctx, memoryaction.SimulateParams{SpaceID: space, Steps: []string{"go vet"},
		Recording: memoryaction.Recording{SessionID: string(make([]byte, 300))}})
	requireField(t, err, "session_id")
	_, err = b.actions.CausalNeighborhood(ctx, memoryaction.NeighborhoodParams{SpaceID: space, Tool: "go vet",
		Recording: memoryaction.Recording{Actor: "\xff"}})
	requireField(t, err, "actor")
	require.Equal(t, head, b.head(t, space), "a refused request appends nothing")
}

// retroFeedback are the retrospective pass's feedback events on memory actions after seq:
// signal by the action's record seq.
func (b *testBundle) retroFeedback(t *testing.T, space string, after int64) map[int64]vocab.FeedbackRecorded {
	t.Helper()
	rows, err := b.db.Query(context.Background(), `SELECT data FROM events WHERE space_id = $1 AND seq > $2
		AND type = 'feedback.recorded' AND actor = $3 AND data ? 'memory_action'`, space, after, retrospective.Actor)
	require.NoError(t, err)
	got, err := pgx.CollectRows(rows, pgx.RowTo[vocab.FeedbackRecorded])
	require.NoError(t, err)
	out := map[int64]vocab.FeedbackRecorded{}
	for _, f := range got {
		require.NotNil(t, f.MemoryAction.Seq)
		out[*f.MemoryAction.Seq] = f
	}
	return out
}

func TestRetrospective_CreditsAWarningPriorAndBlamesAProcedureThatRanTheFailedStep(t *testing.T) {
	const space = "ma-retro"
	b := seeded(t, space)
	ctx := context.Background()
	before := b.head(t, space)
	warn, err := b.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"go vet"},
		Recording: memoryaction.Recording{SessionID: "agent-1"}})
	require.NoError(t, err)
	require.NotEmpty(t, warn.Priors)
	proc, err := b.actions.ProcedurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"git pull", "go build", "go test"},
		Recording: memoryaction.Recording{SessionID: "agent-2"}})
	require.NoError(t, err)
	require.NotEmpty(t, proc.Priors)
	other, err := b.actions.ProcedurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"git pull", "go build", "go test"},
		Recording: memoryaction.Recording{SessionID: "agent-3"}})
	require.NoError(t, err)

	// agent-1 was warned about go vet and it failed anyway; agent-2 followed the procedure
	// and its go test failed; agent-3 asked the same as agent-2 but its session went well.
	// The space applies the pass's judgements at once (the default proposes them for review).
	b.AppendSeqs(t, space,
		b.Event(vocab.TypeRetrospectiveConfigured, "ops", "", map[string]any{"mode": "apply", "min_confidence": 0.6}),
		b.Tool("agent-1", "go vet", "failure", "vet: unreachable code"),
		b.Event("outcome.recorded", "agent-1", "", map[string]any{"session_id": "agent-1", "status": "failure", "summary": "vet failed"}),
		b.Tool("agent-2", "git pull", "success", ""),
		b.Tool("agent-2", "go build", "success", ""),
		b.Tool("agent-2", "go test", "failure", "FAIL billing"),
		b.Event("outcome.recorded", "agent-2", "", map[string]any{"session_id": "agent-2", "status": "failure", "summary": "tests failed"}),
		b.Tool("agent-3", "git pull", "success", ""),
		b.Tool("agent-3", "go build", "success", ""),
		b.Tool("agent-3", "go test", "success", ""),
		b.Event("outcome.recorded", "agent-3", "", map[string]any{"session_id": "agent-3", "status": "success", "summary": "green"}))
	b.Project(t, space)
	as := retrospective.NewAssigner(b.db, b.Store, nil)
	causes := map[string]string{}
	for _, s := range []string{"agent-1", "agent-2", "agent-3"} {
		res, err := as.Credit(ctx, space, s, 0)
		require.NoError(t, err)
		require.Len(t, res.Attributions, 1)
		causes[s] = res.Attributions[0].Cause
	}
	require.Equal(t, map[string]string{"agent-1": retrospective.CauseToolFailure, "agent-2": retrospective.CauseRetrieval,
		"agent-3": retrospective.CauseSuccess}, causes)

	fb := b.retroFeedback(t, space, before)
	require.Len(t, fb, 3, "one judgement per implicated action, none for the rest")
	require.Equal(t, "helpful", fb[warn.Record.Seq].Signal, "the prior warned of the failure that came")
	require.Equal(t, memoryaction.ActionFailurePrior, fb[warn.Record.Seq].MemoryAction.Action)
	require.Equal(t, []int64{warn.Record.Seq}, fb[warn.Record.Seq].TargetSeqs, "only the record is the target: no memory's salience moves")
	require.Equal(t, "unhelpful", fb[proc.Record.Seq].Signal, "the procedure it returned ran go test, which failed")
	require.Equal(t, "helpful", fb[other.Record.Seq].Signal, "agent-3 ran the procedure it returned and succeeded")

	// The verdicts revise the artifacts' confidences, which the priors rank by from then on:
	// the warning failure pattern up a little, the procedure down for agent-2's failure, then
	// up a little for agent-3's success, each from the confidence before it.
	round := func(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }
	c0 := warn.Priors[0].Confidence
	after, err := b.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"go vet"}, Recording: memoryaction.Recording{NoRecord: true}})
	require.NoError(t, err)
	require.Equal(t, warn.Priors[0].ID, after.Priors[0].ID)
	require.InDelta(t, round(c0+(1-c0)*0.6/4), after.Priors[0].Confidence, 1e-9)
	require.Equal(t, c0, after.Priors[0].ProducedConfidence, "the artifact row is untouched")
	p0 := proc.Priors[0]
	require.Equal(t, []string{"git pull", "go build", "go test"}, b.steps(t, p0))
	revs := b.revisions(t, space, p0.ID)
	blamed := round(p0.Confidence * 0.7)
	require.Equal(t, [][2]float64{{p0.Confidence, blamed}, {blamed, round(blamed + (1-blamed)*0.6/4)}}, revs)

	// A second pass appends nothing.
	res, err := as.Credit(ctx, space, "agent-2", 0)
	require.NoError(t, err)
	require.Zero(t, res.Appended)
}

// steps are a procedure's steps.
func (b *testBundle) steps(t *testing.T, a memoryaction.Artifact) []string {
	t.Helper()
	var pl struct {
		Steps []string `json:"steps"`
	}
	require.NoError(t, json.Unmarshal(a.Payload, &pl))
	return pl.Steps
}

// revisions are the (previous, confidence) of the artifact's confidence revisions, in seq order;
// each must name the artifact's sources (the digest SQL computes from its source_seqs), which
// keeps the revision when the artifact is re-addressed.
func (b *testBundle) revisions(t *testing.T, space, id string) [][2]float64 {
	t.Helper()
	ctx := context.Background()
	var unnamed int
	require.NoError(t, b.db.QueryRow(ctx, `SELECT count(*) FROM events e JOIN latent_artifacts a ON a.space_id = e.space_id AND a.artifact_id = $2
		WHERE e.space_id = $1 AND e.type = 'memory.confidence_revised' AND e.data->'artifact'->>'id' = $2
		  AND e.data->'artifact'->>'sources_sha256' IS DISTINCT FROM zaxy_artifact_sources_digest(a.source_seqs)`, space, id).Scan(&unnamed))
	require.Zero(t, unnamed, "every revision of %s names its sources", id)
	rows, err := b.db.Query(ctx, `SELECT ARRAY[(data->>'previous')::float8, (data->>'confidence')::float8] FROM events
		WHERE space_id = $1 AND type = 'memory.confidence_revised' AND data->'artifact'->>'id' = $2 ORDER BY seq`, space, id)
	require.NoError(t, err)
	out, err := pgx.CollectRows(rows, pgx.RowTo[[2]float64])
	require.NoError(t, err)
	return out
}

// TestRetrospective_ARecordNamingAnotherSpacesArtifactRevisesNothing: records are client
// events; one forged in space B that names space A's failure pattern gets its verdict in B,
// but no confidence revision lands in either space (B has no such artifact; A is not touched).
func TestRetrospective_ARecordNamingAnotherSpacesArtifactRevisesNothing(t *testing.T) {
	const victim, forger = "ma-retro-a", "ma-retro-b"
	b := seeded(t, victim)
	ctx := context.Background()
	fails, err := b.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: victim, Tools: []string{"go vet"}, Recording: memoryaction.Recording{NoRecord: true}})
	require.NoError(t, err)
	stolen := fails.Priors[0]
	rec, err := json.Marshal(vocab.MemoryActionSurfaced{Action: memoryaction.ActionFailurePrior, Tools: []string{"go vet"},
		Artifacts: []vocab.SurfacedArtifact{{ArtifactID: stolen.ID, Type: "failure", Tools: []string{"go vet"}, Confidence: 0.9, Seqs: []int64{1}}}})
	require.NoError(t, err)
	b.AppendSeqs(t, forger,
		b.Event(vocab.TypeRetrospectiveConfigured, "ops", "", map[string]any{"mode": "apply", "min_confidence": 0.6}),
		b.Event("message", "x", "Nothing to see here.", map[string]string{"role": "user"}),
		b.Event(vocab.TypeMemoryActionSurfaced, "x", "", json.RawMessage(rec)),
		b.Tool("x", "go vet", "failure", "vet: unreachable code"),
		b.Event("outcome.recorded", "x", "", map[string]any{"session_id": "x", "status": "failure", "summary": "vet failed"}))
	b.Project(t, forger)
	res, err := retrospective.NewAssigner(b.db, b.Store, nil).Credit(ctx, forger, "x", 0)
	require.NoError(t, err)
	require.Equal(t, retrospective.CauseToolFailure, res.Attributions[0].Cause, "the record still counts as a warning in B")
	require.Len(t, b.retroFeedback(t, forger, 0), 1)
	require.Empty(t, b.revisions(t, forger, stolen.ID))
	require.Empty(t, b.revisions(t, victim, stolen.ID), "A's artifact is not revised from B")
}

// TestSimulateForward_WarnsOfAFailureADecisionsSubjectLinked: a decision about "go vet"
// recorded in a planning session, then vet failing in later work sessions, is a causal link
// across sessions that simulate_forward warns a plan running go vet of.
func TestSimulateForward_WarnsOfAFailureADecisionsSubjectLinked(t *testing.T) {
	const space = "ma-subject"
	b := setup(t)
	ctx := context.Background()
	dec := b.AppendSeqs(t, space, b.Event("decision.recorded", "plan", "", map[string]string{"decision": "vet every package in CI", "subject": "go vet"}))[0]
	for _, s := range []string{"s1", "s2", "s3"} {
		b.AppendSeqs(t, space, b.workSession(s)...)
	}
	b.projectAndBuild(t, space)
	sim, err := b.actions.SimulateForward(ctx, memoryaction.SimulateParams{SpaceID: space, Steps: []string{"go build", "go vet"},
		Recording: memoryaction.Recording{NoRecord: true}})
	require.NoError(t, err)
	var causal []memoryaction.Risk
	for _, r := range sim.Risks {
		if r.Kind == "causal" && r.SourceEventRefs[0].Seq == dec {
			causal = append(causal, r)
		}
	}
	require.Len(t, causal, 3, "one link into each work session")
	require.Equal(t, 1, causal[0].Step)
	nb, err := b.actions.CausalNeighborhood(ctx, memoryaction.NeighborhoodParams{SpaceID: space, Seq: dec, Recording: memoryaction.Recording{NoRecord: true}})
	require.NoError(t, err)
	require.Len(t, nb.Links, 3)
	require.Equal(t, "cause", nb.Links[0].Role)
	require.Equal(t, "go vet", nb.Links[0].Tool)
}

// TestReadingActions_LeaveOutAnArtifactWithdrawnToZero: a failure pattern revised to 0
// (zaxy artifact invalidate) is no prior any more; a later revision brings it back.
func TestReadingActions_LeaveOutAnArtifactWithdrawnToZero(t *testing.T) {
	const space = "ma-withdrawn"
	b := seeded(t, space)
	ctx := context.Background()
	prior := func() []string {
		res, err := b.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"go vet"}, Recording: memoryaction.Recording{NoRecord: true}})
		require.NoError(t, err)
		var ids []string
		for _, p := range res.Priors {
			ids = append(ids, p.ID)
		}
		return ids
	}
	before := prior()
	require.NotEmpty(t, before)
	revise := func(c float64) {
		_, err := b.actions.ReviseConfidence(ctx, memoryaction.ReviseParams{SpaceID: space, ArtifactID: before[0], Confidence: c, Reason: "operator"})
		require.NoError(t, err)
	}
	revise(0)
	require.NotContains(t, prior(), before[0])
	revise(0.5)
	require.Contains(t, prior(), before[0])
}
