package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

// loopRun runs a small seeded loop lane in a fresh database.
func loopRun(t *testing.T, seed uint64) *bench.LoopReport {
	t.Helper()
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	rep, err := bench.Loop(ctx, &bench.LoopOptions{Pool: pool, Projector: proj, Seed: seed, Families: 2, Tasks: 8, Run: "t"})
	require.NoError(t, err)
	return rep
}

func TestLoop_ASeedMakesTheSameRunAndMemoryOffNeverReadsMemory(t *testing.T) {
	a, b := loopRun(t, 3), loopRun(t, 3)
	require.Len(t, a.Arms, 3)
	for i, arm := range a.Arms {
		x, err := json.Marshal(arm)
		require.NoError(t, err)
		y, err := json.Marshal(b.Arms[i])
		require.NoError(t, err)
		require.JSONEq(t, string(x), string(y), "arm %s: the same seed makes the same calls, outcomes and figures", arm.Arm)
		require.Equal(t, 8, arm.Tasks)
	}
	off, on, apply := a.Arms[0], a.Arms[1], a.Arms[2]
	require.Equal(t, bench.LoopOff, off.Arm)
	require.Zero(t, off.Reads, "the memory-off agent asks nothing")
	require.Zero(t, off.LoggedReads, "and the log records no read in its space")
	for _, tk := range off.TaskList {
		require.Empty(t, tk.Acted)
		require.Empty(t, tk.Observed)
	}
	for _, arm := range []bench.LoopArm{on, apply} {
		require.Positive(t, arm.Reads)
		require.Equal(t, arm.Reads, arm.LoggedReads, "arm %s: every read the agent made is a record in the log", arm.Arm)
		require.Positive(t, arm.Retrospective["proposal.created"]+arm.Retrospective["feedback.recorded"], "arm %s: the retrospective pass judged the outcomes", arm.Arm)
	}
	// The world is the same for every arm: task i meets the same traps.
	for i := range off.TaskList {
		require.Equal(t, off.TaskList[i].Traps, on.TaskList[i].Traps)
		require.Equal(t, off.TaskList[i].Family, on.TaskList[i].Family)
	}
	var out bytes.Buffer
	a.WriteText(&out)
	require.Contains(t, out.String(), "arm off (space loop-t-off)")
	require.Contains(t, out.String(), "learning curve")
}
