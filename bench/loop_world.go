package bench

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
)

// The scripted world of `zaxy bench loop`: task families of four steps (build, migrate, test,
// deploy), each step with a way of failing. Every draw is a pure function of the seed and of
// where it is drawn (task, step, attempt), never of a shared random stream, so two agents that
// act differently still meet the same world (common random numbers): a trap present in task 7
// is present for every arm.

// Trap kinds: what makes a step fail, and whether a remedy causes its recovery.
const (
	// TrapFlag: build fails for a missing build flag unless the family's set_build_tags ran
	// earlier in the session. Its remedy causes the recovery.
	TrapFlag = "flag"
	// TrapOrder: migrate fails for a missing relation unless migrate_base ran earlier in the
	// session. Its remedy causes the recovery.
	TrapOrder = "order"
	// TrapFlaky: test fails on a timeout at random on any attempt; no remedy helps, a retry
	// succeeds as often as the first attempt. Whatever the agent ran before the retry that
	// passed co-occurs with success without causing it: a confounded trace.
	TrapFlaky = "flaky"
	// TrapOutage: deploy's first attempt fails on a registry outage that is over by the next
	// attempt. The same confound as TrapFlaky, once per task.
	TrapOutage = "outage"
)

// loopWorld draws the scripted world of one seed.
type loopWorld struct {
	seed uint64
	// pFlag and pOrder are the chances a task meets the build-flag and migration-order traps;
	// pFlaky the chance any test attempt times out; pOutage the chance a task's first deploy
	// meets an outage.
	pFlag, pOrder, pFlaky, pOutage float64
}

// defaultLoopWorld is the world's parameters, fixed before any run (not tuned to memory).
func defaultLoopWorld(seed uint64) *loopWorld {
	return &loopWorld{seed: seed, pFlag: 0.7, pOrder: 0.5, pFlaky: 0.3, pOutage: 0.25}
}

// draw is a uniform number in [0, 1) that depends only on the seed and the keys.
func (w *loopWorld) draw(keys ...string) float64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], w.seed)
	_, _ = h.Write(b[:])
	for _, k := range keys {
		_, _ = h.Write([]byte(k))
		_, _ = h.Write([]byte{0})
	}
	x := h.Sum64()
	// splitmix64 finalizer: FNV's low bits alone are poorly mixed.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / float64(uint64(1)<<53)
}

// loopTaskWorld is one task's draw of the world: which traps it meets.
type loopTaskWorld struct {
	w      *loopWorld
	family string
	task   int
	flag   bool
	order  bool
	outage bool
}

// task draws the traps of task number i (0-based, across families) of family f.
func (w *loopWorld) task(i int, f string) *loopTaskWorld {
	id := fmt.Sprint(i)
	return &loopTaskWorld{w: w, family: f, task: i,
		flag:   w.draw("flag", id) < w.pFlag,
		order:  w.draw("order", id) < w.pOrder,
		outage: w.draw("outage", id) < w.pOutage}
}

// loopPlan is a family's four steps, in order.
func loopPlan(f string) []string {
	return []string{f + "_build", f + "_migrate", f + "_test", f + "_deploy"}
}

// loopRemedies are the remedies an agent may try after a failure, for any step of family f,
// and "" for a plain retry.
func loopRemedies(f string) []string {
	return []string{f + "_set_build_tags", f + "_migrate_base", f + "_clear_cache", f + "_restart_runner", ""}
}

// loopArguments is the scripted command line of a call (tool_call.completed data.arguments):
// the same for every attempt, so the failure producer finds a failure's retry by it.
func loopArguments(tool string) string {
	return "make " + strings.ReplaceAll(tool, "_", "-")
}

// call runs tool as attempt n (1-based) of it in the task, given the tools already run in the
// session; it returns the error ("" on success) and the trap that made it fail.
func (t *loopTaskWorld) call(tool string, n int, ran []string) (errText, trap string) {
	f := t.family
	switch tool {
	case f + "_build":
		if t.flag && !slices.Contains(ran, f+"_set_build_tags") {
			return fmt.Sprintf("go build: undefined: %sIntegrationClient (build constraints exclude all Go files; missing -tags=integration)", title(f)), TrapFlag
		}
	case f + "_migrate":
		if t.order && !slices.Contains(ran, f+"_migrate_base") {
			return fmt.Sprintf("ERROR: relation \"%s_accounts\" does not exist (SQLSTATE 42P01)", f), TrapOrder
		}
	case f + "_test":
		if t.w.draw("flaky", fmt.Sprint(t.task), fmt.Sprint(n)) < t.w.pFlaky {
			return fmt.Sprintf("--- FAIL: Test%sSync (30.00s): context deadline exceeded", title(f)), TrapFlaky
		}
	case f + "_deploy":
		if t.outage && n == 1 {
			return "deploy: registry answered 503 Service Unavailable", TrapOutage
		}
	}
	return "", ""
}

// causes reports whether remedy fixes the trap of tool in this task: the trap is present and
// the remedy is its cause of recovery. Flaky tests and outages have none.
func (t *loopTaskWorld) causes(tool, remedy string) bool {
	f := t.family
	switch {
	case tool == f+"_build":
		return t.flag && remedy == f+"_set_build_tags"
	case tool == f+"_migrate":
		return t.order && remedy == f+"_migrate_base"
	}
	return false
}

// explorationOrder is the order the fixed policy tries the remedies in after step tool fails
// in task i: a shuffle drawn from the seed, the task and the tool alone.
func (w *loopWorld) explorationOrder(i int, f, tool string) []string {
	rs := loopRemedies(f)
	keys := make(map[string]float64, len(rs))
	for _, r := range rs {
		keys[r] = w.draw("explore", fmt.Sprint(i), tool, r)
	}
	slices.SortStableFunc(rs, func(a, b string) int {
		return cmpFloat(keys[a], keys[b])
	})
	return rs
}

// cmpFloat orders two floats ascending.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// title is s with its first letter upper-cased (ASCII family names).
func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// loopSchedule is the order tasks come in: rounds, each working every family once in an order
// drawn from the seed.
func (w *loopWorld) loopSchedule(families []string, tasks int) []string {
	var out []string
	for round := 0; len(out) < tasks; round++ {
		fs := slices.Clone(families)
		keys := map[string]float64{}
		for _, f := range fs {
			keys[f] = w.draw("schedule", fmt.Sprint(round), f)
		}
		slices.SortStableFunc(fs, func(a, b string) int { return cmpFloat(keys[a], keys[b]) })
		out = append(out, fs...)
	}
	return out[:tasks]
}

// round3 rounds to three decimals (report figures).
func round3(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return math.Round(f*1000) / 1000
}
