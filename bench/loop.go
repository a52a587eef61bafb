package bench

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/retrospective"
	"github.com/zaxy/zaxy/topic"
	"github.com/zaxy/zaxy/vocab"
)

// Arms of `zaxy bench loop` (LoopOptions.Arms).
const (
	// LoopOff: the agent never reads memory; its log is still projected, built and judged.
	LoopOff = "off"
	// LoopOn: the agent acts on the prospective pass, its weave and the memory actions; the
	// retrospective pass proposes its judgements for review (the default of a space).
	LoopOn = "on"
	// LoopApply: as LoopOn, in a space that opts into applying the retrospective pass's
	// judgements at once (retrospective.configured mode apply, its default min_confidence).
	LoopApply = "apply"
)

// LoopArms lists every arm, in the order each task runs them.
var LoopArms = []string{LoopOff, LoopOn, LoopApply}

// LoopOptions configures Loop.
type LoopOptions struct {
	Pool             *pgxpool.Pool
	Projector        *projection.Projector
	Embedder         *projection.Embedder // nil when embedding is off
	Provider         embedding.Embedder   // nil when embedding is off
	TextSearchConfig string
	Logger           *slog.Logger
	// Seed draws the world (traps, flaky attempts, exploration order, task order); default 1.
	Seed uint64
	// Families is how many task families the agents work (default 6).
	Families int
	// Tasks is how many tasks each arm works, in rounds over the families (default 8 per
	// family).
	Tasks int
	// MaxSteps is the most tool calls a task may take before the agent gives up (default 14).
	MaxSteps int
	// Arms are the arms to run (default LoopArms).
	Arms []string
	// Run names the spaces, loop-<run>-<arm>; default the start time in base 36. Two runs
	// with the same seed and run name in two databases make the same log.
	Run string
}

// LoopReport is what `zaxy bench loop` measured.
type LoopReport struct {
	Run       string    `json:"run"`
	Seed      uint64    `json:"seed"`
	Families  int       `json:"families"`
	Tasks     int       `json:"tasks"`
	MaxSteps  int       `json:"max_steps"`
	Threshold float64   `json:"act_threshold"`
	Arms      []LoopArm `json:"arms"`
	Seconds   float64   `json:"seconds"`
}

// Loop runs the scripted agents of every arm over the same sequence of tasks, task by task
// interleaved across arms, each arm in a space of its own. After each task the workers' steps
// run as the jobs would, in order: projection (and embeddings, the topic model), the latent
// build, the retrospective pass over the task's session. It appends only to spaces it creates.
func Loop(ctx context.Context, o *LoopOptions) (*LoopReport, error) {
	start := time.Now()
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Families == 0 {
		o.Families = 6
	}
	if o.Tasks == 0 {
		o.Tasks = 8 * o.Families
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = 14
	}
	if len(o.Arms) == 0 {
		o.Arms = LoopArms
	}
	if o.Run == "" {
		o.Run = fmt.Sprintf("%x", start.UnixMilli())
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	store := eventloom.NewStore(o.Pool, nil, o.Logger)
	svc := checkout.New(o.Pool, store, checkout.Config{TextSearchConfig: o.TextSearchConfig, Embedder: o.Provider})
	builder, err := latent.NewBuilder(ctx, o.Pool, store, latent.Config{Logger: o.Logger})
	if err != nil {
		return nil, err
	}
	prep := &checkoutRetriever{proj: o.Projector, emb: o.Embedder, svc: svc, latent: topic.NewRefresher(o.Pool, topic.DefaultParams),
		fok: metamemory.New(o.Pool, metamemory.Config{TextSearchConfig: o.TextSearchConfig})}
	assigner := retrospective.NewAssigner(o.Pool, store, o.Logger)
	world := defaultLoopWorld(o.Seed)

	var families []string
	for i := range o.Families {
		name := latentFamilies[i%len(latentFamilies)]
		if i >= len(latentFamilies) {
			name = fmt.Sprintf("%s%d", name, i/len(latentFamilies))
		}
		families = append(families, name)
	}
	agents := make([]*loopAgent, len(o.Arms))
	for k, arm := range o.Arms {
		space := "loop-" + o.Run + "-" + arm
		a := &loopAgent{world: world, store: store, space: space, maxSteps: o.MaxSteps, clock: loopClock()}
		if arm != LoopOff {
			a.mem = &loopMemory{svc: svc, actions: memoryaction.New(o.Pool, store), space: space}
		}
		if arm == LoopApply {
			if _, err := a.append(ctx, a.clock.ev(vocab.TypeRetrospectiveConfigured, "", "",
				vocab.RetrospectiveConfigured{Mode: vocab.RetrospectiveApply, Reason: "bench loop: the apply arm"})); err != nil {
				return nil, err
			}
		}
		agents[k] = a
	}
	tasks := make([][]LoopTask, len(o.Arms))
	rounds := map[string]int{}
	for i, f := range world.loopSchedule(families, o.Tasks) {
		rounds[f]++
		for k, a := range agents {
			t, err := a.work(ctx, i, f, rounds[f])
			if err != nil {
				return nil, fmt.Errorf("arm %s, task %d: %w", o.Arms[k], i, err)
			}
			tasks[k] = append(tasks[k], *t)
			if err := loopJobs(ctx, prep, builder, assigner, a.space, t.Session); err != nil {
				return nil, fmt.Errorf("arm %s, task %d: %w", o.Arms[k], i, err)
			}
		}
	}
	rep := &LoopReport{Run: o.Run, Seed: o.Seed, Families: o.Families, Tasks: o.Tasks, MaxSteps: o.MaxSteps, Threshold: loopActThreshold}
	for k, arm := range o.Arms {
		m := LoopMetrics(tasks[k])
		m.Arm, m.Space = arm, agents[k].space
		if err := loopLogCounts(ctx, o.Pool, &m); err != nil {
			return nil, err
		}
		rep.Arms = append(rep.Arms, m)
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// loopJobs runs, in the order the workers would, what follows a task's outcome: projection
// (with embeddings and the topic model), the latent build, projection of what the build
// appended, the retrospective pass over the session, projection of what it appended.
func loopJobs(ctx context.Context, prep *checkoutRetriever, b *latent.Builder, as *retrospective.Assigner, space, session string) error {
	if err := prep.Prepare(ctx, space); err != nil {
		return err
	}
	if _, err := b.Build(ctx, space); err != nil {
		return fmt.Errorf("build artifacts: %w", err)
	}
	if err := prep.Prepare(ctx, space); err != nil {
		return err
	}
	if _, err := as.Credit(ctx, space, session, 0); err != nil {
		return fmt.Errorf("retrospective credit: %w", err)
	}
	return prep.Prepare(ctx, space)
}

// loopLogCounts reads from an arm's log what memory it was asked and what the retrospective
// pass made of its outcomes.
func loopLogCounts(ctx context.Context, pool *pgxpool.Pool, m *LoopArm) error {
	rows, err := pool.Query(ctx, `SELECT type, actor, count(*) FROM events WHERE space_id = $1
		AND (type IN ('checkout.surfaced', 'memory_action.surfaced') OR actor = 'zaxy-retro') GROUP BY type, actor ORDER BY type, actor`, m.Space)
	if err != nil {
		return fmt.Errorf("count memory reads: %w", err)
	}
	defer rows.Close()
	m.Retrospective = map[string]int{}
	for rows.Next() {
		var typ, actor string
		var n int
		if err := rows.Scan(&typ, &actor, &n); err != nil {
			return fmt.Errorf("count memory reads: %w", err)
		}
		if actor == "zaxy-retro" {
			m.Retrospective[typ] += n
		} else {
			m.LoggedReads += n
		}
	}
	return rows.Err()
}

// LoopTask is one task an agent worked: what it called, what it acted on, how it ended.
type LoopTask struct {
	Index   int    `json:"index"`
	Family  string `json:"family"`
	Round   int    `json:"round"`
	Session string `json:"session"`
	// Traps are the traps the task met (flag, order, outage; a flaky test is drawn per attempt).
	Traps   []string   `json:"traps,omitempty"`
	Calls   []LoopCall `json:"calls"`
	Success bool       `json:"success"`
	// Reads counts the memory reads the agent made (prospective passes, memory actions).
	Reads int         `json:"reads"`
	Acted []LoopActed `json:"acted"`
	// Suggested counts, by source, the remedies memory named for a plan step (a plain retry
	// counting as one) at a confidence the agent acts on, acted on or not.
	Suggested map[string]int    `json:"suggested,omitempty"`
	Observed  []LoopObservation `json:"observed"`
}

// LoopCall is one tool call of a task.
type LoopCall struct {
	Tool  string `json:"tool"`
	Error string `json:"error,omitempty"`
	// Trap is what made it fail.
	Trap string `json:"trap,omitempty"`
	// Source is why the agent made it: plan, exploration, or the memory mechanism.
	Source string `json:"source"`
}

// LoopActed is a remedy a memory-on agent ran because memory named it.
type LoopActed struct {
	Source     string  `json:"source"`
	Step       string  `json:"step"`
	Remedy     string  `json:"remedy"`
	Confidence float64 `json:"confidence"`
	// Useful is the world's truth: when it ran, a plan step not yet succeeded (Step or a later
	// one) met a trap this remedy causes the recovery of.
	Useful bool `json:"useful"`
}

// LoopObservation is one failure prior memory served about a plan step, with the confidence
// it reported and whether it held: the step met a trap one of its remedies fixes.
type LoopObservation struct {
	Source     string  `json:"source"`
	Step       string  `json:"step"`
	Confidence float64 `json:"confidence"`
	Held       bool    `json:"held"`
}

// sortedKeys are m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
