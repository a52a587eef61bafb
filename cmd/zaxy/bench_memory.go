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
	"strings"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/eventloom"
)

// benchMemoryReport is the summary file written next to --out.
type benchMemoryReport struct {
	Dataset   string `json:"dataset"`
	File      string `json:"file"`
	Retriever string `json:"retriever"`
	Embedder  string `json:"embedder"`
	*bench.Summary
}

// benchMemoryCmd: zaxy bench longmemeval|locomo --file F --out ranked.jsonl [--limit N]
// [--parallel P] [--k K] [--packet-tokens T]. It appends each case's haystack into a fresh
// space of ZAXY_DATABASE_URL's database (the events stay: the log is append-only), asks every
// question and writes ranked.jsonl, ranked.keyword.jsonl (keyword-only rankings) and
// ranked.summary.json, and prints the summary table.
func benchMemoryCmd(ctx context.Context, dataset string, args []string, dbURL string, getenv func(string) string, logger *slog.Logger, stdout, stderr io.Writer) int {
	usage := "usage: zaxy bench " + dataset + " --file F --out ranked.jsonl [--limit N] [--parallel P] [--k K] [--packet-tokens T]"
	fs := flag.NewFlagSet("bench "+dataset, flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("file", "", "benchmark file (JSON)")
	out := fs.String("out", "", "ranked JSON lines to write; the keyword-only lines and the summary go beside it")
	limit := fs.Int("limit", 0, "ask at most N questions (0: all)")
	parallel := fs.Int("parallel", 1, "cases worked at once (latencies are comparable only at 1)")
	k := fs.Int("k", 50, "ranked events kept per question")
	packetTokens := fs.Int("packet-tokens", 2000, "token budget of the checkout packet")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *file == "" || *out == "" || fs.NArg() > 0 || *limit < 0 || *parallel < 1 || *k < 10 || *packetTokens < 1 {
		fmt.Fprintln(stderr, usage)
		fmt.Fprintln(stderr, "--file and --out are required; --limit >= 0, --parallel >= 1, --k >= 10, --packet-tokens >= 1")
		return 2
	}
	cfg, err := parseMemoryConfig(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy bench %s: %v\n", dataset, err)
		return 2
	}
	if err := benchMemory(ctx, dataset, *file, *out, dbURL, cfg, bench.Options{Limit: *limit, Parallel: *parallel, K: *k,
		PacketTokens: *packetTokens, Logger: logger, Summary: stdout}); err != nil {
		fmt.Fprintf(stderr, "zaxy bench %s: %v\n", dataset, err)
		return 1
	}
	return 0
}

func benchMemory(ctx context.Context, dataset, file, out, dbURL string, cfg memoryConfig, opts bench.Options) error {
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
	retriever, name := newBenchRetriever(pool, proj, emb, provider, cfg.textSearchConfig)

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
	rep := benchMemoryReport{Dataset: dataset, File: file, Retriever: name, Embedder: cfg.embedder, Summary: sum}
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
	fmt.Fprintf(opts.Summary, "\nretriever: %s\nwrote %s, %s, %s\n", name, out, keywordPath, summaryPath)
	return nil
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
