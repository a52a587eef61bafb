package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

// loopRun runs a small seeded loop lane in a fresh database.
func loopRun(t *testing.T, seed uint64) (*bench.LoopReport, *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	rep, err := bench.Loop(ctx, &bench.LoopOptions{Pool: pool, Projector: proj, Seed: seed, Families: 2, Tasks: 8, Run: "t"})
	require.NoError(t, err)
	return rep, pool
}

func TestLoop_ASeedMakesTheSameRunAndMemoryOffNeverReadsMemory(t *testing.T) {
	ctx := context.Background()
	a, pool := loopRun(t, 3)
	b, _ := loopRun(t, 3)
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
		require.NotEmpty(t, arm.Mechanisms, "arm %s: the agent acted on what memory gave it", arm.Arm)
		require.Positive(t, arm.Calibration.N, "arm %s: memory's confidence was observed", arm.Arm)
	}
	// The world is the same for every arm: task i meets the same traps, and the first task,
	// before memory holds anything, goes the same with memory on.
	for i := range off.TaskList {
		require.Equal(t, off.TaskList[i].Traps, on.TaskList[i].Traps)
		require.Equal(t, off.TaskList[i].Family, on.TaskList[i].Family)
	}
	require.Equal(t, off.TaskList[0].Calls, on.TaskList[0].Calls)
	for _, arm := range a.Arms {
		// The figures are those of the tasks, and the tasks are what the log holds: every
		// call a tool_call.completed, every task one outcome.recorded of its session.
		again := bench.LoopMetrics(arm.TaskList)
		again.Arm, again.Space, again.LoggedReads, again.Retrospective = arm.Arm, arm.Space, arm.LoggedReads, arm.Retrospective
		require.Equal(t, again, arm)
		calls, failed := 0, 0
		for _, tk := range arm.TaskList {
			calls += len(tk.Calls)
			for _, c := range tk.Calls {
				if c.Error != "" {
					failed++
				}
			}
		}
		require.Equal(t, arm.Failures, failed)
		var logCalls, logFailed, outcomes, sessions int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE type = 'tool_call.completed'),
			count(*) FILTER (WHERE type = 'tool_call.completed' AND data->>'outcome' = 'failure'),
			count(*) FILTER (WHERE type = 'outcome.recorded'),
			count(DISTINCT data->>'session_id') FILTER (WHERE type = 'outcome.recorded')
			FROM events WHERE space_id = $1`, arm.Space).Scan(&logCalls, &logFailed, &outcomes, &sessions))
		require.Equal(t, calls, logCalls, arm.Arm)
		require.Equal(t, failed, logFailed, arm.Arm)
		require.Equal(t, arm.Tasks, outcomes, arm.Arm)
		require.Equal(t, arm.Tasks, sessions, arm.Arm)
	}
	var out bytes.Buffer
	a.WriteText(&out)
	require.Contains(t, out.String(), "arm off (space loop-t-off)")
	require.Contains(t, out.String(), "learning curve")
}
