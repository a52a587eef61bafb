package bench_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

// TestStorage_LoadsTheFileAndReportsEveryTableAgainstTheLog loads the mini LongMemEval file
// (appended, projected, embedded; no question asked) and measures the database:
// the events table holds every turn, the projections and vectors are counted beside it, and
// each table's total is its heap, indexes and TOAST, divided by the events.
func TestStorage_LoadsTheFileAndReportsEveryTableAgainstTheLog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AdminPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	cases, err := bench.LoadFile(bench.DatasetLongMemEval, "testdata/longmemeval_mini.json")
	require.NoError(t, err)
	turns := 0
	for _, c := range cases {
		turns += len(c.Turns)
	}
	provider := embedding.NewOffline()
	_, err = bench.LoadForStorage(ctx, &bench.DatasetParams{Dataset: bench.DatasetLongMemEval, Cases: cases, Pool: pool,
		Projector: proj, Embedder: projection.NewEmbedder(pool, provider, 0), Provider: provider, TextSearchConfig: "english"})
	require.NoError(t, err)

	rep, err := bench.Storage(ctx, pool)
	require.NoError(t, err)
	require.Equal(t, int64(turns), rep.Events, "every turn is an event and no question was asked")
	byName := map[string]bench.StorageTable{}
	var sum int64
	for _, tb := range rep.Tables {
		byName[tb.Name] = tb
		sum += tb.Total
		require.Equal(t, tb.Total, tb.Heap+tb.Indexes+tb.TOAST, tb.Name)
		require.InDelta(t, float64(tb.Total)/float64(rep.Events), tb.PerEvent, 1e-9, tb.Name)
	}
	require.Equal(t, rep.Total, sum)
	require.Equal(t, rep.LogBytes, byName["events"].Total)
	require.InDelta(t, 1.0, byName["events"].OfLog, 1e-12)
	require.Equal(t, int64(turns), byName["memory_items"].Rows, "projected")
	require.Equal(t, int64(turns), byName["embeddings"].Rows, "embedded")
	var out bytes.Buffer
	rep.WriteText(&out)
	require.Contains(t, out.String(), "× the log")
}
