package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/policy"
)

// policyListCmd: zaxy policy list --space S [--json]. The space's retrieval policies: the built-in ones
// and every proposed version, with which is current and what a rollback would restore.
type policyListCmd struct {
	space  string
	asJSON bool
}

func (c *policyListCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", cfg.space, "space (default $ZAXY_SPACE)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *policyListCmd) validate(args []string) error {
	if c.space == "" {
		return errors.New("--space is required (or set ZAXY_SPACE)")
	}
	return noArgs(args)
}

func (c *policyListCmd) run(ctx context.Context, env *env) error {
	l, err := policy.New(env.pool, env.store).List(ctx, c.space)
	if err != nil {
		return invalidIf(err)
	}
	return c.print(env, l)
}

func (c *policyListCmd) runRemote(ctx context.Context, env *env) error {
	l, err := env.api.Policies(ctx, c.space)
	if err != nil {
		return err
	}
	return c.print(env, l)
}

// print writes one line per policy, or the listing as JSON.
func (c *policyListCmd) print(env *env, l *policy.Listing) error {
	if c.asJSON {
		return json.NewEncoder(env.stdout).Encode(l)
	}
	for _, e := range l.Policies {
		line := e.Version + "\t" + e.Status
		if p := e.Proposal; p != nil {
			var d policy.FitDiagnostics
			_ = json.Unmarshal(p.Fit, &d)
			line += fmt.Sprintf("\tproposed seq %d from %s\treplay %.4f -> %.4f on %d checkouts\tchanged %s",
				p.Seq, p.Base, d.BaseMetric, d.Metric, d.Checkouts, strings.Join(d.Changed, ","))
		}
		fmt.Fprintln(env.stdout, line)
	}
	if l.Projected != l.Current {
		fmt.Fprintf(env.stderr, "checkout still ranks with %s until the projector applies the latest policy event\n", l.Projected)
	}
	return nil
}

// policyFitCmd: zaxy policy fit --space S [--actor A] [--json]. Fits lane weights to the
// space's judged checkouts and proposes the result (policy.proposed).
type policyFitCmd struct {
	space, actor string
	asJSON       bool
}

func (c *policyFitCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", cfg.space, "space (default $ZAXY_SPACE)")
	fs.StringVar(&c.actor, "actor", "cli", "who fits (the event's actor)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *policyFitCmd) validate(args []string) error {
	if c.space == "" {
		return errors.New("--space is required (or set ZAXY_SPACE)")
	}
	return noArgs(args)
}

func (c *policyFitCmd) run(ctx context.Context, env *env) error {
	res, err := policy.New(env.pool, env.store).Fit(ctx, c.space, c.actor)
	if err != nil {
		return invalidIf(err)
	}
	return c.print(env, res)
}

// runRemote fits through POST /policies/fit, which needs an admin token.
func (c *policyFitCmd) runRemote(ctx context.Context, env *env) error {
	res, err := env.api.FitPolicy(ctx, c.space, &client.PolicyRequest{Actor: c.actor})
	if err != nil {
		return err
	}
	return c.print(env, res)
}

// print writes what was proposed, or the result as JSON.
func (c *policyFitCmd) print(env *env, res *policy.FitResult) error {
	if c.asJSON {
		return json.NewEncoder(env.stdout).Encode(res)
	}
	d := res.Diagnostics
	fmt.Fprintf(env.stdout, "proposed %s from %s: replay %.4f -> %.4f on %d judged checkouts (%d pairs); changed %s\n",
		res.Version, res.Base, d.BaseMetric, d.Metric, d.Checkouts, d.Pairs, strings.Join(d.Changed, ", "))
	if res.Seq == 0 {
		fmt.Fprintln(env.stdout, "(proposed before: nothing appended)")
	}
	return nil
}

// policyPromoteCmd: zaxy policy promote --space S VERSION [--dev-locomo F] [--dev-longmemeval F]
// [--dev-limit N] [--actor A] [--json]. Promotes a proposed version through the regression
// gate: its replay on the space's judged checkouts, and the dev benchmarks' recall when files
// are given.
type policyPromoteCmd struct {
	space, actor, version string
	devLoCoMo, devLongMem string
	devLimit              int
	asJSON                bool
	memory                memoryConfig
}

func (c *policyPromoteCmd) flags(fs *flag.FlagSet, cfg *config) {
	c.memory = cfg.memory
	fs.StringVar(&c.space, "space", cfg.space, "space (default $ZAXY_SPACE)")
	fs.StringVar(&c.actor, "actor", "cli", "who promotes (the event's actor)")
	fs.StringVar(&c.devLoCoMo, "dev-locomo", "", "LoCoMo dev file: the gate also requires its turn recall not to drop")
	fs.StringVar(&c.devLongMem, "dev-longmemeval", "", "LongMemEval dev file: the gate also requires its turn recall not to drop")
	fs.IntVar(&c.devLimit, "dev-limit", 0, "ask at most N questions of each dev file (0: all)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *policyPromoteCmd) validate(args []string) error {
	if c.space == "" {
		return errors.New("--space is required (or set ZAXY_SPACE)")
	}
	if len(args) != 1 {
		return errors.New("want exactly one VERSION (zaxy policy list)")
	}
	if c.devLimit < 0 {
		return fmt.Errorf("--dev-limit must be at least 0, got %d", c.devLimit)
	}
	c.version = args[0]
	return nil
}

func (c *policyPromoteCmd) run(ctx context.Context, env *env) error {
	var dev policy.DevMeasure
	if c.devLoCoMo != "" || c.devLongMem != "" {
		m, err := c.devMeasure(ctx, env)
		if err != nil {
			return err
		}
		dev = m
	}
	prom, err := policy.New(env.pool, env.store).Promote(ctx, c.space, c.version, c.actor, dev)
	if err != nil {
		return invalidIf(err)
	}
	return c.print(env, prom)
}

// runRemote promotes through POST /policies/{version}/promote (an admin token); the server's
// gate replays the space's history only, so the dev files need the database.
func (c *policyPromoteCmd) runRemote(ctx context.Context, env *env) error {
	if c.devLoCoMo != "" || c.devLongMem != "" {
		return invalid(errors.New("--dev-locomo and --dev-longmemeval run the dev benchmarks in this process: they need ZAXY_DATABASE_URL, not ZAXY_URL"))
	}
	prom, err := env.api.PromotePolicy(ctx, c.space, c.version, &client.PolicyRequest{Actor: c.actor})
	if err != nil {
		return err
	}
	return c.print(env, prom)
}

// print writes the promotion and its gate, or the promotion as JSON.
func (c *policyPromoteCmd) print(env *env, prom *policy.Promotion) error {
	if c.asJSON {
		return json.NewEncoder(env.stdout).Encode(prom)
	}
	g := prom.Gate
	fmt.Fprintf(env.stdout, "promoted %s (was %s; seq %d): replay %.4f vs %.4f on %d judged checkouts\n",
		prom.Version, prom.Previous, prom.Seq, g.ReplayCandidate, g.ReplayCurrent, g.ReplayCheckouts)
	for _, d := range g.Dev {
		fmt.Fprintf(env.stdout, "  %s %s: %.4f vs %.4f\n", d.Name, d.Metric, d.Candidate, d.Current)
	}
	return nil
}

// devMeasure loads the dev files and returns the gate's measure: each file's questions asked
// through checkout ranked with the given policy (bench.RunPolicy), in this database as
// `zaxy bench locomo|longmemeval` asks them; the second policy re-asks the first one's spaces.
func (c *policyPromoteCmd) devMeasure(ctx context.Context, env *env) (policy.DevMeasure, error) {
	type devFile struct {
		dataset, file string
		cases         []bench.Case
		run           string
	}
	var files []*devFile
	for _, f := range []struct{ dataset, file string }{{bench.DatasetLoCoMo, c.devLoCoMo}, {bench.DatasetLongMemEval, c.devLongMem}} {
		if f.file == "" {
			continue
		}
		cases, err := bench.LoadFile(f.dataset, f.file)
		if err != nil {
			return nil, invalid(fmt.Errorf("--dev-%s: %w", f.dataset, err))
		}
		files = append(files, &devFile{dataset: f.dataset, file: f.file, cases: cases})
	}
	proj, emb, err := openMemory(ctx, env.pool, c.memory, env.logger)
	if err != nil {
		return nil, err
	}
	provider, err := c.memory.embedProvider()
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, pol *checkout.Policy) ([]policy.Dev, error) {
		var out []policy.Dev
		for _, f := range files {
			sum, err := bench.RunPolicy(ctx, &bench.DatasetParams{Dataset: f.dataset, File: f.file, Cases: f.cases, Pool: env.pool,
				Projector: proj, Embedder: emb, Provider: provider, TextSearchConfig: c.memory.textSearchConfig,
				Options: bench.Options{Limit: c.devLimit, Logger: env.logger, Reuse: f.run}}, pol)
			if err != nil {
				return nil, fmt.Errorf("%s dev: %w", f.dataset, err)
			}
			f.run = sum.Run
			turn := sum.Overall.Fused.Turn
			out = append(out,
				policy.Dev{Name: f.dataset + " dev", Metric: "turn recall_any@10", Current: turn.RecallAny10},
				policy.Dev{Name: f.dataset + " dev", Metric: "turn recall_all@10", Current: turn.RecallAll10})
		}
		return out, nil
	}, nil
}

// policyRollbackCmd: zaxy policy rollback --space S [--reason R] [--actor A] [--json].
// Restores the policy the last promotion replaced.
type policyRollbackCmd struct {
	space, actor, reason string
	asJSON               bool
}

func (c *policyRollbackCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", cfg.space, "space (default $ZAXY_SPACE)")
	fs.StringVar(&c.actor, "actor", "cli", "who rolls back (the event's actor)")
	fs.StringVar(&c.reason, "reason", "", "why, recorded in the policy.rolled_back event")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *policyRollbackCmd) validate(args []string) error {
	if c.space == "" {
		return errors.New("--space is required (or set ZAXY_SPACE)")
	}
	return noArgs(args)
}

func (c *policyRollbackCmd) run(ctx context.Context, env *env) error {
	rb, err := policy.New(env.pool, env.store).Rollback(ctx, c.space, c.actor, c.reason)
	if err != nil {
		return invalidIf(err)
	}
	return c.print(env, rb)
}

// runRemote rolls back through POST /policies/rollback, which needs an admin token.
func (c *policyRollbackCmd) runRemote(ctx context.Context, env *env) error {
	rb, err := env.api.RollbackPolicy(ctx, c.space, &client.PolicyRequest{Actor: c.actor, Reason: c.reason})
	if err != nil {
		return err
	}
	return c.print(env, rb)
}

// print writes what was restored, or the rollback as JSON.
func (c *policyRollbackCmd) print(env *env, rb *policy.Rollback) error {
	if c.asJSON {
		return json.NewEncoder(env.stdout).Encode(rb)
	}
	fmt.Fprintf(env.stdout, "rolled back %s: %s is current again (seq %d)\n", rb.Version, rb.Restored, rb.Seq)
	return nil
}
