package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/bench"
)

// benchLoopCmd: zaxy bench loop [--seed N] [--families N] [--tasks N] [--max-steps N]
// [--arms off,on,apply] [--run NAME] [--json]; package bench's Loop on ZAXY_DATABASE_URL's
// database (fresh spaces loop-<run>-<arm>; the events stay: the log is append-only).
type benchLoopCmd struct {
	o      bench.LoopOptions
	seed   int64
	arms   string
	asJSON bool
	memory memoryConfig
}

func (c *benchLoopCmd) flags(fs *flag.FlagSet, cfg *config) {
	c.memory = cfg.memory
	fs.Int64Var(&c.seed, "seed", 1, "seed of the world: traps, flaky attempts, exploration order, task order")
	fs.IntVar(&c.o.Families, "families", 6, "task families")
	fs.IntVar(&c.o.Tasks, "tasks", 0, "tasks per arm, in rounds over the families (0: 8 per family)")
	fs.IntVar(&c.o.MaxSteps, "max-steps", 14, "tool calls a task may take before the agent gives up")
	fs.StringVar(&c.arms, "arms", strings.Join(bench.LoopArms, ","), "arms to run: "+strings.Join(bench.LoopArms, ", "))
	fs.StringVar(&c.o.Run, "run", "", "name of the run's spaces, loop-<run>-<arm> (default: the start time)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON (with every task's calls)")
}

func (c *benchLoopCmd) validate(args []string) error {
	for _, a := range strings.Split(c.arms, ",") {
		if a = strings.TrimSpace(a); !slices.Contains(bench.LoopArms, a) || slices.Contains(c.o.Arms, a) {
			return fmt.Errorf("--arms: unknown or repeated arm %q; arms are %s", a, strings.Join(bench.LoopArms, ", "))
		}
		c.o.Arms = append(c.o.Arms, a)
	}
	switch {
	case c.seed < 1:
		return fmt.Errorf("--seed must be positive, got %d", c.seed)
	case c.o.Families < 1 || c.o.Families > 64:
		return fmt.Errorf("--families must be between 1 and 64, got %d", c.o.Families)
	case c.o.Tasks < 0 || c.o.Tasks > 10000:
		return fmt.Errorf("--tasks must be between 0 and 10000, got %d", c.o.Tasks)
	case c.o.MaxSteps < 4 || c.o.MaxSteps > 100:
		return fmt.Errorf("--max-steps must be between 4 and 100, got %d", c.o.MaxSteps)
	case strings.ContainsAny(c.o.Run, " /:"):
		return fmt.Errorf("--run must hold no space, slash or colon, got %q", c.o.Run)
	}
	return noArgs(args)
}

func (c *benchLoopCmd) run(ctx context.Context, env *env) error {
	if env.dbErr != nil {
		return env.dbErr
	}
	var err error
	if c.o.Projector, c.o.Embedder, err = openMemory(ctx, env.pool, c.memory, env.logger); err != nil {
		return err
	}
	if c.o.Provider, err = c.memory.embedProvider(); err != nil {
		return err
	}
	c.o.Pool, c.o.TextSearchConfig, c.o.Logger = env.pool, c.memory.textSearchConfig, env.logger
	c.o.Seed = uint64(c.seed)
	rep, err := bench.Loop(ctx, &c.o)
	if err != nil {
		return err
	}
	return printReport(env, c.asJSON, rep)
}
