package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/zaxy/zaxy/migrations"
)

// migrateCmd: zaxy migrate [--json]; applies the embedded schema migrations.
type migrateCmd struct {
	asJSON bool
}

func (c *migrateCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *migrateCmd) validate(args []string) error { return noArgs(args) }

func (c *migrateCmd) run(ctx context.Context, env *env) error {
	v, err := migrations.Up(ctx, env.cfg.databaseURL, time.Minute)
	if err != nil {
		return err
	}
	if c.asJSON {
		fmt.Fprintf(env.stdout, "{\"version\":%d}\n", v)
	} else {
		fmt.Fprintf(env.stdout, "schema at version %d\n", v)
	}
	return nil
}
