package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"github.com/zaxy/zaxy/checkout/checkoutwire"
	"github.com/zaxy/zaxy/policy"
)

// policyProposeCmd: zaxy policy propose --space S --ppr-weight W [--purpose P] [--actor A]
// [--json]. Proposes the space's current policy with the personalized PageRank lane weighed W
// (policy.ProposePPRWeight); zaxy policy promote makes it current through the gate.
type policyProposeCmd struct {
	space, actor, purpose string
	pprWeight             float64
	asJSON                bool
}

func (c *policyProposeCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", cfg.space, "space (default $ZAXY_SPACE)")
	fs.StringVar(&c.actor, "actor", "cli", "who proposes (the event's actor)")
	fs.StringVar(&c.purpose, "purpose", "", "the purpose whose weight is set (default general, which every purpose without its own takes)")
	fs.Float64Var(&c.pprWeight, "ppr-weight", -1, "fusion weight of the personalized PageRank lane, 0-5 (0: off)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *policyProposeCmd) validate(args []string) error {
	switch {
	case c.space == "":
		return errors.New("--space is required (or set ZAXY_SPACE)")
	case c.pprWeight == -1:
		return errors.New("--ppr-weight is required")
	case !(c.pprWeight >= 0 && c.pprWeight <= checkoutwire.MaxPPRWeight):
		return fmt.Errorf("--ppr-weight must be between 0 and 5, got %g", c.pprWeight)
	}
	return noArgs(args)
}

func (c *policyProposeCmd) run(ctx context.Context, env *env) error {
	res, err := policy.New(env.pool, env.store).ProposePPRWeight(ctx, c.space, c.actor, c.purpose, c.pprWeight)
	if err != nil {
		return invalidIf(err)
	}
	if c.asJSON {
		return json.NewEncoder(env.stdout).Encode(res)
	}
	fmt.Fprintf(env.stdout, "proposed %s from %s: %s weighed %g (zaxy policy promote --space %s %s)\n",
		res.Version, res.Base, res.Diagnostics.Changed[0], c.pprWeight, c.space, res.Version)
	if res.Seq == 0 {
		fmt.Fprintln(env.stdout, "(proposed before: nothing appended)")
	}
	return nil
}
