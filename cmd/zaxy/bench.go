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
	"github.com/zaxy/zaxy/tokenize"
)

// benchAppendCmd: zaxy bench append [--events N] [--runs N] [--pool N]
// [--synchronous-commit-off] [--only TEXT] [--cpuprofile FILE] [--json]; package bench's
// Append in a scratch database beside ZAXY_DATABASE_URL's. This file holds the benchmarks of
// appends and retrieval (append, checkout, longmemeval, locomo) and the report printer.
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

// benchCheckoutCmd: zaxy bench checkout [--memories N] [--spaces S] [--queries Q] [--corpus FILE] [--keep]
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
	fs.IntVar(&c.o.Memories, "memories", 100000, "memories (message events) in each space")
	fs.IntVar(&c.o.Spaces, "spaces", 1, "spaces of --memories memories each; the timed checkouts are spread over them")
	fs.IntVar(&c.o.Queries, "queries", 200, "checkouts to time")
	fs.IntVar(&c.o.Warmup, "warmup", 20, "checkouts (and raw queries) to run untimed first, asking memories' own sentences (0: time from the first)")
	fs.StringVar(&c.o.Corpus, "corpus", "../shared/bench/longmemeval_s_dev.json", "LongMemEval file whose sentences are the memories (synthetic text when missing)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
	fs.BoolVar(&c.o.Keep, "keep", false, "keep the scratch database and print its URL (for --reuse)")
	fs.StringVar(&c.o.Reuse, "reuse", "", "URL of a database a --keep run loaded: migrate it to this binary's schema, then time the queries only")
	fs.StringVar(&c.items, "items", "", "write each query's ranked item ids (packet and raw query) as JSON lines to this file")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a Go CPU profile of the timed queries to this file")
	fs.IntVar(&c.o.EfSearch, "ef-search", 0, fmt.Sprintf("the vector lane's hnsw.ef_search (0: checkout's default, %d)", checkout.DefaultEfSearch))
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
	case c.o.Spaces < 1 || c.o.Spaces > 10000:
		return fmt.Errorf("--spaces must be between 1 and 10000, got %d", c.o.Spaces)
	case c.o.Spaces > 1 && c.o.Weave:
		return errors.New("--weave works on one space: drop --spaces or --weave")
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
// [--reuse-run RUN] [--ppr-weight W] [--who-when] [--tokenizer T]; package bench's RunDataset on ZAXY_DATABASE_URL's database (each case
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
	tokenizer                string
	memory                   memoryConfig
	// set and split choose the generated soft-spot cases (dataset "softspots" only).
	set, split string
}

func (c *benchDatasetCmd) flags(fs *flag.FlagSet, cfg *config) {
	c.memory = cfg.memory
	if c.dataset == softSpotsDataset {
		fs.StringVar(&c.set, "set", "all", "soft-spot set: "+strings.Join(bench.SoftSpotSets, ", ")+" or all")
		fs.StringVar(&c.split, "split", bench.SoftSpotDev, "split: "+strings.Join(bench.SoftSpotSplits, ", ")+" or all")
	} else {
		fs.StringVar(&c.file, "file", "", "benchmark file (JSON)")
	}
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
	fs.StringVar(&c.tokenizer, "tokenizer", "", "what --packet-tokens counts in: "+strings.Join(tokenize.Names, ", ")+" (default: ZAXY_TOKENIZER's)")
}

func (c *benchDatasetCmd) validate(args []string) error {
	switch {
	case c.file == "" && c.dataset != softSpotsDataset:
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
	if c.tokenizer == "" {
		c.tokenizer = c.memory.tokenizer
	}
	if !tokenize.Valid(c.tokenizer) {
		return fmt.Errorf("--tokenizer must be one of %s, got %q", strings.Join(tokenize.Names, ", "), c.tokenizer)
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
	cases, file, err := c.cases()
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
		Dataset: c.dataset, File: file, Cases: cases, Out: c.out,
		Pool: env.pool, Projector: proj, Embedder: emb, Provider: provider, EmbedderName: c.memory.embedder,
		TextSearchConfig: c.memory.textSearchConfig, DisabledLanes: c.disabled, PPRWeight: c.pprWeight, WhoWhen: c.whoWhen,
		Tokenizer: c.tokenizer,
		Options:   bench.Options{Limit: c.limit, Parallel: c.parallel, K: c.k, PacketTokens: c.tok, Logger: env.logger, Summary: env.stdout, Reuse: c.reuse},
	})
}

// softSpotsDataset is the dataset name of zaxy bench softspots: cases generated by
// bench.SoftSpotCases instead of read from a file.
const softSpotsDataset = "softspots"

// cases are the command's cases and what the report names as their file: the file's, or the
// generated soft-spot set and split.
func (c *benchDatasetCmd) cases() ([]bench.Case, string, error) {
	if c.dataset != softSpotsDataset {
		cases, err := bench.LoadFile(c.dataset, c.file)
		return cases, c.file, err
	}
	cases, err := bench.SoftSpotCases(c.set, c.split)
	return cases, "generated: set " + c.set + ", split " + c.split, err
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

// textReport is a benchmark's report, which writes itself as the text zaxy bench prints.
type textReport interface{ WriteText(w io.Writer) }

// printReport prints rep to stdout: as JSON with --json, else as its text.
// writeOut writes rep as indented JSON to path (a bench's --out); "" writes nothing.
func writeOut(path string, rep any) error {
	if path == "" {
		return nil
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write --out: %w", err)
	}
	return nil
}

func printReport(env *env, asJSON bool, rep textReport) error {
	if asJSON {
		return json.NewEncoder(env.stdout).Encode(rep)
	}
	rep.WriteText(env.stdout)
	return nil
}
