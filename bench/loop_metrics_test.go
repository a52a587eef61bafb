package bench_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/bench"
)

func TestLoopMetrics_CountsRepeatsRecoveryAndCalibrationByHand(t *testing.T) {
	flag := bench.LoopCall{Tool: "a_build", Error: "missing flag", Trap: bench.TrapFlag, Source: "plan"}
	flaky := bench.LoopCall{Tool: "a_test", Error: "timeout", Trap: bench.TrapFlaky, Source: "plan"}
	ok := func(tool string) bench.LoopCall { return bench.LoopCall{Tool: tool, Source: "plan"} }
	tasks := []bench.LoopTask{
		// Task 0: build fails twice (a retry within a task is no repeat), recovers at call 3.
		{Round: 1, Success: true, Calls: []bench.LoopCall{flag, flag, ok("a_set_build_tags"), ok("a_build"), ok("a_test")}},
		// Task 1: the same build failure again (a repeat, avoidable) and a flaky test never
		// recovered: the task fails.
		{Round: 2, Success: false, Reads: 2, Calls: []bench.LoopCall{flag, ok("a_set_build_tags"), ok("a_build"), flaky},
			Acted:     []bench.LoopActed{{Source: bench.LoopFromFailurePrior, Useful: true}, {Source: bench.LoopFromFailurePrior}, {Source: bench.LoopFromAction, Useful: true}},
			Suggested: map[string]int{bench.LoopFromFailurePrior: 3, bench.LoopFromProcedurePrior: 2},
			Observed:  []bench.LoopObservation{{Confidence: 0.9, Held: true}, {Confidence: 0.5, Held: false}}},
		// Task 2: the flaky test again (a repeat, unavoidable), recovered by a retry; no failure
		// of the build.
		{Round: 2, Success: true, Reads: 1, Calls: []bench.LoopCall{ok("a_build"), flaky, ok("a_test")},
			Observed: []bench.LoopObservation{{Confidence: 0.7, Held: true}, {Confidence: 0.1, Held: false}}},
	}
	m := bench.LoopMetrics(tasks)
	require.Equal(t, 3, m.Tasks)
	require.Equal(t, 2, m.Successes)
	require.Equal(t, 0.667, m.SuccessRate)
	require.Equal(t, 4.0, m.MeanSteps, "12 calls over 3 tasks")
	require.Equal(t, 4.0, m.MeanStepsToSuccess, "5 and 3 calls")
	require.Equal(t, 5, m.Failures)
	require.Equal(t, 2, m.Repeated, "task 1's build failure and task 2's flaky test; task 0's second build failure is within its task")
	require.Equal(t, 1, m.RepeatedAvoidable)
	require.Equal(t, 1, m.RepeatedUnavoidable)
	require.Equal(t, 3, m.TasksWithFailure)
	require.Equal(t, 2, m.RecoveredTasks)
	require.Equal(t, 0.667, m.RecoveryRate)
	require.Equal(t, 4, m.RecoveredCalls, "both of task 0's build failures, task 1's, task 2's test; not task 1's test")
	require.Equal(t, 2.0, m.MeanRecoverySteps, "(3 + 2 + 2 + 1) / 4")
	require.Equal(t, 3, m.Reads)

	require.Equal(t, []bench.LoopRound{
		{Round: 1, Tasks: 1, Successes: 1, SuccessRate: 1, MeanSteps: 5, Failures: 2},
		{Round: 2, Tasks: 2, Successes: 1, SuccessRate: 0.5, MeanSteps: 3.5, Failures: 3},
	}, m.Rounds)
	require.Equal(t, []bench.LoopMechanism{
		{Source: bench.LoopFromFailurePrior, Suggested: 3, Acted: 2, Useful: 1, Wasted: 1},
		{Source: bench.LoopFromProcedurePrior, Suggested: 2},
		{Source: bench.LoopFromAction, Acted: 1, Useful: 1},
	}, m.Mechanisms)

	c := m.Calibration
	require.Equal(t, 4, c.N)
	// Brier: ((0.9-1)² + 0.5² + (0.7-1)² + 0.1²) / 4 = (0.01 + 0.25 + 0.09 + 0.01) / 4 = 0.09.
	require.Equal(t, 0.09, c.Brier)
	require.Equal(t, 0.5, c.BaseRate)
	require.Equal(t, 0.25, c.BaseBrier)
	require.Equal(t, []bench.LoopBin{
		{Lo: 0, Hi: 0.2, N: 1, MeanConfidence: 0.1, Observed: 0},
		{Lo: 0.4, Hi: 0.6, N: 1, MeanConfidence: 0.5, Observed: 0},
		{Lo: 0.6, Hi: 0.8, N: 1, MeanConfidence: 0.7, Observed: 1},
		{Lo: 0.8, Hi: 1, N: 1, MeanConfidence: 0.9, Observed: 1},
	}, c.Bins)
}
