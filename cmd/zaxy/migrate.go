package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/zaxy/zaxy/migrations"
)

// migrateCmd: zaxy migrate [--json]; applies the embedded schema migrations to
// ZAXY_DATABASE_URL's database, and with ZAXY_CLUSTERS to every cluster's (home first).
type migrateCmd struct {
	asJSON bool
}

func (c *migrateCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *migrateCmd) validate(args []string) error { return noArgs(args) }

func (c *migrateCmd) run(ctx context.Context, env *env) error {
	for _, cl := range servedClusters(env.cfg) {
		v, err := migrations.Up(ctx, cl.URL, time.Minute)
		if err != nil {
			if len(env.cfg.clusters) > 0 {
				return fmt.Errorf("cluster %s: %w", cl.Name, err)
			}
			return err
		}
		switch {
		case c.asJSON && len(env.cfg.clusters) > 0:
			fmt.Fprintf(env.stdout, "{\"cluster\":%q,\"version\":%d}\n", cl.Name, v)
		case c.asJSON:
			fmt.Fprintf(env.stdout, "{\"version\":%d}\n", v)
		case len(env.cfg.clusters) > 0:
			fmt.Fprintf(env.stdout, "cluster %s: schema at version %d\n", cl.Name, v)
		default:
			fmt.Fprintf(env.stdout, "schema at version %d\n", v)
		}
	}
	return nil
}
