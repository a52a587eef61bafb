package checkout_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/vocab"
)

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

// TestProspective_LeavesOutAPriorWithdrawnToZero: a procedure whose latest confidence revision
// is 0 (zaxy artifact invalidate) is withdrawn: the prospective pass no longer serves it, and a
// later revision brings it back.
func TestProspective_LeavesOutAPriorWithdrawnToZero(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	seedTraces(t, f, "w7")
	f.build(t, "w7")
	req := &checkout.StepRequest{SpaceID: "w7", Goal: "build, test and lint the billing service, then run the schema migrate",
		ReasoningPhase: checkout.PhasePlan, NoRecord: true}
	ids := func() []string {
		p, err := f.svc.Prospective(ctx, req)
		require.NoError(t, err)
		var out []string
		for _, pr := range p.ProcedurePriors {
			out = append(out, pr.ArtifactID)
		}
		return out
	}
	before := ids()
	require.NotEmpty(t, before)
	f.revise(t, "w7", before[0], 0)
	require.NotContains(t, ids(), before[0], "withdrawn")
	f.revise(t, "w7", before[0], 0.7)
	require.Contains(t, ids(), before[0], "a later revision brings it back")
}
