package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/projection"
)

// rebuildCmd: zaxy rebuild (--space S | --all) [--no-embed] [--json]. Discards and replays
// projections, then computes the space's embeddings unless --no-embed.
func rebuildCmd(ctx context.Context, args []string, dbURL string, getenv func(string) string, logger *slog.Logger, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rebuild", flag.ContinueOnError)
	fs.SetOutput(stderr)
	space := fs.String("space", "", "space to rebuild")
	all := fs.Bool("all", false, "rebuild every space")
	noEmbed := fs.Bool("no-embed", false, "leave embeddings to the workers")
	asJSON := fs.Bool("json", false, "print JSON lines")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if (*space == "") == !*all {
		fmt.Fprintln(stderr, "zaxy rebuild: give exactly one of --space S or --all")
		return 2
	}
	cfg, err := parseMemoryConfig(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy rebuild: %v\n", err)
		return 2
	}
	pool, err := openPool(ctx, dbURL)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy rebuild: %v\n", err)
		return 2
	}
	defer pool.Close()
	proj, embedder, err := openMemory(ctx, pool, cfg, logger)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy rebuild: %v\n", err)
		return 2
	}
	spaces := []string{*space}
	if *all {
		if spaces, err = proj.Spaces(ctx); err != nil {
			fmt.Fprintf(stderr, "zaxy rebuild: %v\n", err)
			return 1
		}
	}
	for _, s := range spaces {
		res, err := proj.Rebuild(ctx, s)
		if err != nil {
			fmt.Fprintf(stderr, "zaxy rebuild: %v\n", err)
			return 1
		}
		out := struct {
			*projection.RebuildResult
			Embedded        int     `json:"embedded"`
			EmbedSeconds    float64 `json:"embed_seconds"`
			EventsPerSecond float64 `json:"events_per_second"`
		}{RebuildResult: res}
		total := res.Duration
		if embedder != nil && !*noEmbed {
			start := time.Now()
			if out.Embedded, err = embedder.EmbedSpace(ctx, s); err != nil {
				fmt.Fprintf(stderr, "zaxy rebuild: %v\n", err)
				return 1
			}
			out.EmbedSeconds = time.Since(start).Seconds()
			total += time.Since(start)
		}
		out.EventsPerSecond = float64(res.Events) / total.Seconds()
		if *asJSON {
			_ = json.NewEncoder(stdout).Encode(out)
		} else {
			fmt.Fprintf(stdout, "rebuilt %s: %d events to seq %d in %s, %d embeddings; %.0f events/s end to end\n",
				s, res.Events, res.ProjectedSeq, total.Round(time.Millisecond), out.Embedded, out.EventsPerSecond)
		}
	}
	return 0
}

// projectionCmd: zaxy projection checksum --space S | zaxy projection status [--space S].
func projectionCmd(ctx context.Context, args []string, dbURL string, getenv func(string) string, logger *slog.Logger, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "checksum" && args[0] != "status") {
		fmt.Fprintln(stderr, "usage: zaxy projection checksum --space S [--json] | zaxy projection status [--space S] [--json]")
		return 2
	}
	fs := flag.NewFlagSet("projection "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	space := fs.String("space", "", "space")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	pool, err := openPool(ctx, dbURL)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy projection: %v\n", err)
		return 2
	}
	defer pool.Close()
	if args[0] == "status" {
		st, err := projection.Lag(ctx, pool, *space)
		if err != nil {
			fmt.Fprintf(stderr, "zaxy projection status: %v\n", err)
			return 1
		}
		for _, s := range st {
			if *asJSON {
				_ = json.NewEncoder(stdout).Encode(s)
			} else {
				fmt.Fprintf(stdout, "%s: head %d, projected %d, lag %d\n", s.SpaceID, s.HeadSeq, s.ProjectedSeq, s.Lag)
			}
		}
		return 0
	}
	if *space == "" {
		fmt.Fprintln(stderr, "zaxy projection checksum: --space is required")
		return 2
	}
	cfg, err := parseMemoryConfig(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy projection: %v\n", err)
		return 2
	}
	proj, err := projection.New(ctx, pool, projection.Config{TextSearchConfig: cfg.textSearchConfig, Logger: logger})
	if err != nil {
		fmt.Fprintf(stderr, "zaxy projection: %v\n", err)
		return 2
	}
	sum, err := proj.Checksum(ctx, *space)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy projection checksum: %v\n", err)
		return 1
	}
	if *asJSON {
		_ = json.NewEncoder(stdout).Encode(sum)
	} else {
		fmt.Fprintf(stdout, "%s  %s (%d entities, %d mentions, %d facts, %d invalidations, %d items)\n",
			sum.Digest, sum.SpaceID, sum.Entities, sum.Mentions, sum.Facts, sum.Invalidations, sum.Items)
	}
	return 0
}

// factsCmd: zaxy facts --space S [--entity E] [--at T | --as-of-seq N] [--json].
func factsCmd(ctx context.Context, args []string, dbURL string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("facts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	p := graph.FactsParams{}
	fs.StringVar(&p.SpaceID, "space", "", "space (required)")
	fs.StringVar(&p.Entity, "entity", "", "only facts about this entity (id or name)")
	atFlag := fs.String("at", "", "facts valid at this RFC 3339 time")
	fs.Int64Var(&p.AsOfSeq, "as-of-seq", 0, "what memory said right after this seq")
	fs.IntVar(&p.Limit, "limit", 1000, "at most this many facts")
	asJSON := fs.Bool("json", false, "print JSON lines")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if p.SpaceID == "" {
		fmt.Fprintln(stderr, "zaxy facts: --space is required")
		return 2
	}
	switch {
	case *atFlag != "" && p.AsOfSeq > 0:
		fmt.Fprintln(stderr, "zaxy facts: give at most one of --at and --as-of-seq")
		return 2
	case *atFlag != "":
		t, err := time.Parse(time.RFC3339Nano, *atFlag)
		if err != nil {
			fmt.Fprintf(stderr, "zaxy facts: --at must be an RFC 3339 time, got %q\n", *atFlag)
			return 2
		}
		p.View, p.At = graph.ViewAt, t
	case p.AsOfSeq > 0:
		p.View = graph.ViewAsOf
	}
	pool, err := openPool(ctx, dbURL)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy facts: %v\n", err)
		return 2
	}
	defer pool.Close()
	facts, err := graph.Facts(ctx, pool, p)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy facts: %v\n", err)
		return 1
	}
	for _, f := range facts {
		if *asJSON {
			_ = json.NewEncoder(stdout).Encode(f)
			continue
		}
		object := string(f.Value)
		if f.Object != nil {
			object = f.Object.Name
		}
		to := "open"
		if f.ValidTo != nil {
			to = f.ValidTo.Format(time.RFC3339)
		}
		fmt.Fprintf(stdout, "%s %s %s  [v%d %s, valid %s..%s, seq %d]\n", f.Subject.Name, f.Predicate, object,
			f.Version, f.StatusThen, f.ValidFrom.Format(time.RFC3339), to, f.RecordedSeq)
	}
	return 0
}
