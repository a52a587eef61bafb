package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/review"
)

// reviewListCmd: zaxy review list --space S [--status pending|accepted|rejected|deferred|open]
// [--after-seq N] [--limit N] [--json]. Lists proposals from the projection.
type reviewListCmd struct {
	space, status string
	afterSeq      int64
	limit         int
	asJSON        bool
}

func (c *reviewListCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", cfg.space, "space (default $ZAXY_SPACE)")
	fs.StringVar(&c.status, "status", review.StatusOpen, "pending, accepted, rejected, deferred, open (pending and deferred) or all")
	fs.Int64Var(&c.afterSeq, "after-seq", 0, "cursor: only proposals after this seq")
	fs.IntVar(&c.limit, "limit", 100, "page size, 1-1000")
	fs.BoolVar(&c.asJSON, "json", false, "print the page as JSON")
}

func (c *reviewListCmd) validate(args []string) error {
	if c.space == "" {
		return errors.New("--space is required (or set ZAXY_SPACE)")
	}
	if c.status == "all" {
		c.status = ""
	}
	return noArgs(args)
}

func (c *reviewListCmd) run(ctx context.Context, env *env) error {
	page, err := review.List(ctx, env.pool, review.ListParams{SpaceID: c.space, Status: c.status, AfterSeq: c.afterSeq, Limit: c.limit})
	if err != nil {
		return invalidIf(err)
	}
	return c.print(env, page)
}

func (c *reviewListCmd) runRemote(ctx context.Context, env *env) error {
	limit := int64(c.limit)
	page, err := env.api.ListProposals(ctx, c.space, &client.ProposalsParams{Status: c.status, AfterSeq: c.afterSeq, Limit: &limit})
	if err != nil {
		return err
	}
	return c.print(env, page)
}

// print writes one line per proposal, or the page as JSON.
func (c *reviewListCmd) print(env *env, page *review.Page) error {
	if c.asJSON {
		return json.NewEncoder(env.stdout).Encode(page)
	}
	for _, p := range page.Proposals {
		what := p.Kind
		if len(p.Fact) > 0 {
			what += " " + string(p.Fact)
		}
		seqs := make([]string, len(p.Evidence))
		for i, ev := range p.Evidence {
			seqs[i] = strconv.FormatInt(ev.Seq, 10)
		}
		line := fmt.Sprintf("%d\t%s\t%s\tevidence %s", p.Seq, p.Status, what, strings.Join(seqs, ","))
		if p.Contradicts != nil {
			line += "\tcontradicts fact:" + *p.Contradicts
		}
		fmt.Fprintln(env.stdout, line)
	}
	if page.NextAfterSeq != nil {
		fmt.Fprintf(env.stderr, "more: --after-seq %d\n", *page.NextAfterSeq)
	}
	return nil
}

// reviewDecideCmd: zaxy review accept|reject|defer --space S SEQ [--reason R] [--actor A]
// [--json]. Appends the decision (and, accepting a belief_update, its fact).
type reviewDecideCmd struct {
	decision             string
	space, reason, actor string
	seq                  int64
	asJSON               bool
}

func (c *reviewDecideCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", cfg.space, "space (default $ZAXY_SPACE)")
	fs.StringVar(&c.reason, "reason", "", "why, recorded in the decision event")
	fs.StringVar(&c.actor, "actor", "cli", "who decides (the event's actor)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *reviewDecideCmd) validate(args []string) error {
	if c.space == "" {
		return errors.New("--space is required (or set ZAXY_SPACE)")
	}
	if len(args) != 1 {
		return errors.New("want exactly one proposal SEQ (zaxy review list)")
	}
	seq, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil || seq < 1 {
		return fmt.Errorf("SEQ must be a positive integer, got %q", args[0])
	}
	c.seq = seq
	return nil
}

func (c *reviewDecideCmd) run(ctx context.Context, env *env) error {
	d, err := review.NewDecider(env.pool, env.store).Decide(ctx, review.DecideParams{
		SpaceID: c.space, ProposalSeq: c.seq, Decision: c.decision, Actor: c.actor, Reason: c.reason})
	if err != nil { // an unknown or decided proposal exits 1, a bad flag 2
		return invalidIf(err)
	}
	return c.print(env, d)
}

func (c *reviewDecideCmd) runRemote(ctx context.Context, env *env) error {
	r := &client.DecisionRequest{Reason: c.reason, Actor: c.actor}
	decide := map[string]func(context.Context, string, int64, *client.DecisionRequest, ...client.CallOption) (*review.Decision, error){
		review.DecisionAccept: env.api.AcceptProposal, review.DecisionReject: env.api.RejectProposal, review.DecisionDefer: env.api.DeferProposal,
	}[c.decision]
	d, err := decide(ctx, c.space, c.seq, r)
	if err != nil {
		return err
	}
	return c.print(env, d)
}

// print writes the decision and the seqs it appended, or the decision as JSON.
func (c *reviewDecideCmd) print(env *env, d *review.Decision) error {
	if c.asJSON {
		return json.NewEncoder(env.stdout).Encode(d)
	}
	seqs := make([]string, len(d.Events))
	for i, r := range d.Events {
		seqs[i] = strconv.FormatInt(r.Seq, 10)
	}
	fmt.Fprintf(env.stdout, "proposal %d %s (appended seq %s)\n", d.ProposalSeq, d.Status, strings.Join(seqs, ", "))
	return nil
}
