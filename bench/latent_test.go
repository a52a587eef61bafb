package bench_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

func TestLatent_WeavesCiteVerifiedEventsAndNeverAStaleSource(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	lme, err := bench.LoadFile(bench.DatasetLongMemEval, "testdata/longmemeval_mini.json")
	require.NoError(t, err)

	rep, err := bench.Latent(ctx, &bench.LatentParams{Pool: pool, Projector: proj, Families: 2,
		Sets: map[string][]bench.Case{bench.DatasetLongMemEval: lme}})
	require.NoError(t, err)

	f := rep.Fidelity
	require.NotNil(t, f)
	require.Positive(t, f.Claims)
	require.Equal(t, f.Claims, f.Verified, "every claim resolves to an event that verifies: %v", f.Failures)
	require.Equal(t, 1.0, f.Rate)
	require.Equal(t, f.Chains, f.ChainsVerified)

	s := rep.Stale
	require.NotNil(t, s)
	require.Equal(t, 4, s.Unusable, "per family its first failure, invalidated, and its first preference, superseded")
	require.Positive(t, s.ArtifactsCiting)
	require.Equal(t, s.ArtifactsCiting, s.MarkedStale, "the build marks every artifact citing them stale")
	require.Positive(t, s.RejectedBeforeRebuild, "query-time verification rejects them before the build")
	require.Zero(t, s.Leaked)
	require.Zero(t, s.LeakedUnprojected)
	require.Equal(t, s.Prospective, s.PriorHits)

	require.Len(t, rep.Tokens, 3, "the dev set given, then the scripted agent traces' two questions")
	traces := rep.Tokens[1]
	require.Equal(t, bench.DatasetAgentTraces, traces.Dataset)
	require.Positive(t, traces.Questions)
	require.Equal(t, traces.Questions, traces.Weave.Hits, "every failure pattern's weave shows a fix")
	require.Positive(t, traces.Artifacts["failure"])
	last := rep.Tokens[2]
	require.Equal(t, bench.DatasetAgentTracesLast, last.Dataset)
	require.Equal(t, traces.Questions, last.Questions)
	require.Equal(t, last.Questions, last.Plain.Hits, "the last failure is cited by the first one it repeats")
	require.Len(t, last.Asked, last.Questions, "each question's results are listed")
	for _, q := range last.Asked {
		require.True(t, q.Hits[0], q.ID)
		require.Positive(t, q.Tokens[1], q.ID)
	}
	tr := rep.Tokens[0]
	require.Equal(t, bench.DatasetLongMemEval, tr.Dataset)
	require.Positive(t, tr.Questions)
	require.LessOrEqual(t, tr.Weave.MeanTokens, 1000.0)
	require.LessOrEqual(t, tr.Plain.MeanTokens, 2000.0)
	require.Positive(t, tr.Artifacts["episode"])
	var out bytes.Buffer
	rep.WriteText(&out)
	require.Contains(t, out.String(), "citation fidelity: ")
	require.Contains(t, out.String(), "leaked into a weave once projected: 0")
	require.Contains(t, out.String(), "token reduction, longmemeval")
	require.Contains(t, out.String(), "token reduction, agent-traces (scripted)")
}
