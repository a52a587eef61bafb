package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/zaxy/zaxy/bench"
)

// benchMoveCmd: zaxy bench move [--events 10000,100000] [--target-url URL] [--out FILE] [--json].
type benchMoveCmd struct {
	events, target, out string
	asJSON              bool
	o                   bench.MoveOptions
}

func (c *benchMoveCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.events, "events", "10000,100000", "comma-separated sizes of the spaces moved, one move each")
	fs.StringVar(&c.target, "target-url", "", "admin URL of the cluster the spaces move to (default: a second database of ZAXY_DATABASE_URL's cluster)")
	fs.StringVar(&c.out, "out", "", "also write the report as JSON to this file")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *benchMoveCmd) validate(args []string) error {
	for _, f := range strings.Split(c.events, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 100 || n > 10_000_000 {
			return fmt.Errorf("--events must list sizes from 100 to 10000000, got %q", f)
		}
		c.o.Events = append(c.o.Events, n)
	}
	return noArgs(args)
}

func (c *benchMoveCmd) run(ctx context.Context, env *env) error {
	if env.cfg.databaseURL == "" {
		return errNoDatabaseURL
	}
	c.o.TargetURL, c.o.OpenPool, c.o.Logger = c.target, newPool, env.logger
	rep, err := bench.Move(ctx, env.cfg.databaseURL, c.o)
	if err != nil {
		return err
	}
	if err := writeOut(c.out, rep); err != nil {
		return err
	}
	return printReport(env, c.asJSON, rep)
}
