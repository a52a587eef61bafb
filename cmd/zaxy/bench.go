package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/pprof"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

// benchAppendCmd: zaxy bench append [--events N] [--runs N] [--pool N]
// [--synchronous-commit-off] [--only TEXT] [--cpuprofile FILE] [--json]; package bench's
// Append in a scratch database beside ZAXY_DATABASE_URL's.
type benchAppendCmd struct {
	o          bench.AppendOptions
	cpuProfile string
	asJSON     bool
}

func (c *benchAppendCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.IntVar(&c.o.Events, "events", 4000, "events per scenario and run")
	fs.IntVar(&c.o.Runs, "runs", 1, "runs of every scenario (reported as median and range)")
	fs.IntVar(&c.o.PoolSize, "pool", 16, "database pool size")
	fs.BoolVar(&c.o.SyncCommitOff, "synchronous-commit-off", false, "report only: run with synchronous_commit=off (not durable)")
	fs.StringVar(&c.o.Only, "only", "", "run only the scenarios whose names contain this text (ratios need both sides)")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a Go CPU profile of the run to this file")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *benchAppendCmd) validate(args []string) error {
	switch {
	case c.o.Events < 800:
		return fmt.Errorf("--events must be at least 800, got %d", c.o.Events)
	case c.o.Runs < 1:
		return fmt.Errorf("--runs must be at least 1, got %d", c.o.Runs)
	case c.o.PoolSize < 1:
		return fmt.Errorf("--pool must be at least 1, got %d", c.o.PoolSize)
	}
	return noArgs(args)
}

func (c *benchAppendCmd) run(ctx context.Context, env *env) error {
	if c.cpuProfile != "" {
		f, err := os.Create(c.cpuProfile)
		if err != nil {
			return invalid(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return invalid(err)
		}
		defer pprof.StopCPUProfile()
	}
	if env.cfg.databaseURL == "" {
		return errors.New("ZAXY_DATABASE_URL is not set")
	}
	c.o.Logger = env.logger
	provider, err := env.cfg.memory.embedProvider()
	if err != nil {
		return invalid(err)
	}
	c.o.API = func(ctx context.Context, pool *pgxpool.Pool, store *eventloom.Store) (http.Handler, error) {
		svc, err := buildServices(ctx, env.cfg, api.Config{}, serviceDeps{pool: pool, analytics: pool, store: store, provider: provider}, env.logger)
		if err != nil {
			return nil, err
		}
		return svc.handler, nil
	}
	rep, err := bench.Append(ctx, env.cfg.databaseURL, c.o)
	if err != nil {
		return err
	}
	return printReport(env, c.asJSON, rep)
}

// benchCheckoutCmd: zaxy bench checkout [--memories N] [--queries Q] [--corpus FILE] [--keep]
// [--reuse URL] [--items FILE] [--cpuprofile FILE] [--ef-search N] [--ppr-weight W] [--weave] [--cues]
// [--session-events N] [--json]; package bench's
// Checkout with the configured embedder (the hashing one when embedding is off), so its query
// embedding is timed.
type benchCheckoutCmd struct {
	o          bench.CheckoutOptions
	asJSON     bool
	items      string
	cpuProfile string
}

func (c *benchCheckoutCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.IntVar(&c.o.Memories, "memories", 100000, "memories (message events) in the space")
	fs.IntVar(&c.o.Queries, "queries", 200, "checkouts to time")
	fs.IntVar(&c.o.Warmup, "warmup", 20, "checkouts (and raw queries) to run untimed first, asking memories' own sentences (0: time from the first)")
	fs.StringVar(&c.o.Corpus, "corpus", "../shared/bench/longmemeval_s_dev.json", "LongMemEval file whose sentences are the memories (synthetic text when missing)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
	fs.BoolVar(&c.o.Keep, "keep", false, "keep the scratch database and print its URL (for --reuse)")
	fs.StringVar(&c.o.Reuse, "reuse", "", "URL of a database a --keep run loaded: migrate it to this binary's schema, then time the queries only")
	fs.StringVar(&c.items, "items", "", "write each query's ranked item ids (packet and raw query) as JSON lines to this file")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a Go CPU profile of the timed queries to this file")
	fs.IntVar(&c.o.EfSearch, "ef-search", 0, "the vector lane's hnsw.ef_search (0: checkout's default, 100)")
	fs.Float64Var(&c.o.PPRWeight, "ppr-weight", 0, "fusion weight of the personalized PageRank lane, 0-5 (0: off, checkout's default)")
	fs.BoolVar(&c.o.Weave, "weave", false, "ask every checkout for a memory weave (the latent artifacts are built first, untimed)")
	fs.BoolVar(&c.o.Cues, "cues", false, "send cues (task, repo, tool, phase) with every checkout")
	fs.IntVar(&c.o.SessionEvents, "session-events", 20, "consecutive memories per session (long sessions make long episodes)")
}

func (c *benchCheckoutCmd) validate(args []string) error {
	switch {
	case c.o.Memories < 100:
		return fmt.Errorf("--memories must be at least 100, got %d", c.o.Memories)
	case c.o.Queries < 10:
		return fmt.Errorf("--queries must be at least 10, got %d", c.o.Queries)
	case c.o.EfSearch < 0 || c.o.EfSearch > 1000:
		return fmt.Errorf("--ef-search must be between 1 and 1000 (0: the default), got %d", c.o.EfSearch)
	case c.o.PPRWeight < 0 || c.o.PPRWeight > 5:
		return fmt.Errorf("--ppr-weight must be between 0 and 5, got %g", c.o.PPRWeight)
	case c.o.SessionEvents < 1 || c.o.SessionEvents > c.o.Memories:
		return fmt.Errorf("--session-events must be between 1 and --memories (%d), got %d", c.o.Memories, c.o.SessionEvents)
	}
	return noArgs(args)
}

func (c *benchCheckoutCmd) run(ctx context.Context, env *env) error {
	if env.cfg.databaseURL == "" && c.o.Reuse == "" {
		return errNoDatabaseURL
	}
	var err error
	if c.o.Embedder, err = env.cfg.memory.benchEmbedder(); err != nil {
		return err
	}
	c.o.OpenPool, c.o.Notices, c.o.Logger = newPool, env.stderr, env.logger
	if c.items != "" {
		f, err := os.Create(c.items)
		if err != nil {
			return err
		}
		defer f.Close()
		c.o.Items = f
	}
	if c.cpuProfile != "" {
		f, err := os.Create(c.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		c.o.CPUProfile = f
	}
	rep, err := bench.Checkout(ctx, env.cfg.databaseURL, c.o)
	if err != nil {
		return err
	}
	return printReport(env, c.asJSON, rep)
}

// benchDatasetCmd: zaxy bench longmemeval|locomo --file F --out ranked.jsonl [--limit N]
// [--parallel P] [--k K] [--packet-tokens T] [--disable-lanes L,L] [--embedder NAME]
// [--reuse-run RUN] [--ppr-weight W] [--who-when]; package bench's RunDataset on ZAXY_DATABASE_URL's database (each case
// appended into a fresh space; the events stay: the log is append-only). --disable-lanes
// switches checkout lanes off for an ablation (the fused ranking and packet; the keyword-only
// ones are unchanged); --embedder overrides ZAXY_EMBEDDER for the run, so it names the
// embedders zaxy serve can build; --ppr-weight switches the personalized PageRank lane on at
// that fusion weight (checkout leaves it off by default).
type benchDatasetCmd struct {
	dataset                  string
	file, out                string
	limit, parallel, k, tok  int
	disable, embedder, reuse string
	disabled                 []string
	pprWeight                float64
	whoWhen                  bool
	memory                   memoryConfig
}

func (c *benchDatasetCmd) flags(fs *flag.FlagSet, cfg *config) {
	c.memory = cfg.memory
	fs.StringVar(&c.file, "file", "", "benchmark file (JSON)")
	fs.StringVar(&c.out, "out", "", "ranked JSON lines to write; the keyword-only lines and the summary go beside it")
	fs.IntVar(&c.limit, "limit", 0, "ask at most N questions (0: all)")
	fs.IntVar(&c.parallel, "parallel", 1, "cases worked at once (latencies are comparable only at 1)")
	fs.IntVar(&c.k, "k", 50, "ranked events kept per question")
	fs.IntVar(&c.tok, "packet-tokens", 2000, "token budget of the checkout packet")
	fs.StringVar(&c.disable, "disable-lanes", "", "comma-separated checkout lanes to switch off ("+strings.Join(checkout.Lanes, ", ")+")")
	fs.StringVar(&c.embedder, "embedder", "", "embedder for this run, as ZAXY_EMBEDDER names it (default: ZAXY_EMBEDDER's)")
	fs.StringVar(&c.reuse, "reuse-run", "", "ask the spaces of an earlier run (its summary's run) again instead of appending the file anew")
	fs.Float64Var(&c.pprWeight, "ppr-weight", 0, "fusion weight of the personalized PageRank lane, 0-5 (0: off, checkout's default)")
	fs.BoolVar(&c.whoWhen, "who-when", false, "ask the packets for who_when: each event's line opens with its day and speaker")
}

func (c *benchDatasetCmd) validate(args []string) error {
	switch {
	case c.file == "":
		return errors.New("--file is required")
	case c.out == "":
		return errors.New("--out is required")
	case len(args) > 0:
		return fmt.Errorf("unexpected argument %q", args[0])
	case c.limit < 0:
		return fmt.Errorf("--limit must be at least 0, got %d", c.limit)
	case c.parallel < 1:
		return fmt.Errorf("--parallel must be at least 1, got %d", c.parallel)
	case c.k < 10:
		return fmt.Errorf("--k must be at least 10, got %d", c.k)
	case c.tok < 1:
		return fmt.Errorf("--packet-tokens must be at least 1, got %d", c.tok)
	case c.pprWeight < 0 || c.pprWeight > 5:
		return fmt.Errorf("--ppr-weight must be between 0 and 5, got %g", c.pprWeight)
	}
	var err error
	if c.disabled, err = parseLaneList(c.disable); err != nil {
		return fmt.Errorf("--disable-lanes: %w", err)
	}
	if c.embedder != "" {
		c.memory.embedder = c.embedder
		if err := c.memory.checkEmbedder(); err != nil {
			return fmt.Errorf("--embedder %s: %w", c.embedder, err)
		}
	}
	return nil
}

func (c *benchDatasetCmd) run(ctx context.Context, env *env) error {
	cases, err := bench.LoadFile(c.dataset, c.file)
	if err != nil {
		return err
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
	return bench.RunDataset(ctx, &bench.DatasetParams{
		Dataset: c.dataset, File: c.file, Cases: cases, Out: c.out,
		Pool: env.pool, Projector: proj, Embedder: emb, Provider: provider, EmbedderName: c.memory.embedder,
		TextSearchConfig: c.memory.textSearchConfig, DisabledLanes: c.disabled, PPRWeight: c.pprWeight, WhoWhen: c.whoWhen,
		Options: bench.Options{Limit: c.limit, Parallel: c.parallel, K: c.k, PacketTokens: c.tok, Logger: env.logger, Summary: env.stdout, Reuse: c.reuse},
	})
}

// parseLaneList reads a comma-separated list of checkout lane names (empty: none), rejecting
// unknown and repeated names.
func parseLaneList(s string) ([]string, error) {
	out := []string{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, l := range strings.Split(s, ",") {
		l = strings.TrimSpace(l)
		switch {
		case !slices.Contains(checkout.Lanes, l):
			return nil, fmt.Errorf("unknown lane %q; lanes are %s", l, strings.Join(checkout.Lanes, ", "))
		case slices.Contains(out, l):
			return nil, fmt.Errorf("lane %q named twice", l)
		}
		out = append(out, l)
	}
	return out, nil
}

// benchForgettingCmd: zaxy bench forgetting [--services N] [--weeks N] [--queries-per-day N]
// [--max-tokens N] [--seed N] [--json]; package bench's Forgetting in a scratch database
// beside ZAXY_DATABASE_URL's, with the configured embedder (the hashing one when embedding is
// off).
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

// benchLatentAttributionCmd: zaxy bench latent-attribution [--traces N] [--seed N]
// [--confounded F] [--json]; package bench's Attribution, in memory (no database).
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

// textReport is a benchmark's report, which writes itself as the text zaxy bench prints.
type textReport interface{ WriteText(w io.Writer) }

// printReport prints rep to stdout: as JSON with --json, else as its text.
func printReport(env *env, asJSON bool, rep textReport) error {
	if asJSON {
		return json.NewEncoder(env.stdout).Encode(rep)
	}
	rep.WriteText(env.stdout)
	return nil
}
