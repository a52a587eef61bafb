package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/migrations"
	"github.com/zaxy/zaxy/placement"
	"github.com/zaxy/zaxy/projection"
)

// spaceMoveCmd: zaxy space move --space S --to NAME | --finish | --abandon [--json]. Moves a
// space to another cluster of ZAXY_CLUSTERS by its log (docs/scaling.md), drops the copy a
// move left (--finish) or gives up a move that did not flip (--abandon). Runs as the schema
// owner on every cluster.
type spaceMoveCmd struct {
	space, to       string
	finish, abandon bool
	asJSON          bool
}

func (c *spaceMoveCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", "", "space to move (required)")
	fs.StringVar(&c.to, "to", "", "cluster of ZAXY_CLUSTERS to move it to")
	fs.BoolVar(&c.finish, "finish", false, "drop the read-only copy the space's move left on the cluster it moved from")
	fs.BoolVar(&c.abandon, "abandon", false, "give up a move that did not flip: drop what it copied, resume appends on the source")
	fs.BoolVar(&c.asJSON, "json", false, "print the result as JSON")
}

func (c *spaceMoveCmd) validate(args []string) error {
	if c.space == "" {
		return errNeedsSpace
	}
	if err := eventloom.ValidateSpaceID(c.space); err != nil {
		return err
	}
	modes := 0
	for _, on := range []bool{c.to != "", c.finish, c.abandon} {
		if on {
			modes++
		}
	}
	if modes != 1 {
		return errors.New("give exactly one of --to NAME, --finish and --abandon")
	}
	if c.to != "" {
		if err := placement.ValidateName("to", c.to); err != nil {
			return err
		}
	}
	return noArgs(args)
}

func (c *spaceMoveCmd) run(ctx context.Context, env *env) error {
	if len(env.cfg.clusters) == 0 {
		return invalid(errors.New("zaxy space move needs ZAXY_CLUSTERS: the clusters spaces are placed on (docs/scaling.md)"))
	}
	sites, closeSites, err := openSites(ctx, env.cfg, env.logger)
	if err != nil {
		return err
	}
	defer closeSites()
	home := placement.Home(env.cfg.clusters, env.cfg.databaseURL)
	m := &placement.Mover{Directory: placement.NewDirectory(sites[home.Name].DB, env.cfg.clusters), Sites: sites, Logger: env.logger}
	var out any
	switch {
	case c.finish:
		res, err := m.Finish(ctx, c.space)
		if err != nil {
			return invalidIf(err)
		}
		out = res
		if !c.asJSON {
			_, err = fmt.Fprintf(env.stdout, "finished: space %s, the copy on %s dropped (%d events)\n", res.SpaceID, res.Cluster, res.Events)
			return err
		}
	case c.abandon:
		if err := m.Abandon(ctx, c.space); err != nil {
			return invalidIf(err)
		}
		out = map[string]string{"space_id": c.space, "abandoned": "true"}
		if !c.asJSON {
			_, err = fmt.Fprintf(env.stdout, "abandoned: the move of space %s; appends resume where it was\n", c.space)
			return err
		}
	default:
		res, err := m.Move(ctx, c.space, c.to)
		if err != nil {
			return invalidIf(err)
		}
		out = res
		if !c.asJSON {
			_, err = fmt.Fprintf(env.stdout, "moved: space %s from %s to %s, %d events, head seq %d hash %s, projections %s, appends paused %s, took %s\n"+
				"the copy on %s is read-only until: zaxy space move --finish --space %s\n",
				res.SpaceID, res.From, res.To, res.Events, res.HeadSeq, res.HeadHash, res.Checksum, res.Paused.Round(1e6), res.Took.Round(1e6), res.From, res.SpaceID)
			return err
		}
	}
	return json.NewEncoder(env.stdout).Encode(out)
}

// newSite is what a move uses of the cluster called name, on pool: its schema must be this
// binary's, and its projector, latent builder and job outbox are built as the workers' are.
func newSite(ctx context.Context, cfg *config, name string, pool *pgxpool.Pool, logger *slog.Logger) (placement.Site, error) {
	if err := migrations.Check(ctx, pool); err != nil {
		return placement.Site{}, fmt.Errorf("cluster %s: %w", name, err)
	}
	pcfg, err := cfg.memory.projection(logger)
	if err != nil {
		return placement.Site{}, fmt.Errorf("cluster %s: %w", name, err)
	}
	proj, err := projection.New(ctx, pool, pcfg)
	if err != nil {
		return placement.Site{}, fmt.Errorf("cluster %s: %w", name, err)
	}
	builder, err := latent.NewBuilder(ctx, pool, eventloom.NewStore(pool, nil, logger), latent.Config{Logger: logger})
	if err != nil {
		return placement.Site{}, fmt.Errorf("cluster %s: %w", name, err)
	}
	client, err := jobs.NewInsertOnlyClient(pool, logger)
	if err != nil {
		return placement.Site{}, fmt.Errorf("cluster %s: %w", name, err)
	}
	return placement.Site{Name: name, DB: pool, Projector: proj, Latent: builder, Outbox: jobs.NewOutbox(client)}, nil
}
