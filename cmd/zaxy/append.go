package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/zaxy/zaxy/eventloom"
)

// appendCmd: zaxy append --space S --type T [--content C ...] appends one event; without
// --type it reads JSON lines (one event object per line) from stdin and appends them in
// all-or-nothing batches of --batch events.
type appendCmd struct {
	space, data, cues, occurred, key string
	ev                               eventloom.NewEvent
	batch                            int
	asJSON                           bool
}

func (c *appendCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.space, "space", "", "space to append to (required)")
	fs.StringVar(&c.ev.Type, "type", "", "event type; without it, JSON lines are read from stdin")
	fs.StringVar(&c.ev.Content, "content", "", "event text")
	fs.StringVar(&c.ev.SessionID, "session", "", "session id")
	fs.StringVar(&c.ev.Actor, "actor", "", "actor")
	fs.StringVar(&c.data, "data", "", "data JSON object")
	fs.StringVar(&c.cues, "cues", "", "cues JSON object")
	fs.StringVar(&c.occurred, "occurred-at", "", "RFC 3339 time it happened (default now)")
	fs.StringVar(&c.key, "idempotency-key", "", "idempotency key (single event only)")
	fs.IntVar(&c.batch, "batch", 500, "events per batch when reading stdin")
	fs.BoolVar(&c.asJSON, "json", false, "print receipts as JSON lines")
}

func (c *appendCmd) validate(args []string) error {
	if c.batch < 1 {
		return errors.New("--batch must be at least 1")
	}
	if c.data != "" {
		c.ev.Data = json.RawMessage(c.data)
	}
	if c.cues != "" {
		c.ev.Cues = json.RawMessage(c.cues)
	}
	if c.occurred != "" {
		t, err := time.Parse(time.RFC3339Nano, c.occurred)
		if err != nil {
			return fmt.Errorf("--occurred-at must be RFC 3339, got %q", c.occurred)
		}
		c.ev.OccurredAt = &t
	}
	return noArgs(args)
}

func (c *appendCmd) run(ctx context.Context, env *env) error {
	store, stderr := env.store, env.stderr
	out := bufio.NewWriter(env.stdout)
	defer out.Flush()
	emit := func(res *eventloom.AppendResult) {
		for _, r := range res.Receipts {
			if c.asJSON {
				b, _ := json.Marshal(r)
				fmt.Fprintf(out, "%s\n", b)
			} else {
				fmt.Fprintf(out, "seq %d hash %s\n", r.Seq, r.Hash)
			}
		}
		if res.Redactions > 0 {
			fmt.Fprintf(stderr, "zaxy append: %d secrets were replaced with [REDACTED:<kind>] (docs/redaction.md)\n", res.Redactions)
		}
	}
	if c.ev.Type != "" {
		// The CLI holds database credentials: it has admin rights (redaction.configured).
		res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: c.space, Events: []eventloom.NewEvent{c.ev}, IdempotencyKey: c.key, Admin: true})
		if err != nil {
			return err
		}
		emit(res)
		return nil
	}
	sc := bufio.NewScanner(env.stdin)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var pending []eventloom.NewEvent
	line := 0
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: c.space, Events: pending, Admin: true})
		if err != nil {
			return err
		}
		emit(res)
		pending = pending[:0]
		return nil
	}
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		e, err := eventloom.DecodeEvent(append([]byte(nil), sc.Bytes()...), fmt.Sprintf("line %d: ", line))
		if err == nil {
			err = eventloom.ValidateEvent(&e, fmt.Sprintf("line %d: ", line))
		}
		if err != nil {
			return fmt.Errorf("%w (nothing from this batch was appended)", err)
		}
		pending = append(pending, e)
		if len(pending) == c.batch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read stdin: %w", err)
	}
	return flush()
}
