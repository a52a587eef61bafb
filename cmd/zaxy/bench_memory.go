package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

// benchMemoryReport is the summary file written next to --out.
type benchMemoryReport struct {
	Dataset   string `json:"dataset"`
	File      string `json:"file"`
	Retriever string `json:"retriever"`
	Embedder  string `json:"embedder"`
	// Lanes are the lanes the fused ranking and packet ran with (the vector lane only with an
	// embedder); DisabledLanes those --disable-lanes switched off.
	Lanes         []string `json:"lanes"`
	DisabledLanes []string `json:"disabled_lanes"`
	*bench.Summary
}

// benchMemoryCmd: zaxy bench longmemeval|locomo --file F --out ranked.jsonl [--limit N]
// [--parallel P] [--k K] [--packet-tokens T] [--disable-lanes L,L] [--embedder NAME]. It appends each case's haystack into a fresh
// space of ZAXY_DATABASE_URL's database (the events stay: the log is append-only), asks every
// question and writes ranked.jsonl, ranked.keyword.jsonl (keyword-only rankings) and
// ranked.summary.json, and prints the summary table. --disable-lanes switches checkout lanes off for an ablation
// (the fused ranking and packet; the keyword-only ones are unchanged); --embedder overrides
// ZAXY_EMBEDDER for the run, so it names the embedders zaxy serve can build.
func benchMemoryCmd(ctx context.Context, dataset string, args []string, dbURL string, getenv func(string) string, logger *slog.Logger, stdout, stderr io.Writer) int {
	usage := "usage: zaxy bench " + dataset + " --file F --out ranked.jsonl [--limit N] [--parallel P] [--k K] [--packet-tokens T] [--disable-lanes L,L] [--embedder NAME] [--reuse-run RUN]"
	fs := flag.NewFlagSet("bench "+dataset, flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("file", "", "benchmark file (JSON)")
	out := fs.String("out", "", "ranked JSON lines to write; the keyword-only lines and the summary go beside it")
	limit := fs.Int("limit", 0, "ask at most N questions (0: all)")
	parallel := fs.Int("parallel", 1, "cases worked at once (latencies are comparable only at 1)")
	k := fs.Int("k", 50, "ranked events kept per question")
	packetTokens := fs.Int("packet-tokens", 2000, "token budget of the checkout packet")
	disable := fs.String("disable-lanes", "", "comma-separated checkout lanes to switch off ("+strings.Join(checkout.Lanes, ", ")+")")
	embedder := fs.String("embedder", "", "embedder for this run, as ZAXY_EMBEDDER names it (default: ZAXY_EMBEDDER's)")
	reuse := fs.String("reuse-run", "", "ask the spaces of an earlier run (its summary's run) again instead of appending the file anew")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *file == "" || *out == "" || fs.NArg() > 0 || *limit < 0 || *parallel < 1 || *k < 10 || *packetTokens < 1 {
		fmt.Fprintln(stderr, usage)
		fmt.Fprintln(stderr, "--file and --out are required; --limit >= 0, --parallel >= 1, --k >= 10, --packet-tokens >= 1")
		return 2
	}
	disabled, err := parseLaneList(*disable)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy bench %s: --disable-lanes: %v\n", dataset, err)
		return 2
	}
	if *embedder != "" {
		getenv = overrideEnv(getenv, "ZAXY_EMBEDDER", *embedder)
	}
	cfg, err := parseMemoryConfig(getenv)
	if err != nil {
		if *embedder != "" {
			fmt.Fprintf(stderr, "zaxy bench %s: --embedder %s: %v\n", dataset, *embedder, err)
		} else {
			fmt.Fprintf(stderr, "zaxy bench %s: %v\n", dataset, err)
		}
		return 2
	}
	if err := benchMemory(ctx, dataset, *file, *out, dbURL, cfg, disabled, bench.Options{Limit: *limit, Parallel: *parallel, K: *k,
		PacketTokens: *packetTokens, Logger: logger, Summary: stdout, Reuse: *reuse}); err != nil {
		fmt.Fprintf(stderr, "zaxy bench %s: %v\n", dataset, err)
		return 1
	}
	return 0
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

// overrideEnv returns getenv with name answering value.
func overrideEnv(getenv func(string) string, name, value string) func(string) string {
	return func(k string) string {
		if k == name {
			return value
		}
		return getenv(k)
	}
}

func benchMemory(ctx context.Context, dataset, file, out, dbURL string, cfg memoryConfig, disabled []string, opts bench.Options) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	var cases []bench.Case
	if dataset == bench.DatasetLoCoMo {
		cases, err = bench.LoadLoCoMo(bufio.NewReader(f))
	} else {
		cases, err = bench.LoadLongMemEval(bufio.NewReader(f))
	}
	f.Close()
	if err != nil {
		return err
	}
	pool, err := openPool(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	proj, emb, err := openMemory(ctx, pool, cfg, opts.Logger)
	if err != nil {
		return err
	}
	provider, err := cfg.embedProvider()
	if err != nil {
		return err
	}
	retriever, name, lanes := newBenchRetriever(pool, proj, emb, provider, cfg.textSearchConfig, disabled)

	base := strings.TrimSuffix(out, ".jsonl")
	keywordPath, summaryPath := base+".keyword.jsonl", base+".summary.json"
	ranked, err := newBufferedFile(out)
	if err != nil {
		return err
	}
	defer ranked.close()
	keyword, err := newBufferedFile(keywordPath)
	if err != nil {
		return err
	}
	defer keyword.close()
	opts.Out, opts.KeywordOut = ranked.w, keyword.w
	sum, err := bench.Run(ctx, eventloom.NewStore(pool, nil, opts.Logger), retriever, cases, opts)
	if err != nil {
		return err
	}
	if err := ranked.close(); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	if err := keyword.close(); err != nil {
		return fmt.Errorf("write %s: %w", keywordPath, err)
	}
	rep := benchMemoryReport{Dataset: dataset, File: file, Retriever: name, Embedder: cfg.embedder, Lanes: lanes, DisabledLanes: disabled, Summary: sum}
	if provider != nil {
		rep.Embedder = provider.Model()
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(summaryPath, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	fmt.Fprintf(opts.Summary, "\nrun: %s (--reuse-run %s asks its spaces again)\nretriever: %s\nlanes: %s; disabled: %s\nembedder: %s\nwrote %s, %s, %s\n", sum.Run, sum.Run, name,
		strings.Join(lanes, ", "), orNone(disabled), rep.Embedder, out, keywordPath, summaryPath)
	return nil
}

// orNone joins names with commas, or says none.
func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// bufferedFile is a created file behind a buffer; close flushes and closes it once.
type bufferedFile struct {
	f      *os.File
	w      *bufio.Writer
	closed bool
}

func newBufferedFile(path string) (*bufferedFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &bufferedFile{f: f, w: bufio.NewWriter(f)}, nil
}

func (b *bufferedFile) close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	if err := b.w.Flush(); err != nil {
		b.f.Close()
		return err
	}
	return b.f.Close()
}
