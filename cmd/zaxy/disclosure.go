package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/disclosure"
)

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
type indexCmd struct {
	p      disclosure.IndexParams
	asJSON bool
}

func (c *indexCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.p.SpaceID, "space", "", "space (required)")
	fs.IntVar(&c.p.MaxTokens, "max-tokens", disclosure.DefaultIndexTokens, "token budget of the index (20-20000)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *indexCmd) validate(args []string) error {
	if c.p.SpaceID == "" {
		return errNeedsSpace
	}
	return noArgs(args)
}

func (c *indexCmd) run(ctx context.Context, env *env) error {
	v, err := disclosure.Index(ctx, env.pool, c.p)
	if err != nil {
		return invalidIf(err)
	}
	printView(env.stdout, c.asJSON, v, v.Text, v.Tokens)
	return nil
}

func (c *indexCmd) runRemote(ctx context.Context, env *env) error {
	n := int64(c.p.MaxTokens)
	v, err := env.api.Index(ctx, c.p.SpaceID, &client.IndexParams{MaxTokens: &n})
	if err != nil {
		return err
	}
	printView(env.stdout, c.asJSON, v, v.Text, v.Tokens)
	return nil
}

// timelineCmd: zaxy timeline --space S [--session X] [--max-tokens N] [--before-seq N] [--json].
type timelineCmd struct {
	p      disclosure.TimelineParams
	asJSON bool
}

func (c *timelineCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.p.SpaceID, "space", "", "space (required)")
	fs.StringVar(&c.p.SessionID, "session", "", "only this session's events")
	fs.IntVar(&c.p.MaxTokens, "max-tokens", disclosure.DefaultTimelineTokens, "token budget of the timeline (20-20000)")
	fs.Int64Var(&c.p.BeforeSeq, "before-seq", 0, "start below this seq (a previous page's next_before_seq)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *timelineCmd) validate(args []string) error {
	if c.p.SpaceID == "" {
		return errNeedsSpace
	}
	return noArgs(args)
}

func (c *timelineCmd) run(ctx context.Context, env *env) error {
	v, err := disclosure.Timeline(ctx, env.pool, c.p)
	if err != nil {
		return invalidIf(err)
	}
	printView(env.stdout, c.asJSON, v, v.Text, v.Tokens)
	return nil
}

func (c *timelineCmd) runRemote(ctx context.Context, env *env) error {
	p := client.TimelineParams{SessionID: c.p.SessionID}
	n := int64(c.p.MaxTokens)
	p.MaxTokens = &n
	if c.p.BeforeSeq > 0 {
		p.BeforeSeq = &c.p.BeforeSeq
	}
	v, err := env.api.Timeline(ctx, c.p.SpaceID, &p)
	if err != nil {
		return err
	}
	printView(env.stdout, c.asJSON, v, v.Text, v.Tokens)
	return nil
}

// showCmd: zaxy show --space S ID [--json]; flags may come before or after the id.
type showCmd struct {
	p      disclosure.ItemParams
	asJSON bool
}

func (c *showCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.p.SpaceID, "space", "", "space (required)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *showCmd) validate(args []string) error {
	switch {
	case c.p.SpaceID == "":
		return errNeedsSpace
	case len(args) != 1:
		return errors.New("want exactly one ID: ev:<seq>, fact:<id>, an entity id, session:<id>, type:<type> or predicate:<name>")
	}
	c.p.ID = args[0]
	return nil
}

func (c *showCmd) run(ctx context.Context, env *env) error {
	v, err := disclosure.Item(ctx, env.pool, c.p)
	if err != nil {
		return invalidIf(err)
	}
	printView(env.stdout, c.asJSON, v, v.Text, v.Tokens)
	return nil
}

func (c *showCmd) runRemote(ctx context.Context, env *env) error {
	v, err := env.api.Item(ctx, c.p.SpaceID, c.p.ID)
	if err != nil {
		return err
	}
	printView(env.stdout, c.asJSON, v, v.Text, v.Tokens)
	return nil
}
