package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
)

// eraseCmd: zaxy erase --space S --seq N --reason R [--actor A] [--json]. Replaces one event's
// content and data with the tombstone, records the erasure in the log and purges everything
// derived from the event (docs/eventloom.md, "Erasure"). Like every CLI command it acts with
// the database role's rights (whoever runs it holds the admin power), or over HTTP with an
// admin token.
type eraseCmd struct {
	p      eventloom.EraseParams
	asJSON bool
}

func (c *eraseCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.p.SpaceID, "space", "", "space of the event (required)")
	fs.Int64Var(&c.p.Seq, "seq", 0, "seq of the event to erase (required)")
	fs.StringVar(&c.p.Reason, "reason", "", "why, 1-1000 characters, recorded in the log: never repeat the erased text (required)")
	fs.StringVar(&c.p.Actor, "actor", "", "who asked, recorded as the erasure event's actor")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *eraseCmd) validate(args []string) error {
	if err := c.p.Validate(); err != nil {
		return err
	}
	return noArgs(args)
}

func (c *eraseCmd) run(ctx context.Context, env *env) error {
	pcfg, err := env.cfg.memory.projection(env.logger)
	if err != nil {
		return err
	}
	proj, err := projection.New(ctx, env.pool, pcfg)
	if err != nil {
		return invalid(err)
	}
	res, err := erasure.New(env.pool, env.store, proj, env.logger).Erase(ctx, &c.p)
	if err != nil {
		return err
	}
	c.print(env, res)
	return nil
}

// runRemote erases through POST /erasures, which needs an admin token.
func (c *eraseCmd) runRemote(ctx context.Context, env *env) error {
	res, err := env.api.Erase(ctx, c.p.SpaceID, &client.EraseRequest{Seq: c.p.Seq, Reason: c.p.Reason, Actor: c.p.Actor})
	if err != nil {
		return err
	}
	c.print(env, res)
	return nil
}

// print writes what the erasure did.
func (c *eraseCmd) print(env *env, res *erasure.Result) {
	if c.asJSON {
		_ = json.NewEncoder(env.stdout).Encode(res)
		return
	}
	purged := "projections purged"
	if !res.ProjectionsPurged {
		purged = fmt.Sprintf("projections purged when the space's projection reaches seq %d (a worker holds it now)", res.PurgeSeq)
	}
	fmt.Fprintf(env.stdout, "erased: space %s seq %d (erasure recorded at seq %d hash %s); %s; %d inferences deleted\n",
		res.SpaceID, res.Seq, res.ErasureSeq, res.ErasureHash, purged, res.InferencesDeleted)
}
