package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"github.com/zaxy/zaxy/bench"
)

// benchLatentPolicyCmd: zaxy bench latent-policy --locomo F --longmemeval F [--cases N]
// [--questions N] [--json]. The retrieval policy's measurement lane (docs/benchmarks.md): a
// policy fitted to judged checkouts of half the dev cases against the default built-in one, on those cases
// and the held-out ones, and whether the regression gate's dev half would promote it.
type benchLatentPolicyCmd struct {
	locomo, longmem  string
	cases, questions int
	asJSON           bool
	memory           memoryConfig
}

func (c *benchLatentPolicyCmd) flags(fs *flag.FlagSet, cfg *config) {
	c.memory = cfg.memory
	fs.StringVar(&c.locomo, "locomo", "", "LoCoMo dev file")
	fs.StringVar(&c.longmem, "longmemeval", "", "LongMemEval dev file")
	fs.IntVar(&c.cases, "cases", 0, "at most N cases of each file (0: all)")
	fs.IntVar(&c.questions, "questions", 0, "at most N questions of each case (0: all)")
	fs.BoolVar(&c.asJSON, "json", false, "print the report as JSON")
}

func (c *benchLatentPolicyCmd) validate(args []string) error {
	if c.locomo == "" && c.longmem == "" {
		return errors.New("give --locomo F and/or --longmemeval F")
	}
	if c.cases < 0 || c.questions < 0 {
		return errors.New("--cases and --questions must be at least 0")
	}
	return noArgs(args)
}

func (c *benchLatentPolicyCmd) run(ctx context.Context, env *env) error {
	var files []bench.PolicyLaneFile
	for _, f := range []struct{ dataset, file string }{{bench.DatasetLoCoMo, c.locomo}, {bench.DatasetLongMemEval, c.longmem}} {
		if f.file == "" {
			continue
		}
		cases, err := bench.LoadFile(f.dataset, f.file)
		if err != nil {
			return invalid(fmt.Errorf("--%s: %w", f.dataset, err))
		}
		files = append(files, bench.PolicyLaneFile{Dataset: f.dataset, File: f.file, Cases: cases})
	}
	if env.dbErr != nil {
		return env.dbErr
	}
	proj, emb, err := openMemory(ctx, env.pool, c.memory, env.logger)
	if err != nil {
		return err
	}
	provider, err := c.memory.embedProvider()
	if err != nil {
		return err
	}
	rep, err := bench.RunPolicyLane(ctx, &bench.PolicyLaneParams{Files: files, Cases: c.cases, Questions: c.questions, Pool: env.pool,
		Projector: proj, Embedder: emb, Provider: provider, TextSearchConfig: c.memory.textSearchConfig,
		Options: bench.Options{Logger: env.logger}})
	if err != nil {
		return err
	}
	if c.asJSON {
		return json.NewEncoder(env.stdout).Encode(rep)
	}
	bench.PrintPolicyLane(env.stdout, rep)
	return nil
}
