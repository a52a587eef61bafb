package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

// checkoutCmd: zaxy checkout --space S --query Q [--purpose P] [--max-tokens N] [--session X]
// [--as-of T] [--disable-lanes a,b] [--no-record] [--json]. Prints the packet's text, or the
// whole packet with --json.
func checkoutCmd(ctx context.Context, args []string, dbURL string, getenv func(string) string, logger *slog.Logger, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("checkout", flag.ContinueOnError)
	fs.SetOutput(stderr)
	r := checkout.Request{}
	fs.StringVar(&r.SpaceID, "space", "", "space (required)")
	fs.StringVar(&r.Query, "query", "", "what the agent is about to do or asks (required)")
	fs.StringVar(&r.Purpose, "purpose", "", "general, planning, exploration, implementation, debugging, review or refactoring (default: inferred)")
	fs.IntVar(&r.MaxTokens, "max-tokens", checkout.DefaultMaxTokens, "token budget")
	fs.StringVar(&r.SessionID, "session", "", "the agent's session")
	asOf := fs.String("as-of", "", "ask about another time (RFC 3339)")
	lanes := fs.String("disable-lanes", "", "comma-separated lanes to switch off")
	fs.BoolVar(&r.NoRecord, "no-record", false, "do not append the checkout.surfaced event")
	asJSON := fs.Bool("json", false, "print the whole packet as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *asOf != "" {
		t, err := time.Parse(time.RFC3339Nano, *asOf)
		if err != nil {
			fmt.Fprintf(stderr, "zaxy checkout: --as-of must be an RFC 3339 time, got %q\n", *asOf)
			return 2
		}
		r.AsOf = &t
	}
	if *lanes != "" {
		r.DisableLanes = strings.Split(*lanes, ",")
	}
	cfg, err := parseMemoryConfig(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy checkout: %v\n", err)
		return 2
	}
	provider, err := cfg.embedProvider()
	if err != nil {
		fmt.Fprintf(stderr, "zaxy checkout: %v\n", err)
		return 2
	}
	pool, store, closeFn, err := openPoolStore(ctx, dbURL, logger)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy checkout: %v\n", err)
		return 2
	}
	defer closeFn()
	svc := checkout.New(pool, store, checkout.Config{TextSearchConfig: cfg.textSearchConfig, Embedder: provider, Logger: logger})
	p, err := svc.Checkout(ctx, &r)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy checkout: %v\n", err)
		if errors.Is(err, eventloom.ErrInvalid) {
			return 2
		}
		return 1
	}
	if *asJSON {
		_ = json.NewEncoder(stdout).Encode(p)
		return 0
	}
	fmt.Fprint(stdout, p.Text)
	for _, w := range p.Warnings {
		fmt.Fprintf(stdout, "warning (%s): %s\n", w.Code, w.Message)
	}
	fmt.Fprintf(stdout, "-- %s, %d of %d tokens, %d elided, projection lag %d, %.1f ms\n",
		p.Purpose, p.Budget.Used, p.Budget.Requested, len(p.Budget.Elided), p.Diagnostics.ProjectionLag, p.Diagnostics.TotalMS)
	return 0
}
