package bench

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// LoopArm is one arm's results over the task sequence.
type LoopArm struct {
	Arm   string `json:"arm"`
	Space string `json:"space"`
	Tasks int    `json:"tasks"`
	// Successes counts the tasks whose four steps all succeeded within the calls allowed.
	Successes   int     `json:"successes"`
	SuccessRate float64 `json:"success_rate"`
	// MeanSteps is tool calls per task; MeanStepsToSuccess per successful task.
	MeanSteps          float64 `json:"mean_steps"`
	MeanStepsToSuccess float64 `json:"mean_steps_to_success"`
	// Failures counts failed calls; Repeated those whose tool and error had already failed in
	// an earlier task of the arm, RepeatedAvoidable those of them a remedy would have avoided
	// (the flag and order traps), RepeatedUnavoidable the flaky tests and outages.
	Failures            int `json:"failures"`
	Repeated            int `json:"repeated_failures"`
	RepeatedAvoidable   int `json:"repeated_avoidable"`
	RepeatedUnavoidable int `json:"repeated_unavoidable"`
	// TasksWithFailure counts tasks with at least one failed call, RecoveredTasks those of
	// them that still succeeded; RecoveredCalls counts failed calls whose tool later
	// succeeded in the task, MeanRecoverySteps the calls from such a failure to that success.
	TasksWithFailure  int     `json:"tasks_with_failure"`
	RecoveredTasks    int     `json:"recovered_tasks"`
	RecoveryRate      float64 `json:"recovery_rate"`
	RecoveredCalls    int     `json:"recovered_calls"`
	MeanRecoverySteps float64 `json:"mean_recovery_steps"`
	// Reads counts the memory reads the agents made; LoggedReads the reads the log records
	// (checkout.surfaced and memory_action.surfaced events of the arm's space).
	Reads       int `json:"reads"`
	LoggedReads int `json:"logged_reads"`
	// Retrospective counts the events the retrospective pass appended, by type.
	Retrospective map[string]int `json:"retrospective"`
	// Rounds is the learning curve: the tasks of each family's n-th visit.
	Rounds []LoopRound `json:"rounds"`
	// Mechanisms are the remedies run because memory named them, by source.
	Mechanisms []LoopMechanism `json:"mechanisms"`
	// Calibration is that of the failure priors memory served about plan steps.
	Calibration LoopCalibration `json:"calibration"`
	// TaskList is every task, in order (for the determinism check and for reading traces).
	TaskList []LoopTask `json:"task_list"`
}

// LoopRound is the tasks of one round (each family's n-th task).
type LoopRound struct {
	Round       int     `json:"round"`
	Tasks       int     `json:"tasks"`
	Successes   int     `json:"successes"`
	SuccessRate float64 `json:"success_rate"`
	MeanSteps   float64 `json:"mean_steps"`
	Failures    int     `json:"failures"`
}

// LoopMechanism is what one memory mechanism made the agent run: remedies acted on, how many
// of them the world says caused a recovery (Useful) and how many did not (Wasted: the trap
// was absent, or the remedy co-occurred with a flaky success without causing it).
type LoopMechanism struct {
	Source string `json:"source"`
	// Suggested counts the remedies it named for plan steps at a confidence acted on; the
	// agent acts on the first mechanism that names a step's remedies (failure priors, then
	// the weave, then procedure priors), so a later one's suggestions may go unused.
	Suggested int `json:"suggested"`
	Acted     int `json:"acted"`
	Useful    int `json:"useful"`
	Wasted    int `json:"wasted"`
}

// LoopCalibration is the reliability of the confidence memory reported on failure priors:
// the Brier score against the world's truth, the Brier of always saying the base rate, and
// reliability bins of width 0.2.
type LoopCalibration struct {
	N         int       `json:"n"`
	Brier     float64   `json:"brier"`
	BaseRate  float64   `json:"base_rate"`
	BaseBrier float64   `json:"base_brier"`
	Bins      []LoopBin `json:"bins"`
}

// LoopBin is one reliability bin: confidences in [Lo, Hi).
type LoopBin struct {
	Lo             float64 `json:"lo"`
	Hi             float64 `json:"hi"`
	N              int     `json:"n"`
	MeanConfidence float64 `json:"mean_confidence"`
	Observed       float64 `json:"observed"`
}

// LoopMetrics computes an arm's figures from its tasks, in order.
func LoopMetrics(ts []LoopTask) LoopArm {
	m := LoopArm{Tasks: len(ts), TaskList: ts, Rounds: []LoopRound{}, Mechanisms: []LoopMechanism{}}
	seen := map[string]bool{}
	var steps, stepsOK, recSteps int
	rounds := map[int]*LoopRound{}
	mech := map[string]*LoopMechanism{}
	var obs []LoopObservation
	for _, t := range ts {
		steps += len(t.Calls)
		m.Reads += t.Reads
		r := rounds[t.Round]
		if r == nil {
			r = &LoopRound{Round: t.Round}
			rounds[t.Round] = r
		}
		r.Tasks++
		r.MeanSteps += float64(len(t.Calls))
		if t.Success {
			m.Successes++
			stepsOK += len(t.Calls)
			r.Successes++
		}
		failed := false
		var keys []string
		for k, c := range t.Calls {
			if c.Error == "" {
				continue
			}
			failed = true
			m.Failures++
			r.Failures++
			key := c.Tool + "\x00" + c.Error
			if seen[key] {
				m.Repeated++
				if c.Trap == TrapFlag || c.Trap == TrapOrder {
					m.RepeatedAvoidable++
				} else {
					m.RepeatedUnavoidable++
				}
			}
			keys = append(keys, key)
			for j := k + 1; j < len(t.Calls); j++ {
				if t.Calls[j].Tool == c.Tool && t.Calls[j].Error == "" {
					m.RecoveredCalls++
					recSteps += j - k
					break
				}
			}
		}
		for _, k := range keys {
			seen[k] = true // seen from the next task on: a retry within a task is no repeat
		}
		if failed {
			m.TasksWithFailure++
			if t.Success {
				m.RecoveredTasks++
			}
		}
		at := func(source string) *LoopMechanism {
			x := mech[source]
			if x == nil {
				x = &LoopMechanism{Source: source}
				mech[source] = x
			}
			return x
		}
		for source, n := range t.Suggested {
			at(source).Suggested += n
		}
		for _, a := range t.Acted {
			x := at(a.Source)
			x.Acted++
			if a.Useful {
				x.Useful++
			} else {
				x.Wasted++
			}
		}
		obs = append(obs, t.Observed...)
	}
	m.SuccessRate = loopRatio(m.Successes, m.Tasks)
	m.MeanSteps = round3(float64(steps) / float64(max(m.Tasks, 1)))
	m.MeanStepsToSuccess = round3(float64(stepsOK) / float64(max(m.Successes, 1)))
	m.RecoveryRate = loopRatio(m.RecoveredTasks, m.TasksWithFailure)
	m.MeanRecoverySteps = round3(float64(recSteps) / float64(max(m.RecoveredCalls, 1)))
	for _, k := range slices.Sorted(func(yield func(int) bool) {
		for k := range rounds {
			if !yield(k) {
				return
			}
		}
	}) {
		r := rounds[k]
		r.SuccessRate = loopRatio(r.Successes, r.Tasks)
		r.MeanSteps = round3(r.MeanSteps / float64(r.Tasks))
		m.Rounds = append(m.Rounds, *r)
	}
	for _, k := range sortedKeys(mech) {
		m.Mechanisms = append(m.Mechanisms, *mech[k])
	}
	m.Calibration = loopCalibration(obs)
	return m
}

// loopRatio is n/d rounded, 0 when d is 0.
func loopRatio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return round3(float64(n) / float64(d))
}

// loopCalibration is the Brier score and reliability bins of the observations.
func loopCalibration(obs []LoopObservation) LoopCalibration {
	c := LoopCalibration{N: len(obs), Bins: []LoopBin{}}
	if len(obs) == 0 {
		return c
	}
	bins := make([]LoopBin, 5)
	for i := range bins {
		bins[i].Lo, bins[i].Hi = float64(i)/5, float64(i+1)/5
	}
	var brier float64
	held := 0
	for _, o := range obs {
		y := 0.0
		if o.Held {
			y = 1
			held++
		}
		brier += (o.Confidence - y) * (o.Confidence - y)
		b := min(int(o.Confidence*5), 4)
		bins[b].N++
		bins[b].MeanConfidence += o.Confidence
		bins[b].Observed += y
	}
	n := float64(len(obs))
	c.Brier = round3(brier / n)
	base := float64(held) / n
	c.BaseRate = round3(base)
	c.BaseBrier = round3(base * (1 - base))
	for _, b := range bins {
		if b.N == 0 {
			continue
		}
		b.MeanConfidence = round3(b.MeanConfidence / float64(b.N))
		b.Observed = round3(b.Observed / float64(b.N))
		c.Bins = append(c.Bins, b)
	}
	return c
}

// WriteText prints the report: one block per arm, then the learning curves side by side.
func (r *LoopReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "bench loop: run %s, seed %d, %d families, %d tasks per arm, at most %d calls a task, memory acted on at confidence >= %.1f (%.1f s)\n",
		r.Run, r.Seed, r.Families, r.Tasks, r.MaxSteps, r.Threshold, r.Seconds)
	for _, a := range r.Arms {
		fmt.Fprintf(w, "\narm %s (space %s)\n", a.Arm, a.Space)
		fmt.Fprintf(w, "  task success:       %d of %d (%.3f)\n", a.Successes, a.Tasks, a.SuccessRate)
		fmt.Fprintf(w, "  steps:              %.2f per task, %.2f per successful task\n", a.MeanSteps, a.MeanStepsToSuccess)
		fmt.Fprintf(w, "  failed calls:       %d, repeated from an earlier task %d (avoidable %d, flaky or outage %d)\n",
			a.Failures, a.Repeated, a.RepeatedAvoidable, a.RepeatedUnavoidable)
		fmt.Fprintf(w, "  recovery:           %d of %d tasks with a failure succeeded (%.3f); %d failed calls recovered, %.2f calls to recover\n",
			a.RecoveredTasks, a.TasksWithFailure, a.RecoveryRate, a.RecoveredCalls, a.MeanRecoverySteps)
		fmt.Fprintf(w, "  memory reads:       %d by the agents, %d in the log\n", a.Reads, a.LoggedReads)
		var retro []string
		for _, k := range sortedKeys(a.Retrospective) {
			retro = append(retro, fmt.Sprintf("%s %d", k, a.Retrospective[k]))
		}
		if len(retro) == 0 {
			retro = []string{"nothing appended"}
		}
		fmt.Fprintf(w, "  retrospective pass: %s\n", strings.Join(retro, ", "))
		for _, x := range a.Mechanisms {
			fmt.Fprintf(w, "  %-28s %3d remedies named, %3d run: %3d caused a recovery, %3d did not\n", x.Source+":", x.Suggested, x.Acted, x.Useful, x.Wasted)
		}
		if c := a.Calibration; c.N > 0 {
			fmt.Fprintf(w, "  calibration:        %d failure priors, Brier %.3f (base rate %.3f: Brier %.3f)\n", c.N, c.Brier, c.BaseRate, c.BaseBrier)
			for _, b := range c.Bins {
				fmt.Fprintf(w, "    [%.1f, %.1f): n %3d, mean confidence %.3f, held %.3f\n", b.Lo, b.Hi, b.N, b.MeanConfidence, b.Observed)
			}
		}
	}
	fmt.Fprintf(w, "\nlearning curve (round: success rate / mean steps per arm)\n")
	if len(r.Arms) == 0 {
		return
	}
	for i := range r.Arms[0].Rounds {
		fmt.Fprintf(w, "  round %d:", r.Arms[0].Rounds[i].Round)
		for _, a := range r.Arms {
			if i < len(a.Rounds) {
				fmt.Fprintf(w, "  %s %.3f / %.2f", a.Arm, a.Rounds[i].SuccessRate, a.Rounds[i].MeanSteps)
			}
		}
		fmt.Fprintln(w)
	}
}
