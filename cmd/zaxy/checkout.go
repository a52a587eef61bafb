package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/zaxy/zaxy/checkout"
)

// checkoutCmd: zaxy checkout --space S --query Q [--purpose P] [--max-tokens N] [--session X]
// [--as-of T] [--disable-lanes a,b] [--cues JSON] [--weave] [--who-when] [--no-record] [--json]. Prints the packet's text, or the
// whole packet with --json.
type checkoutCmd struct {
	r           checkout.Request
	asOf, lanes string
	cues        string
	asJSON      bool
}

func (c *checkoutCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.r.SpaceID, "space", "", "space (required)")
	fs.StringVar(&c.r.Query, "query", "", "what the agent is about to do or asks (required)")
	fs.StringVar(&c.r.Purpose, "purpose", "", "general, planning, exploration, implementation, debugging, review or refactoring (default: inferred)")
	fs.IntVar(&c.r.MaxTokens, "max-tokens", checkout.DefaultMaxTokens, "token budget")
	fs.StringVar(&c.r.SessionID, "session", "", "the agent's session")
	fs.StringVar(&c.asOf, "as-of", "", "ask about another time (RFC 3339)")
	fs.StringVar(&c.lanes, "disable-lanes", "", "comma-separated lanes to switch off")
	fs.StringVar(&c.cues, "cues", "", `what the agent is doing, a JSON object of strings, e.g. {"repo":"api","phase":"debug"}`)
	fs.BoolVar(&c.r.Weave, "weave", false, "add a memory weave built from the space's latent artifacts")
	fs.BoolVar(&c.r.WhoWhen, "who-when", false, "open each event's line with the day it happened and, for a message, who said it")
	fs.BoolVar(&c.r.NoRecord, "no-record", false, "do not append the checkout.surfaced event")
	fs.BoolVar(&c.asJSON, "json", false, "print the whole packet as JSON")
}

func (c *checkoutCmd) validate(args []string) error {
	if c.r.SpaceID == "" {
		return errNeedsSpace
	}
	if c.asOf != "" {
		t, err := time.Parse(time.RFC3339Nano, c.asOf)
		if err != nil {
			return fmt.Errorf("--as-of must be an RFC 3339 time, got %q", c.asOf)
		}
		c.r.AsOf = &t
	}
	if c.lanes != "" {
		c.r.DisableLanes = strings.Split(c.lanes, ",")
	}
	if c.cues != "" {
		if err := json.Unmarshal([]byte(c.cues), &c.r.Cues); err != nil {
			return fmt.Errorf("--cues must be a JSON object of strings, got %q", c.cues)
		}
	}
	return noArgs(args)
}

func (c *checkoutCmd) run(ctx context.Context, env *env) error {
	mem := env.cfg.memory
	provider, err := mem.embedProvider()
	if err != nil {
		return invalid(err)
	}
	svc := checkout.New(env.pool, env.store, checkout.Config{TextSearchConfig: mem.textSearchConfig, Embedder: provider, Logger: env.logger})
	p, err := svc.Checkout(ctx, &c.r)
	if err != nil {
		return invalidIf(err)
	}
	c.print(env, p)
	return nil
}

func (c *checkoutCmd) runRemote(ctx context.Context, env *env) error {
	p, err := env.api.Checkout(ctx, c.r.SpaceID, &c.r)
	if err != nil {
		return err
	}
	c.print(env, p)
	return nil
}

// print writes the packet's text and a line of its budget and timing, or the packet as JSON.
func (c *checkoutCmd) print(env *env, p *checkout.Packet) {
	if c.asJSON {
		_ = json.NewEncoder(env.stdout).Encode(p)
		return
	}
	fmt.Fprint(env.stdout, p.Text)
	for _, w := range p.Warnings {
		fmt.Fprintf(env.stdout, "warning (%s): %s\n", w.Code, w.Message)
	}
	fmt.Fprintf(env.stdout, "-- %s, %d of %d tokens, %d elided, projection lag %d, %.1f ms\n",
		p.Purpose, p.Budget.Used, p.Budget.Requested, len(p.Budget.Elided), p.Diagnostics.ProjectionLag, p.Diagnostics.TotalMS)
}
