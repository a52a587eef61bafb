package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/zaxy/zaxy/disclosure"
	"github.com/zaxy/zaxy/eventloom"
)

// disclosureExit is the exit status of a failed view: 2 for bad input, 1 otherwise.
func disclosureExit(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "zaxy %s: %v\n", cmd, err)
	if errors.Is(err, eventloom.ErrInvalid) {
		return 2
	}
	return 1
}

// printView writes a view as JSON, or its text followed by its token cost.
func printView(stdout io.Writer, asJSON bool, v any, text string, tokens int) {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(v)
		return
	}
	fmt.Fprintf(stdout, "%s\n(%d tokens)\n", text, tokens)
}

// indexCmd: zaxy index --space S [--max-tokens N] [--json].
func indexCmd(ctx context.Context, args []string, dbURL string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("index", flag.ContinueOnError)
	fs.SetOutput(stderr)
	p := disclosure.IndexParams{}
	fs.StringVar(&p.SpaceID, "space", "", "space (required)")
	fs.IntVar(&p.MaxTokens, "max-tokens", disclosure.DefaultIndexTokens, "token budget of the index (20-20000)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if p.SpaceID == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: zaxy index --space S [--max-tokens N] [--json]")
		return 2
	}
	pool, err := openPool(ctx, dbURL)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy index: %v\n", err)
		return 2
	}
	defer pool.Close()
	v, err := disclosure.Index(ctx, pool, p)
	if err != nil {
		return disclosureExit(stderr, "index", err)
	}
	printView(stdout, *asJSON, v, v.Text, v.Tokens)
	return 0
}

// timelineCmd: zaxy timeline --space S [--session X] [--max-tokens N] [--before-seq N] [--json].
func timelineCmd(ctx context.Context, args []string, dbURL string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("timeline", flag.ContinueOnError)
	fs.SetOutput(stderr)
	p := disclosure.TimelineParams{}
	fs.StringVar(&p.SpaceID, "space", "", "space (required)")
	fs.StringVar(&p.SessionID, "session", "", "only this session's events")
	fs.IntVar(&p.MaxTokens, "max-tokens", disclosure.DefaultTimelineTokens, "token budget of the timeline (20-20000)")
	fs.Int64Var(&p.BeforeSeq, "before-seq", 0, "start below this seq (a previous page's next_before_seq)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if p.SpaceID == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: zaxy timeline --space S [--session X] [--max-tokens N] [--before-seq N] [--json]")
		return 2
	}
	pool, err := openPool(ctx, dbURL)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy timeline: %v\n", err)
		return 2
	}
	defer pool.Close()
	v, err := disclosure.Timeline(ctx, pool, p)
	if err != nil {
		return disclosureExit(stderr, "timeline", err)
	}
	printView(stdout, *asJSON, v, v.Text, v.Tokens)
	return 0
}

// showCmd: zaxy show --space S ID [--json]; flags may come before or after the id.
func showCmd(ctx context.Context, args []string, dbURL string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	fs.SetOutput(stderr)
	p := disclosure.ItemParams{}
	fs.StringVar(&p.SpaceID, "space", "", "space (required)")
	asJSON := fs.Bool("json", false, "print JSON")
	var ids []string
	for {
		if err := fs.Parse(args); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		ids = append(ids, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if p.SpaceID == "" || len(ids) != 1 {
		fmt.Fprintln(stderr, "usage: zaxy show --space S ID [--json]   (ID: ev:<seq>, fact:<id>, an entity id, session:<id>, type:<type>, predicate:<name>)")
		return 2
	}
	p.ID = ids[0]
	pool, err := openPool(ctx, dbURL)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy show: %v\n", err)
		return 2
	}
	defer pool.Close()
	v, err := disclosure.Item(ctx, pool, p)
	if err != nil {
		return disclosureExit(stderr, "show", err)
	}
	printView(stdout, *asJSON, v, v.Text, v.Tokens)
	return 0
}
