package bench_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/testcontainers"
)

// TestGate_LabelledPairsGoThroughTheProjector runs the gate lane on the small LongMemEval
// file: every category is drawn, the repeats are found and no negative is tagged.
func TestGate_LabelledPairsGoThroughTheProjector(t *testing.T) {
	cases, err := bench.LoadFile(bench.DatasetLongMemEval, "testdata/longmemeval_mini.json")
	require.NoError(t, err)
	rep, err := bench.Gate(context.Background(), testcontainers.AdminURL(t), "mini", cases, bench.GateOptions{PerCategory: 20, OpenPool: openPool})
	require.NoError(t, err)
	for _, c := range rep.Categories {
		if c.Redundant {
			require.Positive(t, c.Pairs, c.Name)
			require.Equal(t, c.Pairs, c.Tagged, c.Name)
		} else {
			require.Zero(t, c.Tagged, c.Name)
		}
	}
	require.Equal(t, 1.0, rep.Precision)
	require.Equal(t, 1.0, rep.Recall)
	require.Empty(t, rep.FalsePositives)
}
