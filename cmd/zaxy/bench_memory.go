package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/checkout"
)

// benchForgettingCmd: zaxy bench forgetting [--services N] [--weeks N] [--queries-per-day N]
// [--max-tokens N] [--seed N] [--json]; package bench's Forgetting in a scratch database
// beside ZAXY_DATABASE_URL's, with the configured embedder (the hashing one when embedding is
// off). This file holds the benchmarks of what memory keeps and knows: forgetting, cues, the
// encoding gate and the feeling-of-knowing fit.
type benchForgettingCmd struct {
	o      bench.ForgettingOptions
	seed   int64
	asJSON bool
}

func (c *benchForgettingCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.IntVar(&c.o.Services, "services", 40, "services in the task family")
	fs.IntVar(&c.o.Weeks, "weeks", 16, "simulated weeks the agent works")
	fs.IntVar(&c.o.QueriesPerDay, "queries-per-day", 4, "questions per working day")
	fs.IntVar(&c.o.MaxTokens, "max-tokens", checkout.MinMaxTokens, "packet budget")
	fs.Int64Var(&c.seed, "seed", 1, "seed of the generated family")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *benchForgettingCmd) validate(args []string) error {
	switch {
	case c.o.Services < 4 || c.o.Services > 10000:
		return fmt.Errorf("--services must be between 4 and 10000, got %d", c.o.Services)
	case c.o.Weeks < 1 || c.o.Weeks > 520:
		return fmt.Errorf("--weeks must be between 1 and 520, got %d", c.o.Weeks)
	case c.o.QueriesPerDay < 1 || c.o.QueriesPerDay > 1000:
		return fmt.Errorf("--queries-per-day must be between 1 and 1000, got %d", c.o.QueriesPerDay)
	case c.o.MaxTokens < checkout.MinMaxTokens || c.o.MaxTokens > checkout.MaxMaxTokens:
		return fmt.Errorf("--max-tokens must be between %d and %d, got %d", checkout.MinMaxTokens, checkout.MaxMaxTokens, c.o.MaxTokens)
	case c.seed < 1:
		return fmt.Errorf("--seed must be positive, got %d", c.seed)
	}
	return noArgs(args)
}

func (c *benchForgettingCmd) run(ctx context.Context, env *env) error {
	if env.cfg.databaseURL == "" {
		return errNoDatabaseURL
	}
	var err error
	if c.o.Embedder, err = env.cfg.memory.benchEmbedder(); err != nil {
		return err
	}
	c.o.Seed = uint64(c.seed)
	c.o.OpenPool, c.o.Logger = newPool, env.logger
	rep, err := bench.Forgetting(ctx, env.cfg.databaseURL, c.o)
	if err != nil {
		return err
	}
	return printReport(env, c.asJSON, rep)
}

// benchCuesCmd: zaxy bench cues [--json]; package bench's Cues with the configured embedder (the
// hashing one when embedding is off) in a scratch database beside ZAXY_DATABASE_URL's.
type benchCuesCmd struct {
	asJSON bool
}

func (c *benchCuesCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *benchCuesCmd) validate(args []string) error { return noArgs(args) }

func (c *benchCuesCmd) run(ctx context.Context, env *env) error {
	if env.cfg.databaseURL == "" {
		return errNoDatabaseURL
	}
	provider, err := env.cfg.memory.benchEmbedder()
	if err != nil {
		return err
	}
	rep, err := bench.Cues(ctx, env.cfg.databaseURL, bench.CuesOptions{Embedder: provider, OpenPool: newPool, Logger: env.logger})
	if err != nil {
		return err
	}
	return printReport(env, c.asJSON, rep)
}

// benchGateCmd: zaxy bench gate [--file F] [--dataset longmemeval|locomo] [--pairs N]
// [--seed N] [--json]; package bench's Gate in a scratch database beside ZAXY_DATABASE_URL's.
type benchGateCmd struct {
	o             bench.GateOptions
	file, dataset string
	seed          int64
	asJSON        bool
}

func (c *benchGateCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.file, "file", "../shared/bench/longmemeval_s_dev.json", "benchmark file whose turns the pairs are built from")
	fs.StringVar(&c.dataset, "dataset", bench.DatasetLongMemEval, "the file's benchmark: longmemeval or locomo")
	fs.IntVar(&c.o.PerCategory, "pairs", 400, "labelled pairs per category, at most")
	fs.Int64Var(&c.seed, "seed", 1, "seed of the draw")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *benchGateCmd) validate(args []string) error {
	switch {
	case c.dataset != bench.DatasetLongMemEval && c.dataset != bench.DatasetLoCoMo:
		return fmt.Errorf("--dataset must be longmemeval or locomo, got %q", c.dataset)
	case c.o.PerCategory < 1 || c.o.PerCategory > 100000:
		return fmt.Errorf("--pairs must be between 1 and 100000, got %d", c.o.PerCategory)
	case c.seed < 1:
		return fmt.Errorf("--seed must be positive, got %d", c.seed)
	}
	return noArgs(args)
}

func (c *benchGateCmd) run(ctx context.Context, env *env) error {
	cases, err := bench.LoadFile(c.dataset, c.file)
	if err != nil {
		return invalid(err)
	}
	if env.cfg.databaseURL == "" {
		return errNoDatabaseURL
	}
	c.o.Seed = uint64(c.seed)
	c.o.OpenPool, c.o.Logger = newPool, env.logger
	rep, err := bench.Gate(ctx, env.cfg.databaseURL, c.file, cases, c.o)
	if err != nil {
		return err
	}
	return printReport(env, c.asJSON, rep)
}

// benchFoKFitCmd: zaxy bench fok-fit --lme F --locomo F [--folds K] [--seed N] [--repeats R] [--penalty L]
// [--json]; package bench's FoKFit on the ranked.jsonl files of `zaxy bench longmemeval` and
// `zaxy bench locomo`, in memory (no database).
type benchFoKFitCmd struct {
	o           bench.FoKFitOptions
	lme, locomo string
	seed        int64
	asJSON      bool
}

func (c *benchFoKFitCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.lme, "lme", "", "ranked.jsonl written by zaxy bench longmemeval")
	fs.StringVar(&c.locomo, "locomo", "", "ranked.jsonl written by zaxy bench locomo")
	fs.IntVar(&c.o.Folds, "folds", 10, "cross-validation folds, stratified by set and target")
	fs.Int64Var(&c.seed, "seed", 1, "seed of the folds' shuffle")
	fs.IntVar(&c.o.Repeats, "repeats", 1, "cross-validations run, with seeds --seed, --seed+1, ... (the skill's range over them is reported)")
	fs.Float64Var(&c.o.Penalty, "penalty", 1, "L2 penalty on the slopes (the shipped coefficients' is 1)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *benchFoKFitCmd) validate(args []string) error {
	switch {
	case c.lme == "" || c.locomo == "":
		return errors.New("--lme and --locomo are both required")
	case c.o.Folds < 2 || c.o.Folds > 100:
		return fmt.Errorf("--folds must be between 2 and 100, got %d", c.o.Folds)
	case c.seed < 1:
		return fmt.Errorf("--seed must be positive, got %d", c.seed)
	case c.o.Repeats < 1 || c.o.Repeats > 1000:
		return fmt.Errorf("--repeats must be between 1 and 1000, got %d", c.o.Repeats)
	case c.o.Penalty <= 0 || c.o.Penalty > 1000:
		return fmt.Errorf("--penalty must be above 0 and at most 1000, got %g", c.o.Penalty)
	}
	return noArgs(args)
}

func (c *benchFoKFitCmd) run(_ context.Context, env *env) error {
	for _, f := range []struct{ name, file string }{{bench.DatasetLongMemEval, c.lme}, {bench.DatasetLoCoMo, c.locomo}} {
		set, err := readFoKSet(f.name, f.file)
		if err != nil {
			return invalid(err)
		}
		c.o.Sets = append(c.o.Sets, set)
	}
	c.o.Seed = uint64(c.seed)
	rep, err := bench.FoKFit(c.o)
	if err != nil {
		return invalid(err)
	}
	return printReport(env, c.asJSON, rep)
}

// readFoKSet reads one set's judged questions from its ranked.jsonl.
func readFoKSet(name, file string) (bench.FoKFitSet, error) {
	f, err := os.Open(file)
	if err != nil {
		return bench.FoKFitSet{}, err
	}
	defer f.Close()
	samples, skipped, err := bench.ReadFoKSamples(f)
	if err != nil {
		return bench.FoKFitSet{}, fmt.Errorf("%s: %w", file, err)
	}
	if len(samples) == 0 {
		return bench.FoKFitSet{}, fmt.Errorf("%s: no question with a feeling of knowing and a target (a ranked.jsonl of zaxy bench %s?)", file, name)
	}
	return bench.FoKFitSet{Name: name, File: file, Samples: samples, Skipped: skipped}, nil
}
