package memoryaction_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
	"github.com/zaxy/zaxy/validation"
	"github.com/zaxy/zaxy/vocab"
)

// testBundle is one rolled-back transaction with the log, an artifact builder and the actions
// on it, and a clock scripting events a minute apart.
type testBundle struct {
	*fixture.Log
	*fixture.Clock
	db      pgx.Tx
	builder *latent.Builder
	actions *memoryaction.Actions
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	tx := testcontainers.TestTx(t)
	log := fixture.New(t, tx, projection.Config{})
	b, err := latent.NewBuilder(context.Background(), tx, log.Store, latent.Config{})
	require.NoError(t, err)
	return &testBundle{Log: log, Clock: fixture.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)),
		db: tx, builder: b, actions: memoryaction.New(tx, log.Store)}
}

func (b *testBundle) projectAndBuild(t *testing.T, space string) {
	t.Helper()
	b.Project(t, space)
	_, err := b.builder.Build(context.Background(), space)
	require.NoError(t, err)
}

// workSession decides to enable vet, pulls, builds and tests (the recurring procedure),
// fails vet, fixes it with gofmt and finishes the task.
func (b *testBundle) workSession(s string) []eventloom.NewEvent {
	return []eventloom.NewEvent{
		b.Event("message", s, fmt.Sprintf("Please fix the billing export bug in session %s.", s), map[string]string{"role": "user"}),
		b.Event("decision.recorded", s, "", map[string]string{"decision": "enable go vet in CI"}),
		b.Tool(s, "git pull", "success", ""),
		b.Tool(s, "go build", "success", ""),
		b.Tool(s, "go test", "success", ""),
		b.Tool(s, "go vet", "failure", "vet: billing/export.go:42: unreachable code"),
		b.Tool(s, "gofmt", "success", ""),
		b.Tool(s, "go vet", "success", ""),
		b.Event("task.updated", s, "", map[string]string{"task_id": "T-" + s, "status": "done"}),
	}
}

// head is the space's last seq.
func (b *testBundle) head(t *testing.T, space string) int64 {
	t.Helper()
	var head int64
	require.NoError(t, b.db.QueryRow(context.Background(), `SELECT coalesce(max(seq), 0) FROM events WHERE space_id = $1`, space).Scan(&head))
	return head
}

// requireVerified checks that every ref names an event of the space with that very hash and
// that the space's chain verifies.
func (b *testBundle) requireVerified(t *testing.T, space string, refs []memoryaction.SourceRef) {
	t.Helper()
	require.NotEmpty(t, refs)
	for _, r := range refs {
		var hash []byte
		require.NoError(t, b.db.QueryRow(context.Background(), `SELECT hash FROM events WHERE space_id = $1 AND seq = $2`, space, r.Seq).Scan(&hash), "seq %d", r.Seq)
		require.Equal(t, hex.EncodeToString(hash), r.Hash, "seq %d", r.Seq)
	}
	v, err := b.Store.Verify(context.Background(), space)
	require.NoError(t, err)
	require.True(t, v.OK, "the chain verifies")
}

func seqsOf(refs []memoryaction.SourceRef) []int64 {
	out := make([]int64, len(refs))
	for i, r := range refs {
		out[i] = r.Seq
	}
	return out
}

// seeded builds a space with three work sessions and their artifacts.
func seeded(t *testing.T, space string) *testBundle {
	b := setup(t)
	for _, s := range []string{"s1", "s2", "s3"} {
		b.AppendSeqs(t, space, b.workSession(s)...)
	}
	b.projectAndBuild(t, space)
	return b
}

func TestPriors_RankCurrentArtifactsWithCitationsThatVerify(t *testing.T) {
	const space = "ma-priors"
	b := seeded(t, space)
	ctx := context.Background()

	procs, err := b.actions.ProcedurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"git pull", "go build", "go test"}})
	require.NoError(t, err)
	require.NotEmpty(t, procs.Priors)
	top := procs.Priors[0]
	require.Equal(t, latent.TypeProcedure, top.Type)
	require.JSONEq(t, `["git pull","go build","go test"]`, string(mustField(t, top.Payload, "steps")))
	require.Len(t, top.SourceEventRefs, 9, "three calls in each of three sessions")
	b.requireVerified(t, space, procs.SourceEventRefs)

	fails, err := b.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Goal: "why does vet fail on unreachable code"})
	require.NoError(t, err)
	require.Len(t, fails.Priors, 1)
	require.Equal(t, latent.TypeFailure, fails.Priors[0].Type)
	require.Contains(t, fails.Priors[0].Summary, "go vet failed 3 times")
	b.requireVerified(t, space, fails.SourceEventRefs)

	none, err := b.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"terraform apply"}})
	require.NoError(t, err)
	require.Empty(t, none.Priors, "no failure pattern of a tool the plan does not run")
}

func mustField(t *testing.T, raw json.RawMessage, key string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &m))
	return m[key]
}

func TestPriors_ComeOnlyFromNonStaleArtifacts(t *testing.T) {
	const space = "ma-stale"
	b := seeded(t, space)
	ctx := context.Background()
	before, err := b.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"go vet"}})
	require.NoError(t, err)
	require.Len(t, before.Priors, 1)
	old := before.Priors[0]
	victim := old.SourceEventRefs[0].Seq

	inv := int64(victim)
	b.AppendSeqs(t, space, b.Event("memory.invalidated", "", "", vocab.MemoryInvalidated{TargetSeq: &inv, Reason: "that run was on a broken machine"}))
	b.projectAndBuild(t, space)
	var stale int
	require.NoError(t, b.db.QueryRow(ctx, `SELECT count(*) FROM latent_artifacts WHERE space_id = $1 AND artifact_id = $2 AND stale_at IS NOT NULL`, space, old.ID).Scan(&stale))
	require.Equal(t, 1, stale, "the invalidation staled the old failure pattern")

	for _, tools := range [][]string{{"go vet"}, {"git pull", "go build", "go test"}} {
		for _, prior := range []func(context.Context, memoryaction.PriorParams) (*memoryaction.Priors, error){b.actions.FailurePrior, b.actions.ProcedurePrior} {
			got, err := prior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: tools})
			require.NoError(t, err)
			for _, p := range got.Priors {
				require.NotEqual(t, old.ID, p.ID, "a stale artifact is never a prior")
				require.NotContains(t, seqsOf(p.SourceEventRefs), victim, "no prior cites the invalidated event")
			}
		}
	}
}

func TestSimulateForward_RisksAndEvidenceNeedsAreCited(t *testing.T) {
	const space = "ma-sim"
	b := seeded(t, space)
	ctx := context.Background()
	ku, err := b.actions.RecordKnownUnknown(ctx, memoryaction.KnownUnknownParams{SpaceID: space, Question: "Does go vet run with the race detector in CI?"})
	require.NoError(t, err)

	sim, err := b.actions.SimulateForward(ctx, memoryaction.SimulateParams{SpaceID: space, Goal: "ship the billing fix",
		Steps: []string{"git pull", "go test", "go vet", "deploy"}})
	require.NoError(t, err)
	require.NotEmpty(t, sim.Procedures)
	var kinds []string
	for _, r := range sim.Risks {
		require.Equal(t, 2, r.Step, "the risks are go vet's")
		kinds = append(kinds, r.Kind)
	}
	require.ElementsMatch(t, []string{"failure", "causal", "causal", "causal"}, kinds)
	needs := map[string]bool{}
	for _, n := range sim.EvidenceNeeds {
		needs[fmt.Sprintf("%d:%s", n.Step, n.Need)] = true
	}
	require.True(t, needs["1:the remembered procedure runs go build before go test; the plan skips it"], "%v", needs)
	require.True(t, needs["3:no recurring procedure in memory runs deploy at this point; confirm its result before relying on it"], "%v", needs)
	require.Len(t, sim.KnownUnknowns, 1)
	require.Equal(t, ku.Event.Seq, sim.KnownUnknowns[0].Seq)
	require.Contains(t, seqsOf(sim.SourceEventRefs), ku.Event.Seq)
	b.requireVerified(t, space, sim.SourceEventRefs)
}

func TestReflectBackward_ReadsSurfacedFeedbackAndOutcome(t *testing.T) {
	const space = "ma-reflect"
	b := seeded(t, space)
	ctx := context.Background()
	surfaced := b.AppendSeqs(t, space, b.Event("checkout.surfaced", "s4", "", map[string]any{"items": []map[string]any{{"item_id": "ev:1", "seqs": []int64{1}, "tier": "query"}}}))
	b.AppendSeqs(t, space, b.Tool("s4", "go vet", "failure", "vet: billing/export.go:7: unreachable code"))
	fb, err := b.actions.ScoreMemoryAction(ctx, memoryaction.ScoreParams{SpaceID: space, Action: memoryaction.ActionProcedurePrior,
		CitedSeqs: []int64{1}, Signal: "unhelpful", Who: memoryaction.Who{SessionID: "s4"}})
	require.NoError(t, err)

	r, err := b.actions.ReflectBackward(ctx, memoryaction.ReflectParams{SpaceID: space, SessionID: "s4"})
	require.NoError(t, err)
	require.Len(t, r.Surfaced, 1)
	require.Equal(t, surfaced[0], r.Surfaced[0].Seq)
	require.Equal(t, []string{"ev:1"}, r.Surfaced[0].ItemIDs)
	require.Len(t, r.Feedback, 1)
	require.Equal(t, fb.Event.Seq, r.Feedback[0].Seq)
	require.Equal(t, memoryaction.ActionProcedurePrior, r.Feedback[0].MemoryAction.Action)
	require.Equal(t, memoryaction.OutcomeFailure, r.Outcome.Status)
	var types []string
	for _, a := range r.Artifacts {
		types = append(types, a.Type)
	}
	require.Contains(t, types, latent.TypeFailure, "the failure pattern of the tool it ran applies")
	b.requireVerified(t, space, r.SourceEventRefs)

	done, err := b.actions.ReflectBackward(ctx, memoryaction.ReflectParams{SpaceID: space, SessionID: "s1"})
	require.NoError(t, err)
	require.Equal(t, memoryaction.OutcomeSuccess, done.Outcome.Status, "task T-s1 is done")
	require.Contains(t, done.Warnings, "nothing was checked out in this session: no memory can take credit or blame for its outcome")
}

func TestCausalNeighborhood_LinksCauseAndEffect(t *testing.T) {
	const space = "ma-causal"
	b := seeded(t, space)
	ctx := context.Background()
	byTool, err := b.actions.CausalNeighborhood(ctx, memoryaction.NeighborhoodParams{SpaceID: space, Tool: "go vet", Limit: 10})
	require.NoError(t, err)
	require.Len(t, byTool.Links, 3, "one link per session")
	l := byTool.Links[0]
	require.Equal(t, "enable go vet in CI", l.Decision)
	require.NotNil(t, l.Fix)
	b.requireVerified(t, space, append(append([]memoryaction.SourceRef{l.Cause, l.Effect, *l.Fix}, byTool.Causes...), byTool.SourceEventRefs...))

	bySeq, err := b.actions.CausalNeighborhood(ctx, memoryaction.NeighborhoodParams{SpaceID: space, Seq: l.Effect.Seq})
	require.NoError(t, err)
	require.Len(t, bySeq.Links, 1)
	require.Equal(t, "effect", bySeq.Links[0].Role)
	require.Equal(t, []memoryaction.SourceRef{l.Cause}, bySeq.Causes)

	byEntity, err := b.actions.CausalNeighborhood(ctx, memoryaction.NeighborhoodParams{SpaceID: space, Entity: "CI"})
	require.NoError(t, err)
	require.Len(t, byEntity.Links, 3)
}

func TestWritingActions_EachAppendsExactlyOneEventIdempotently(t *testing.T) {
	const space = "ma-write"
	b := seeded(t, space)
	ctx := context.Background()
	fails, err := b.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"go vet"}})
	require.NoError(t, err)
	art := fails.Priors[0]
	c := 0.9

	for _, tc := range []struct {
		name, typ string
		run       func(key string) (*memoryaction.Appended, error)
	}{
		{"propose_memory_update", vocab.TypeProposalCreated, func(key string) (*memoryaction.Appended, error) {
			obj := "gofmt first"
			return b.actions.ProposeMemoryUpdate(ctx, memoryaction.ProposeParams{SpaceID: space, Kind: vocab.ProposalBeliefUpdate,
				Evidence: []int64{6, 7}, Fact: &vocab.FactAsserted{Subject: "go vet", Predicate: "needs", Object: &obj}, Confidence: &c,
				Who: memoryaction.Who{IdempotencyKey: key}})
		}},
		{"propose_consolidation", vocab.TypeProposalCreated, func(key string) (*memoryaction.Appended, error) {
			return b.actions.ProposeMemoryUpdate(ctx, memoryaction.ProposeParams{SpaceID: space, Kind: vocab.ProposalConsolidation,
				Evidence: []int64{6}, ArtifactID: art.ID, Rationale: "merge with the lint failures", Who: memoryaction.Who{IdempotencyKey: key}})
		}},
		{"revise_confidence", vocab.TypeMemoryConfidenceRevised, func(key string) (*memoryaction.Appended, error) {
			return b.actions.ReviseConfidence(ctx, memoryaction.ReviseParams{SpaceID: space, ArtifactID: art.ID, Confidence: 0.2,
				Reason: "the fix stopped working", Evidence: []int64{7}, Who: memoryaction.Who{IdempotencyKey: key}})
		}},
		{"record_known_unknown", vocab.TypeMemoryKnownUnknown, func(key string) (*memoryaction.Appended, error) {
			return b.actions.RecordKnownUnknown(ctx, memoryaction.KnownUnknownParams{SpaceID: space, Question: "Which Go version does CI use?",
				Context: "before go vet", Who: memoryaction.Who{IdempotencyKey: key}})
		}},
		{"score_memory_action", vocab.TypeFeedbackRecorded, func(key string) (*memoryaction.Appended, error) {
			return b.actions.ScoreMemoryAction(ctx, memoryaction.ScoreParams{SpaceID: space, Action: memoryaction.ActionFailurePrior,
				CitedSeqs: seqsOf(art.SourceEventRefs[:2]), Signal: "helpful", Comment: "the fix worked", Who: memoryaction.Who{IdempotencyKey: key}})
		}},
	} {
		before := b.head(t, space)
		first, err := tc.run("k-" + tc.name)
		require.NoError(t, err, tc.name)
		require.False(t, first.Replayed)
		require.Equal(t, before+1, first.Event.Seq, "%s appends exactly one event", tc.name)
		require.Equal(t, tc.typ, first.Type)
		var typ string
		require.NoError(t, b.db.QueryRow(ctx, `SELECT type FROM events WHERE space_id = $1 AND seq = $2`, space, first.Event.Seq).Scan(&typ))
		require.Equal(t, tc.typ, typ, tc.name)

		again, err := tc.run("k-" + tc.name)
		require.NoError(t, err, tc.name)
		require.True(t, again.Replayed, "%s: a retry with the key appends nothing", tc.name)
		require.Equal(t, first.Event.Seq, again.Event.Seq)
		require.Equal(t, before+1, b.head(t, space), tc.name)
	}

	// The revision is what the priors rank by now, and the scored action's event is judged.
	after, err := b.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"go vet"}})
	require.NoError(t, err)
	require.InDelta(t, 0.2, after.Priors[0].Confidence, 1e-9)
	require.InDelta(t, art.ProducedConfidence, after.Priors[0].ProducedConfidence, 1e-9)
	require.NotNil(t, after.Priors[0].ConfidenceRevision)
	b.requireVerified(t, space, after.SourceEventRefs)
	// The revision names the artifact's sources too (what keeps it when the artifact is
	// re-addressed): the digest SQL computes from the artifact's source_seqs.
	var named bool
	require.NoError(t, b.db.QueryRow(ctx, `SELECT e.data->'artifact'->>'sources_sha256' = zaxy_artifact_sources_digest(a.source_seqs)
		FROM events e JOIN latent_artifacts a ON a.space_id = e.space_id AND a.artifact_id = e.data->'artifact'->>'id'
		WHERE e.space_id = $1 AND e.seq = $2`, space, after.Priors[0].ConfidenceRevision.Seq).Scan(&named))
	require.True(t, named)

	ku, err := b.actions.RecordKnownUnknown(ctx, memoryaction.KnownUnknownParams{SpaceID: space, Question: "Who owns the staging database?"})
	require.NoError(t, err)
	scored, err := b.actions.ScoreMemoryAction(ctx, memoryaction.ScoreParams{SpaceID: space, Action: memoryaction.ActionRecordKnownUnknown,
		ActionSeq: ku.Event.Seq, Signal: "helpful"})
	require.NoError(t, err)
	var data string
	require.NoError(t, b.db.QueryRow(ctx, `SELECT data::text FROM events WHERE space_id = $1 AND seq = $2`, space, scored.Event.Seq).Scan(&data))
	require.JSONEq(t, fmt.Sprintf(`{"target_seqs":[%d],"signal":"helpful","memory_action":{"action":"record_known_unknown","seq":%[1]d}}`, ku.Event.Seq), data)

	// A known unknown is a memory item once projected.
	b.Project(t, space)
	var text string
	require.NoError(t, b.db.QueryRow(ctx, `SELECT coalesce(i.text, e.content) FROM memory_items i
		JOIN events e ON e.space_id = $1 AND e.seq = i.seq WHERE i.space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND i.item_id = $2`, space, memoryitem.EventID(ku.Event.Seq)).Scan(&text))
	require.Equal(t, "Who owns the staging database?", text)
}

func TestActions_KeepSpacesApart(t *testing.T) {
	const space, other = "ma-iso-a", "ma-iso-b"
	b := seeded(t, space)
	ctx := context.Background()
	b.AppendSeqs(t, other, b.Event("message", "x1", "Nothing about tools here.", map[string]string{"role": "user"}))
	b.projectAndBuild(t, other)
	fails, err := b.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"go vet"}})
	require.NoError(t, err)
	require.NotEmpty(t, fails.Priors)

	// The reads in other record nothing here, so that its log stays one event long.
	dry := memoryaction.Recording{NoRecord: true}
	got, err := b.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: other, Tools: []string{"go vet"}, Recording: dry})
	require.NoError(t, err)
	require.Empty(t, got.Priors)
	sim, err := b.actions.SimulateForward(ctx, memoryaction.SimulateParams{SpaceID: other, Steps: []string{"git pull", "go vet"}, Recording: dry})
	require.NoError(t, err)
	require.Empty(t, sim.Procedures)
	require.Empty(t, sim.Risks)
	nb, err := b.actions.CausalNeighborhood(ctx, memoryaction.NeighborhoodParams{SpaceID: other, Tool: "go vet", Recording: dry})
	require.NoError(t, err)
	require.Empty(t, nb.Links)
	r, err := b.actions.ReflectBackward(ctx, memoryaction.ReflectParams{SpaceID: other, SessionID: "s1", NoRecord: true})
	require.NoError(t, err)
	require.Zero(t, r.Events)

	_, err = b.actions.ReviseConfidence(ctx, memoryaction.ReviseParams{SpaceID: other, ArtifactID: fails.Priors[0].ID, Confidence: 0.1, Reason: "r"})
	require.ErrorIs(t, err, memoryaction.ErrArtifactNotFound, "another space's artifact is not found")
	_, err = b.actions.ScoreMemoryAction(ctx, memoryaction.ScoreParams{SpaceID: other, Action: memoryaction.ActionFailurePrior, CitedSeqs: []int64{5}, Signal: "helpful"})
	requireField(t, err, "cited_seqs[0]")
}

func requireField(t *testing.T, err error, field string) {
	t.Helper()
	var ve *validation.Error
	require.ErrorAs(t, err, &ve)
	require.Equal(t, field, ve.Field, ve.Error())
}

func TestActions_BadInputNamesTheField(t *testing.T) {
	const space = "ma-bad"
	b := seeded(t, space)
	ctx := context.Background()
	a := b.actions
	long := make([]string, 33)
	for i := range long {
		long[i] = "t"
	}
	for _, tc := range []struct {
		field string
		err   error
	}{
		{"goal", second(a.ProcedurePrior(ctx, memoryaction.PriorParams{SpaceID: space}))},
		{"tools[1]", second(a.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: []string{"go vet", " "}}))},
		{"tools", second(a.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Tools: long}))},
		{"limit", second(a.ProcedurePrior(ctx, memoryaction.PriorParams{SpaceID: space, Goal: "x", Limit: 51}))},
		{"steps", second(a.SimulateForward(ctx, memoryaction.SimulateParams{SpaceID: space}))},
		{"session_id", second(a.ReflectBackward(ctx, memoryaction.ReflectParams{SpaceID: space}))},
		{"seq", second(a.CausalNeighborhood(ctx, memoryaction.NeighborhoodParams{SpaceID: space}))},
		{"kind", second(a.ProposeMemoryUpdate(ctx, memoryaction.ProposeParams{SpaceID: space, Kind: "skill", Evidence: []int64{1}}))},
		{"evidence", second(a.ProposeMemoryUpdate(ctx, memoryaction.ProposeParams{SpaceID: space, Kind: "consolidation"}))},
		{"evidence[1]", second(a.ProposeMemoryUpdate(ctx, memoryaction.ProposeParams{SpaceID: space, Kind: "consolidation", Evidence: []int64{1, 9999}}))},
		{"fact", second(a.ProposeMemoryUpdate(ctx, memoryaction.ProposeParams{SpaceID: space, Kind: "belief_update", Evidence: []int64{1}}))},
		{"fact.subject", second(a.ProposeMemoryUpdate(ctx, memoryaction.ProposeParams{SpaceID: space, Kind: "belief_update", Evidence: []int64{1},
			Fact: &vocab.FactAsserted{Predicate: "p", Value: json.RawMessage(`1`)}}))},
		{"confidence", second(a.ReviseConfidence(ctx, memoryaction.ReviseParams{SpaceID: space, ArtifactID: "x", Confidence: 2, Reason: "r"}))},
		{"reason", second(a.ReviseConfidence(ctx, memoryaction.ReviseParams{SpaceID: space, ArtifactID: "x", Confidence: 0.5}))},
		{"artifact_id", second(a.ReviseConfidence(ctx, memoryaction.ReviseParams{SpaceID: space, Confidence: 0.5, Reason: "r"}))},
		{"question", second(a.RecordKnownUnknown(ctx, memoryaction.KnownUnknownParams{SpaceID: space, Question: "  "}))},
		{"action", second(a.ScoreMemoryAction(ctx, memoryaction.ScoreParams{SpaceID: space, Action: "guess", Signal: "helpful", ActionSeq: 1}))},
		{"signal", second(a.ScoreMemoryAction(ctx, memoryaction.ScoreParams{SpaceID: space, Action: "simulate_forward", Signal: "great", ActionSeq: 1}))},
		{"action_seq", second(a.ScoreMemoryAction(ctx, memoryaction.ScoreParams{SpaceID: space, Action: "simulate_forward", Signal: "helpful"}))},
		{"action_seq", second(a.ScoreMemoryAction(ctx, memoryaction.ScoreParams{SpaceID: space, Action: "simulate_forward", Signal: "helpful", ActionSeq: 1}))},
	} {
		requireField(t, tc.err, tc.field)
	}
	before := b.head(t, space)
	require.Equal(t, before, b.head(t, space), "nothing was appended")
}

func second[T any](_ T, err error) error { return err }

// TestCausalNeighborhood_AnOutcomeStatesItsCause: an evaluator's failed outcome citing a failed
// call of the agent's session is a link of its own kind: the neighborhood of the outcome names
// the call as its cause with the outcome's status, and a plan running that tool is warned that
// an outcome blamed it.
func TestCausalNeighborhood_AnOutcomeStatesItsCause(t *testing.T) {
	const space = "ma-outcome-causal"
	b := setup(t)
	ctx := context.Background()
	call := b.AppendSeqs(t, space, b.Tool("agent", "migrate", "failure", "lock timeout"))[0]
	out := b.AppendSeqs(t, space, b.Event("outcome.recorded", "eval", "", map[string]any{"session_id": "agent", "status": "partial",
		"summary": "Half the tables were migrated.", "evidence": []int64{call}}))[0]
	b.projectAndBuild(t, space)

	n, err := b.actions.CausalNeighborhood(ctx, memoryaction.NeighborhoodParams{SpaceID: space, Seq: out})
	require.NoError(t, err)
	require.Len(t, n.Links, 1)
	l := n.Links[0]
	require.Equal(t, "effect", l.Role)
	require.Equal(t, "partial", l.Outcome)
	require.Equal(t, call, l.Cause.Seq)
	require.Equal(t, "migrate", l.Tool)
	b.requireVerified(t, space, []memoryaction.SourceRef{l.Cause, l.Effect})

	sim, err := b.actions.SimulateForward(ctx, memoryaction.SimulateParams{SpaceID: space, Steps: []string{"migrate"}})
	require.NoError(t, err)
	var needs []string
	for _, e := range sim.EvidenceNeeds {
		needs = append(needs, e.Need)
	}
	require.Contains(t, needs, `a partial outcome cited migrate failing with "lock timeout" as its cause; check whether it applies`)
}
