package bench_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

// TestRunPolicyLane_FitsOnHalfAndMeasuresBoth runs the policy lane on the mini files: the fit
// learns from the judged checkouts of the training cases, and both policies are measured on
// both halves (fresh spaces), with the gate's verdict following the numbers.
func TestRunPolicyLane_FitsOnHalfAndMeasuresBoth(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	var files []bench.PolicyLaneFile
	for _, f := range []struct{ dataset, file string }{{bench.DatasetLoCoMo, "testdata/locomo_mini.json"}, {bench.DatasetLongMemEval, "testdata/longmemeval_mini.json"}} {
		cases, err := bench.LoadFile(f.dataset, f.file)
		require.NoError(t, err)
		files = append(files, bench.PolicyLaneFile{Dataset: f.dataset, File: f.file, Cases: cases})
	}
	provider := embedding.NewOffline()
	rep, err := bench.RunPolicyLane(ctx, &bench.PolicyLaneParams{Files: files, Pool: pool, Projector: proj,
		Embedder: projection.NewEmbedder(pool, provider, 0), Provider: provider, TextSearchConfig: "english"})
	require.NoError(t, err)
	require.Regexp(t, `^fit-[0-9a-f]{12}$`, rep.Fitted.Version)
	require.Positive(t, rep.TrainCheckouts)
	require.Positive(t, rep.Fit.Pairs)
	require.GreaterOrEqual(t, rep.Fit.Metric, rep.Fit.BaseMetric)
	require.NotEmpty(t, rep.Rows)
	pass := true
	for _, r := range rep.Rows {
		require.Positive(t, r.Questions)
		pass = pass && r.Fitted.TurnRecallAny10 >= r.Builtin.TurnRecallAny10 && r.Fitted.TurnRecallAll10 >= r.Builtin.TurnRecallAll10
	}
	require.Equal(t, pass, rep.PassesDevGate)
}
