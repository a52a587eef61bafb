package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

// DatasetAgentTraces names the token lane on scripted agent traces (LatentTraces).
const DatasetAgentTraces = "agent-traces (scripted)"

// DatasetAgentTracesLast names the token lane's second question on the same traces: when a
// failure last happened (the evidence is its last occurrence, which repeats the first word for
// word).
const DatasetAgentTracesLast = "agent-traces (scripted), last failure"

// traceFailure is one way a family's tool fails, and the call that fixed it.
type traceFailure struct {
	tool, err, fix string
}

// traceFailures are a family's failure modes: the tool, its error and the fixing call.
func traceFailures(name string) []traceFailure {
	return []traceFailure{
		{name + "_migrate", "lock timeout waiting for the " + name + " schema lock after 30s", "release_" + name + "_lock"},
		{name + "_test", "dial tcp " + name + "-db:5432: connect: connection refused", "restart_" + name + "_db"},
		{name + "_deploy", "back-off pulling image registry.local/" + name + ":latest", "push_" + name + "_image"},
	}
}

// traceLookaround is the most calls an agent makes between a failure and its fix (reading,
// grepping: from none to this many).
const traceLookaround = 3

// shellCommand is the command a shell runs for a step or fix the named-tool families call by
// name: "billing_migrate" is "make billing-migrate", a look around its usual command.
func shellCommand(tool string) string {
	if cmd, ok := traceShellNoise[tool]; ok {
		return cmd
	}
	return "make " + strings.ReplaceAll(tool, "_", "-")
}

// traceShellNoise are the look-around calls' commands in a shell.
var traceShellNoise = map[string]string{"read_file": "cat src/export.go", "grep": "grep -rn TODO src", "edit_file": "sed -i s/v1/v2/ src/export.go",
	"list_dir": "ls src", "run_linter": "golangci-lint run", "git_diff": "git diff", "git_status": "git status", "open_pr": "gh pr create --fill"}

// traceNoise are the calls an agent makes between the steps that matter.
var traceNoise = []string{"read_file", "grep", "edit_file", "list_dir", "run_linter", "git_diff", "git_status", "open_pr"}

// traces runs the token lane on scripted agent traces (docs/benchmarks.md): Families task
// families of coding sessions in one space, each session a task, tool calls around its build,
// test and deploy, and now and then a failure of one of the family's three failure modes, fixed
// by a call the agent makes after a look around (none to traceLookaround calls) and then
// retried; the assistant's messages do not restate the error. Every other family calls every
// step, look around and fix through one shell tool ("bash" with the command as its arguments). Each family's failure modes are then asked about ("... fails with <error>. What fixed
// it the previous times?"); the evidence is any of the fixing calls, which share no word with
// the question but the family's name. Each mode is also asked when it last failed ("When did
// ... last fail with <error>?"): the evidence is the last failing call, which the encoding gate
// finds repeating the first one. The traces are synthetic: they exercise the structure the
// conversational dev sets lack (failure patterns with their fixes, repeated calls), and they are
// no evidence of how an agent's real sessions read.
func (l *latentBench) traces(ctx context.Context) ([]*TokenReport, error) {
	space := "traces-" + l.run
	rng := rand.New(rand.NewPCG(11, 12))
	c := &scriptClock{t: time.Date(2026, 2, 2, 9, 0, 0, 0, time.UTC)}
	const sessionsPerFamily = 60
	// fixes and fails are the seqs of each failure mode's fixing and failing calls, by family
	// and mode.
	fixes, fails := map[string][][]int64{}, map[string][][]int64{}
	var names []string
	for i := range l.p.Families {
		name := latentFamilies[i%len(latentFamilies)]
		if i >= len(latentFamilies) {
			name = fmt.Sprintf("%s%d", name, i/len(latentFamilies))
		}
		names = append(names, name)
		fixes[name], fails[name] = make([][]int64, 3), make([][]int64, 3)
	}
	for s := range sessionsPerFamily {
		for fam, name := range names {
			sess := fmt.Sprintf("%s-task-%d", name, s+1)
			modes := traceFailures(name)
			// call is one of the agent's calls: a named tool, or in every other family a shell
			// running the step's command (shellCommand), as agents with one generic tool do.
			call := func(tool, errText string) eventloom.NewEvent {
				if fam%2 == 0 {
					return c.tool(sess, tool, errText)
				}
				d := map[string]string{"tool": "bash", "arguments": shellCommand(tool), "outcome": "success"}
				if errText != "" {
					d["outcome"], d["error"] = "failure", errText
				}
				return c.ev("tool_call.completed", sess, "", d)
			}
			var evs []eventloom.NewEvent
			var fixAt []int // positions of fixing calls in evs, with their mode
			var fixMode []int
			var failAt, failMode []int
			evs = append(evs, c.ev("message", sess, fmt.Sprintf("Task %d on the %s service: %s.", s+1, name,
				[]string{"add a field to the export", "speed up the nightly job", "fix the date parsing", "rename the settings flag"}[rng.IntN(4)]),
				map[string]string{"role": "user"}))
			noise := func(n int) {
				for range n {
					evs = append(evs, call(traceNoise[rng.IntN(len(traceNoise))], ""))
				}
			}
			step := func(tool string, mode int) {
				if mode >= 0 && rng.IntN(3) == 0 {
					f := modes[mode]
					failAt, failMode = append(failAt, len(evs)), append(failMode, mode)
					evs = append(evs, call(f.tool, f.err),
						c.ev("message", sess, "That did not work; trying something else.", map[string]string{"role": "assistant"}))
					noise(rng.IntN(traceLookaround + 1)) // looking around before the fix
					fixAt, fixMode = append(fixAt, len(evs)), append(fixMode, mode)
					evs = append(evs, call(f.fix, ""))
				}
				evs = append(evs, call(tool, ""))
			}
			noise(4 + rng.IntN(4))
			step(name+"_build", -1)
			noise(3 + rng.IntN(4))
			step(name+"_migrate", 0)
			step(name+"_test", 1)
			noise(2 + rng.IntN(3))
			step(name+"_deploy", 2)
			evs = append(evs, c.ev("message", sess, "Done, the change is out.", map[string]string{"role": "assistant"}))
			res, err := l.store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: evs})
			if err != nil {
				return nil, err
			}
			for k, at := range fixAt {
				fixes[name][fixMode[k]] = append(fixes[name][fixMode[k]], res.Receipts[at].Seq)
			}
			for k, at := range failAt {
				fails[name][failMode[k]] = append(fails[name][failMode[k]], res.Receipts[at].Seq)
			}
		}
	}
	if err := l.prepare(ctx, space); err != nil {
		return nil, fmt.Errorf("agent traces: %w", err)
	}
	t, last := l.newTokenTally(DatasetAgentTraces), l.newTokenTally(DatasetAgentTracesLast)
	if err := l.countArtifacts(ctx, space, t.tr.Artifacts); err != nil {
		return nil, err
	}
	last.tr.Artifacts = t.tr.Artifacts
	for fam, name := range names {
		for m, f := range traceFailures(name) {
			evidence := fixes[name][m]
			if len(evidence) < 2 {
				continue // asked only about a failure that recurred
			}
			query := fmt.Sprintf("The %s step fails with %q. What fixed it the previous times?", f.tool, f.err)
			if fam%2 == 1 {
				query = fmt.Sprintf("%q fails with %q. What fixed it the previous times?", shellCommand(f.tool), f.err)
			}
			hit := func(seqs []int64) bool {
				return slices.ContainsFunc(seqs, func(s int64) bool { return slices.Contains(evidence, s) })
			}
			if err := t.ask(ctx, f.tool+"/fix", checkout.Request{SpaceID: space, Query: query}, hit); err != nil {
				return nil, fmt.Errorf("agent traces: %w", err)
			}
			latest := slices.Max(fails[name][m])
			query = fmt.Sprintf("When did the %s step last fail with %q?", f.tool, f.err)
			if fam%2 == 1 {
				query = fmt.Sprintf("When did %q last fail with %q?", shellCommand(f.tool), f.err)
			}
			if err := last.ask(ctx, f.tool+"/last", checkout.Request{SpaceID: space, Query: query}, func(seqs []int64) bool { return slices.Contains(seqs, latest) }); err != nil {
				return nil, fmt.Errorf("agent traces: %w", err)
			}
		}
	}
	return []*TokenReport{t.report(), last.report()}, l.checkChain(ctx, space)
}
