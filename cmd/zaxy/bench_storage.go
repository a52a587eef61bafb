package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/zaxy/zaxy/bench"
)

// benchStorageCmd: zaxy bench storage [--file F] [--limit N] [--out FILE] [--json]; with --file,
// appends the LongMemEval file's sessions into fresh spaces of ZAXY_DATABASE_URL's database
// and makes them searchable (projection, embeddings, latent builds), asking no question; then
// (with or without --file) reports every table's heap, index and TOAST bytes, rows and bytes
// per event against the events table.
type benchStorageCmd struct {
	file, out string
	limit     int
	asJSON    bool
	memory    memoryConfig
}

func (c *benchStorageCmd) flags(fs *flag.FlagSet, cfg *config) {
	c.memory = cfg.memory
	fs.StringVar(&c.file, "file", "", "LongMemEval file whose sessions are loaded first (empty: measure the database as it is)")
	fs.IntVar(&c.limit, "limit", 0, "load at most N of the file's questions' haystacks (0: all)")
	fs.StringVar(&c.out, "out", "", "also write the report as JSON to this file")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *benchStorageCmd) validate(args []string) error {
	if c.limit < 0 {
		return fmt.Errorf("--limit must be at least 0, got %d", c.limit)
	}
	return noArgs(args)
}

func (c *benchStorageCmd) run(ctx context.Context, env *env) error {
	if env.dbErr != nil {
		return env.dbErr
	}
	var loaded string
	var secs float64
	if c.file != "" {
		cases, err := bench.LoadFile("longmemeval", c.file)
		if err != nil {
			return err
		}
		proj, emb, err := openMemory(ctx, env.pool, c.memory, env.logger)
		if err != nil {
			return err
		}
		provider, err := c.memory.embedProvider()
		if err != nil {
			return err
		}
		d, err := bench.LoadForStorage(ctx, &bench.DatasetParams{
			Dataset: "longmemeval", File: c.file, Cases: cases, Pool: env.pool, Projector: proj, Embedder: emb,
			Provider: provider, EmbedderName: c.memory.embedder, TextSearchConfig: c.memory.textSearchConfig,
			Options: bench.Options{Limit: c.limit, Logger: env.logger},
		})
		if err != nil {
			return err
		}
		loaded, secs = fmt.Sprintf("%s (limit %d, embedder %s)", c.file, c.limit, c.memory.embedder), d.Seconds()
	}
	rep, err := bench.Storage(ctx, env.pool)
	if err != nil {
		return err
	}
	rep.Loaded, rep.LoadSeconds = loaded, secs
	if err := writeOut(c.out, rep); err != nil {
		return err
	}
	return printReport(env, c.asJSON, rep)
}
