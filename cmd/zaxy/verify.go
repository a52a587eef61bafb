package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/eventloom"
)

// verifyCmd: zaxy verify --space S [--method go|sql] [--json]; exit 1 on a broken chain.
type verifyCmd struct {
	space, method string
	asJSON        bool
}

func (c *verifyCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.space, "space", "", "space to verify (required)")
	fs.StringVar(&c.method, "method", "go", "go (recompute in this process) or sql (zaxy_verify in Postgres)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *verifyCmd) validate(args []string) error {
	if c.space == "" {
		return errNeedsSpace
	}
	return noArgs(args)
}

func (c *verifyCmd) run(ctx context.Context, env *env) error {
	res, err := env.store.VerifyWith(ctx, c.space, c.method)
	if err != nil {
		return invalid(err)
	}
	return c.print(env, res)
}

func (c *verifyCmd) runRemote(ctx context.Context, env *env) error {
	res, err := env.api.Verify(ctx, c.space, c.method)
	if err != nil {
		return err
	}
	return c.print(env, res)
}

// print writes the result and exits 1 on a broken chain.
func (c *verifyCmd) print(env *env, res *eventloom.VerifyResult) error {
	if c.asJSON {
		_ = json.NewEncoder(env.stdout).Encode(res)
	} else if res.OK {
		fmt.Fprintf(env.stdout, "ok: space %s, %d events, head seq %d hash %s\n", res.SpaceID, res.Events, res.HeadSeq, res.HeadHash)
	} else {
		fmt.Fprintf(env.stdout, "BROKEN at seq %d: %s (space %s, %d events)\n", res.BrokenSeq, res.Reason, res.SpaceID, res.Events)
	}
	if !res.OK {
		return errFailed
	}
	return nil
}

// replayCmd: zaxy replay --space S [--session X] [--after-seq N] [--until-seq N]
// [--recorded-before T]; prints JSON lines.
type replayCmd struct {
	p      eventloom.ReplayParams
	before string
}

func (c *replayCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.p.SpaceID, "space", "", "space to replay (required)")
	fs.StringVar(&c.p.SessionID, "session", "", "only this session's events")
	fs.Int64Var(&c.p.AfterSeq, "after-seq", 0, "start after this seq")
	fs.Int64Var(&c.p.UntilSeq, "until-seq", 0, "stop at this seq (0 = the end)")
	fs.StringVar(&c.before, "recorded-before", "", "only events recorded at or before this RFC 3339 time")
	fs.Bool("json", true, "JSON lines (always)")
}

func (c *replayCmd) validate(args []string) error {
	if c.p.SpaceID == "" {
		return errNeedsSpace
	}
	if c.before != "" {
		t, err := time.Parse(time.RFC3339Nano, c.before)
		if err != nil {
			return fmt.Errorf("--recorded-before must be RFC 3339, got %q", c.before)
		}
		c.p.RecordedBefore = &t
	}
	return noArgs(args)
}

func (c *replayCmd) run(ctx context.Context, env *env) error {
	w := bufio.NewWriter(env.stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return env.store.ReplayAll(ctx, c.p, func(e *eventloom.Event) error { return enc.Encode(e) })
}

// runRemote pages through GET /events until the last page.
func (c *replayCmd) runRemote(ctx context.Context, env *env) error {
	w := bufio.NewWriter(env.stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	p := client.ReplayParams{SessionID: c.p.SessionID, AfterSeq: c.p.AfterSeq, UntilSeq: c.p.UntilSeq, RecordedBefore: c.p.RecordedBefore, Limit: 1000}
	for {
		page, err := env.api.ReplayEvents(ctx, c.p.SpaceID, &p)
		if err != nil {
			return err
		}
		for i := range page.Events {
			if err := enc.Encode(&page.Events[i]); err != nil {
				return err
			}
		}
		if page.NextAfterSeq == 0 {
			return nil
		}
		p.AfterSeq = page.NextAfterSeq
	}
}

// noArgs refuses positional arguments where a command takes none.
func noArgs(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected argument %q", args[0])
	}
	return nil
}

// errNeedsSpace is the validate error of a command whose --space is missing.
var errNeedsSpace = errors.New("--space is required")
