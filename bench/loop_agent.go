package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/vocab"
)

// Sources of what a memory-on agent acts on (LoopActed.Source, LoopMechanism.Source).
const (
	// LoopFromFailurePrior: a failure prior of the prospective pass before the task.
	LoopFromFailurePrior = "prospective_failure_prior"
	// LoopFromProcedurePrior: a procedure prior of the prospective pass before the task.
	LoopFromProcedurePrior = "prospective_procedure_prior"
	// LoopFromWeave: a failure pattern woven into the prospective pass's weave.
	LoopFromWeave = "weave"
	// LoopFromAction: the retrieve_failure_prior memory action, asked after a failure.
	LoopFromAction = "retrieve_failure_prior"
	// LoopFromExploration: the fixed exploration policy (no memory).
	LoopFromExploration = "exploration"
)

// loopActThreshold is the least confidence a memory-on agent acts on before a task; fixed
// before any run, the same for every mechanism.
const loopActThreshold = 0.5

// loopMemory is what a memory-on agent reads, through the service code paths (checkout's
// prospective pass and the memory actions), each read recorded in the agent's session.
type loopMemory struct {
	svc     *checkout.Service
	actions *memoryaction.Actions
	space   string
}

// loopAgent works tasks of the scripted world. Its policy is fixed: run the plan's steps in
// order; before a step, run the remedies memory warned of (memory on); after a failure, try
// the remedy memory names for it (memory on), then the remedies in the world's exploration
// order, each followed by a retry, within MaxSteps calls. With mem nil it never reads memory.
type loopAgent struct {
	mem      *loopMemory
	world    *loopWorld
	store    *eventloom.Store
	space    string
	maxSteps int
	clock    *scriptClock
}

// loopRun is one task in progress.
type loopRun struct {
	a    *loopAgent
	tw   *loopTaskWorld
	t    *LoopTask
	ran  []string // tools that succeeded in the session, in order
	cite []int64  // memory records the agent acted on (the outcome's evidence)
	last int64    // the last failed call's seq
	seen map[string]bool
}

// append appends ev to the space through the store (the append path of the service).
func (a *loopAgent) append(ctx context.Context, ev eventloom.NewEvent) (int64, error) {
	ev.Actor = "loop-agent"
	res, err := a.store.Append(ctx, &eventloom.AppendParams{SpaceID: a.space, Events: []eventloom.NewEvent{ev}})
	if err != nil {
		return 0, fmt.Errorf("append %s: %w", ev.Type, err)
	}
	return res.Receipts[0].Seq, nil
}

// work runs task i of family f and records its outcome.
func (a *loopAgent) work(ctx context.Context, i int, f string, round int) (*LoopTask, error) {
	tw := a.world.task(i, f)
	t := &LoopTask{Index: i, Family: f, Round: round, Session: fmt.Sprintf("%s-task-%03d", f, i), Calls: []LoopCall{}, Acted: []LoopActed{}, Observed: []LoopObservation{}}
	for _, tr := range []struct {
		on   bool
		name string
	}{{tw.flag, TrapFlag}, {tw.order, TrapOrder}, {tw.outage, TrapOutage}} {
		if tr.on {
			t.Traps = append(t.Traps, tr.name)
		}
	}
	r := &loopRun{a: a, tw: tw, t: t, seen: map[string]bool{}}
	goal := fmt.Sprintf("Build, migrate, test and deploy the %s service (task %d).", f, i)
	if _, err := a.append(ctx, a.clock.ev(vocab.TypeMessage, t.Session, goal, map[string]string{"role": "user"})); err != nil {
		return nil, err
	}
	planned := map[string][]LoopActed{}
	if a.mem != nil {
		if err := r.prospective(ctx, goal, planned); err != nil {
			return nil, err
		}
	}
	t.Success = true
	for _, step := range loopPlan(f) {
		for _, act := range planned[step] {
			if slices.Contains(r.ran, act.Remedy) || len(t.Calls) >= a.maxSteps {
				continue
			}
			act.Useful = r.useful(act.Remedy)
			if _, err := r.call(ctx, act.Remedy, act.Source); err != nil {
				return nil, err
			}
			t.Acted = append(t.Acted, act)
		}
		ok, err := r.step(ctx, step)
		if err != nil {
			return nil, err
		}
		if !ok {
			t.Success = false
			break
		}
	}
	status, summary := "success", "all four steps succeeded"
	evidence := slices.Clone(r.cite)
	if !t.Success {
		status, summary = "failure", "gave up after "+fmt.Sprint(len(t.Calls))+" calls"
		evidence = append(evidence, r.last)
	}
	slices.Sort(evidence)
	evidence = slices.Compact(evidence)
	_, err := a.append(ctx, a.clock.ev(vocab.TypeOutcomeRecorded, t.Session, "",
		vocab.OutcomeRecorded{SessionID: t.Session, Status: status, Summary: summary, Evidence: evidence}))
	return t, err
}

// prospective asks the prospective pass before the task and plans the remedies to run before
// each step: a failure prior's fix, a failure pattern the weave wove, a procedure prior's step
// run right before a plan step. Each served failure prior is a calibration observation.
func (r *loopRun) prospective(ctx context.Context, goal string, planned map[string][]LoopActed) error {
	m := r.a.mem
	p, err := m.svc.Prospective(ctx, &checkout.StepRequest{SpaceID: m.space, Goal: goal, ReasoningPhase: checkout.PhasePlan, SessionID: r.t.Session, Actor: "loop-agent"})
	if err != nil {
		return fmt.Errorf("prospective pass: %w", err)
	}
	r.t.Reads++
	plan := loopPlan(r.t.Family)
	acted := false
	add := func(step, source, id string, conf float64, fix []string) {
		if !slices.Contains(plan, step) {
			return
		}
		r.observe(source, id, step, conf, fix)
		if conf < loopActThreshold {
			return
		}
		rems := r.remedies(fix, step)
		r.suggest(source, len(rems))
		if len(planned[step]) > 0 {
			return
		}
		for _, rem := range rems {
			planned[step] = append(planned[step], LoopActed{Source: source, Step: step, Remedy: rem, Confidence: round3(conf)})
			acted = true
		}
	}
	for _, fp := range p.FailurePriors {
		add(fp.Tool, LoopFromFailurePrior, fp.ArtifactID, fp.Confidence, fp.Fix)
	}
	if p.Weave != nil {
		for _, w := range p.Weave.Inferred {
			if w.Type != "failure" {
				continue
			}
			var pl struct {
				Tool string   `json:"tool"`
				Fix  []string `json:"fix"`
			}
			_ = json.Unmarshal(w.Payload, &pl)
			add(pl.Tool, LoopFromWeave, w.ArtifactID, w.Confidence, pl.Fix)
		}
	}
	for _, pr := range p.ProcedurePriors {
		if pr.Confidence < loopActThreshold {
			continue
		}
		for j := 0; j+1 < len(pr.Steps); j++ {
			rem, next := pr.Steps[j], pr.Steps[j+1]
			if !slices.Contains(plan, next) || !slices.Contains(loopRemedies(r.t.Family), rem) {
				continue
			}
			r.suggest(LoopFromProcedurePrior, 1)
			if slices.ContainsFunc(planned[next], func(x LoopActed) bool { return x.Remedy == rem }) {
				continue
			}
			planned[next] = append(planned[next], LoopActed{Source: LoopFromProcedurePrior, Step: next, Remedy: rem, Confidence: round3(pr.Confidence)})
			acted = true
		}
	}
	if acted && p.SurfacedSeq > 0 {
		r.cite = append(r.cite, p.SurfacedSeq)
	}
	return nil
}

// useful reports whether running remedy now causes a recovery the task needs: a plan step
// that has not succeeded yet meets a trap the remedy fixes (a remedy named for one step may
// fix a later one: migrate_base run before the build still spares the migration).
func (r *loopRun) useful(remedy string) bool {
	if remedy == "" || slices.Contains(r.ran, remedy) {
		return false
	}
	for _, s := range loopPlan(r.t.Family) {
		if !slices.Contains(r.ran, s) && r.tw.causes(s, remedy) {
			return true
		}
	}
	return false
}

// suggest counts n remedies a mechanism named for a plan step at a confidence the agent acts
// on, whether or not another mechanism had named them first.
func (r *loopRun) suggest(source string, n int) {
	if n == 0 {
		return
	}
	if r.t.Suggested == nil {
		r.t.Suggested = map[string]int{}
	}
	r.t.Suggested[source] += n
}

// remedies are the remedy tools of a fix sequence for step, each once, in order (the fix of
// a failure pattern also holds the failed retries of the step itself).
func (r *loopRun) remedies(fix []string, step string) []string {
	var out []string
	for _, f := range fix {
		if f != step && slices.Contains(loopRemedies(r.t.Family), f) && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// observe records a served failure prior's confidence and whether it held in this task: the
// step meets a trap that one of the prior's remedies causes the recovery of. Each artifact
// counts once per task.
func (r *loopRun) observe(source, id, step string, conf float64, fix []string) {
	if r.seen[id] {
		return
	}
	r.seen[id] = true
	held := slices.ContainsFunc(fix, func(f string) bool { return r.tw.causes(step, f) })
	r.t.Observed = append(r.t.Observed, LoopObservation{Source: source, Step: step, Confidence: round3(conf), Held: held})
}

// call runs tool once (a remedy always succeeds) and records it as a tool_call.completed.
func (r *loopRun) call(ctx context.Context, tool, source string) (bool, error) {
	n := 1
	for _, c := range r.t.Calls {
		if c.Tool == tool {
			n++
		}
	}
	errText, trap := r.tw.call(tool, n, r.ran)
	d := vocab.ToolCallCompleted{Tool: tool, Arguments: loopArguments(tool), Outcome: "success"}
	if errText != "" {
		d.Outcome, d.Error = "failure", errText
	}
	seq, err := r.a.append(ctx, r.a.clock.ev(vocab.TypeToolCallCompleted, r.t.Session, "", d))
	if err != nil {
		return false, err
	}
	r.t.Calls = append(r.t.Calls, LoopCall{Tool: tool, Error: errText, Trap: trap, Source: source})
	if errText != "" {
		r.last = seq
		return false, nil
	}
	r.ran = append(r.ran, tool)
	return true, nil
}

// step runs a plan step and, when it fails, recovers: the remedy memory names for the failure
// (memory on), then the exploration order, each remedy followed by a retry, until it succeeds
// or the calls run out.
func (r *loopRun) step(ctx context.Context, step string) (bool, error) {
	if len(r.t.Calls) >= r.a.maxSteps {
		return false, nil
	}
	ok, err := r.call(ctx, step, "plan")
	if err != nil || ok {
		return ok, err
	}
	tried := map[string]bool{}
	retry := func(remedy, source string) (bool, error) {
		tried[remedy] = true
		if remedy != "" {
			if len(r.t.Calls) >= r.a.maxSteps {
				return false, nil
			}
			if _, err := r.call(ctx, remedy, source); err != nil {
				return false, err
			}
		}
		if len(r.t.Calls) >= r.a.maxSteps {
			return false, nil
		}
		return r.call(ctx, step, source)
	}
	if r.a.mem != nil {
		rems, conf, ok, err := r.askFailurePrior(ctx, step)
		if err != nil {
			return false, err
		}
		if ok {
			if len(rems) == 0 {
				rems = []string{""} // the prior's fix is a plain retry
			}
			for _, rem := range rems {
				if rem != "" && slices.Contains(r.ran, rem) {
					continue
				}
				r.t.Acted = append(r.t.Acted, LoopActed{Source: LoopFromAction, Step: step, Remedy: rem, Confidence: round3(conf), Useful: r.useful(rem)})
				if ok, err := retry(rem, LoopFromAction); err != nil || ok {
					return ok, err
				}
			}
		}
	}
	for _, rem := range r.a.world.explorationOrder(r.t.Index, r.t.Family, step) {
		if tried[rem] || (rem != "" && slices.Contains(r.ran, rem)) {
			continue
		}
		if len(r.t.Calls) >= r.a.maxSteps {
			return false, nil
		}
		if ok, err := retry(rem, LoopFromExploration); err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// askFailurePrior asks retrieve_failure_prior about the failed step and its error, and returns
// the remedies of the best prior of that tool (none when memory has no pattern of it).
func (r *loopRun) askFailurePrior(ctx context.Context, step string) ([]string, float64, bool, error) {
	m := r.a.mem
	errText := r.t.Calls[len(r.t.Calls)-1].Error
	pr, err := m.actions.FailurePrior(ctx, memoryaction.PriorParams{SpaceID: m.space, Goal: errText, Tools: []string{step}, Limit: 3,
		Recording: memoryaction.Recording{SessionID: r.t.Session, Actor: "loop-agent"}})
	if err != nil {
		return nil, 0, false, fmt.Errorf("retrieve failure prior: %w", err)
	}
	r.t.Reads++
	for _, a := range pr.Priors {
		var pl struct {
			Tool string   `json:"tool"`
			Fix  []string `json:"fix"`
		}
		_ = json.Unmarshal(a.Payload, &pl)
		if pl.Tool != step {
			continue
		}
		r.observe(LoopFromAction, a.ID, step, a.Confidence, pl.Fix)
		r.suggest(LoopFromAction, max(len(r.remedies(pl.Fix, step)), 1))
		if pr.Record != nil {
			r.cite = append(r.cite, pr.Record.Seq)
		}
		return r.remedies(pl.Fix, step), a.Confidence, true, nil
	}
	return nil, 0, false, nil
}

// loopClock starts every arm's scripted clock at the same instant.
func loopClock() *scriptClock {
	return &scriptClock{t: time.Date(2026, 2, 2, 9, 0, 0, 0, time.UTC)}
}
