package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/checkout"
)

// benchLatentAttributionCmd: zaxy bench latent-attribution [--traces N] [--seed N]
// [--confounded F] [--json]; package bench's Attribution, in memory (no database). This file
// holds the benchmarks of the latent artifacts: latent, latent-attribution and latent-priors.
type benchLatentAttributionCmd struct {
	o      bench.AttributionOptions
	seed   int64
	asJSON bool
}

func (c *benchLatentAttributionCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.IntVar(&c.o.Traces, "traces", 180, "scripted traces, spread evenly over the causes (at least 100)")
	fs.Int64Var(&c.seed, "seed", 1, "seed of the generated traces")
	fs.Float64Var(&c.o.Confounded, "confounded", 0.2, "share of traces scripted with a confounder (0 for none)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *benchLatentAttributionCmd) validate(args []string) error {
	switch {
	case c.o.Traces < 100 || c.o.Traces > 1000000:
		return fmt.Errorf("--traces must be between 100 and 1000000, got %d", c.o.Traces)
	case c.seed < 1:
		return fmt.Errorf("--seed must be positive, got %d", c.seed)
	case c.o.Confounded < 0 || c.o.Confounded > 1:
		return fmt.Errorf("--confounded must be between 0 and 1, got %g", c.o.Confounded)
	}
	if c.o.Confounded == 0 {
		c.o.Confounded = -1 // none (the zero value means the default)
	}
	return noArgs(args)
}

func (c *benchLatentAttributionCmd) run(_ context.Context, env *env) error {
	c.o.Seed = uint64(c.seed)
	rep, err := bench.Attribution(c.o)
	if err != nil {
		return err
	}
	return printReport(env, c.asJSON, rep)
}

// benchLatentPriorsCmd: zaxy bench latent-priors [--families N] [--sessions N] [--noise F]
// [--spaces N] [--seed N] [--json]; package bench's Priors, in memory (no database).
type benchLatentPriorsCmd struct {
	o      bench.PriorsOptions
	seed   int64
	asJSON bool
}

func (c *benchLatentPriorsCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.IntVar(&c.o.Families, "families", 12, "task families per space")
	fs.IntVar(&c.o.Sessions, "sessions", 8, "sessions each family is worked in")
	fs.Float64Var(&c.o.Noise, "noise", 0.15, "chance of a stray call between two steps")
	fs.IntVar(&c.o.Spaces, "spaces", 5, "independent spaces the scores are pooled over")
	fs.Int64Var(&c.seed, "seed", 1, "seed of the first space")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *benchLatentPriorsCmd) validate(args []string) error {
	if c.seed < 1 {
		return fmt.Errorf("--seed must be positive, got %d", c.seed)
	}
	return noArgs(args)
}

func (c *benchLatentPriorsCmd) run(_ context.Context, env *env) error {
	c.o.Seed = uint64(c.seed)
	rep, err := bench.Priors(c.o)
	if err != nil {
		return err
	}
	return printReport(env, c.asJSON, rep)
}

// benchLatentCmd: zaxy bench latent [--sections fidelity,stale,tokens] [--longmemeval F]
// [--locomo F] [--limit N] [--weave-tokens T] [--plain-tokens T] [--families N] [--who-when] [--json];
// package bench's Latent on ZAXY_DATABASE_URL's database (fresh spaces; the events stay: the
// log is append-only). Other latent lanes come as `zaxy bench latent-<lane>` commands.
type benchLatentCmd struct {
	o                   bench.LatentParams
	sections            string
	longMemEval, locomo string
	asJSON              bool
	memory              memoryConfig
}

func (c *benchLatentCmd) flags(fs *flag.FlagSet, cfg *config) {
	c.memory = cfg.memory
	fs.StringVar(&c.sections, "sections", strings.Join(bench.LatentSections, ","), "lanes to run: "+strings.Join(bench.LatentSections, ", "))
	fs.StringVar(&c.longMemEval, "longmemeval", "../shared/bench/longmemeval_s_dev.json", "LongMemEval dev file for the tokens lane (empty: skip)")
	fs.StringVar(&c.locomo, "locomo", "../shared/bench/locomo_dev.json", "LoCoMo dev file for the tokens lane (empty: skip)")
	fs.IntVar(&c.o.Limit, "limit", 0, "ask at most N questions per dev set (0: all)")
	fs.IntVar(&c.o.WeaveTokens, "weave-tokens", 1000, "budget of the packet with a weave")
	fs.IntVar(&c.o.PlainTokens, "plain-tokens", 2000, "budget of the plain packet")
	fs.IntVar(&c.o.Families, "families", 6, "scripted task families of the fidelity and stale lanes")
	fs.BoolVar(&c.o.WhoWhen, "who-when", false, "ask the token lane's packets for who_when: each event's line opens with its day and speaker")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *benchLatentCmd) validate(args []string) error {
	for _, s := range strings.Split(c.sections, ",") {
		if s = strings.TrimSpace(s); !slices.Contains(bench.LatentSections, s) {
			return fmt.Errorf("--sections: unknown section %q; sections are %s", s, strings.Join(bench.LatentSections, ", "))
		}
		c.o.Sections = append(c.o.Sections, s)
	}
	switch {
	case c.o.Limit < 0:
		return fmt.Errorf("--limit must be at least 0, got %d", c.o.Limit)
	case c.o.WeaveTokens < checkout.MinMaxTokens || c.o.WeaveTokens > checkout.MaxMaxTokens:
		return fmt.Errorf("--weave-tokens must be between %d and %d, got %d", checkout.MinMaxTokens, checkout.MaxMaxTokens, c.o.WeaveTokens)
	case c.o.PlainTokens < checkout.MinMaxTokens || c.o.PlainTokens > checkout.MaxMaxTokens:
		return fmt.Errorf("--plain-tokens must be between %d and %d, got %d", checkout.MinMaxTokens, checkout.MaxMaxTokens, c.o.PlainTokens)
	case c.o.Families < 1 || c.o.Families > 100:
		return fmt.Errorf("--families must be between 1 and 100, got %d", c.o.Families)
	}
	return noArgs(args)
}

func (c *benchLatentCmd) run(ctx context.Context, env *env) error {
	c.o.Sets = map[string][]bench.Case{}
	if slices.Contains(c.o.Sections, bench.LatentTokens) {
		for dataset, file := range map[string]string{bench.DatasetLongMemEval: c.longMemEval, bench.DatasetLoCoMo: c.locomo} {
			if file == "" {
				continue
			}
			cases, err := bench.LoadFile(dataset, file)
			if err != nil {
				return err
			}
			c.o.Sets[dataset] = cases
		}
	}
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
	rep, err := bench.Latent(ctx, &c.o)
	if err != nil {
		return err
	}
	return printReport(env, c.asJSON, rep)
}
