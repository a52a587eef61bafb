package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/eventloom"
)

// appendCmd: zaxy append --space S --type T [--content C ...] appends one event; without
// --type it reads JSON lines (one event object per line) from stdin and appends them in
// all-or-nothing batches of --batch events (bulk.go), then prints a summary.
type appendCmd struct {
	space, data, cues, occurred, key string
	ev                               eventloom.NewEvent
	batch                            int
	asJSON                           bool
	bulk                             bulkOptions
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
	fs.StringVar(&c.bulk.prefix, "idempotency-prefix", "", "stdin: the batch starting at line n is sent with Idempotency-Key P-n, so running the same input again (with the same --batch) appends nothing")
	fs.BoolVar(&c.bulk.receipts, "receipts", false, "stdin: print every event's receipt instead of a summary")
	fs.BoolVar(&c.bulk.waitProjected, "wait-projected", false, "return once the projection has reached the last appended seq")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON: the receipts as JSON lines, or the stdin summary as one object")
}

func (c *appendCmd) validate(args []string) error {
	if c.batch < 1 {
		return errors.New("--batch must be at least 1")
	}
	if c.space == "" {
		return errNeedsSpace
	}
	if c.ev.Type != "" && (c.bulk.prefix != "" || c.bulk.receipts) {
		return errors.New("--idempotency-prefix and --receipts are for JSON lines on stdin; with --type use --idempotency-key")
	}
	if c.ev.Type == "" && c.key != "" {
		return errors.New("--idempotency-key is for one event (--type); for JSON lines on stdin use --idempotency-prefix")
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

// appendFunc appends one all-or-nothing batch under an idempotency key ("" for none).
type appendFunc func(ctx context.Context, events []eventloom.NewEvent, key string) (*eventloom.AppendResult, error)

func (c *appendCmd) run(ctx context.Context, env *env) error {
	return c.append(ctx, env, func(ctx context.Context, events []eventloom.NewEvent, key string) (*eventloom.AppendResult, error) {
		// The CLI holds database credentials: it has admin rights (redaction.configured).
		res, err := env.store.Append(ctx, &eventloom.AppendParams{SpaceID: c.space, Events: events, IdempotencyKey: key, Admin: true})
		return res, invalidIf(err)
	})
}

func (c *appendCmd) runRemote(ctx context.Context, env *env) error {
	return c.append(ctx, env, func(ctx context.Context, events []eventloom.NewEvent, key string) (*eventloom.AppendResult, error) {
		var opts []client.CallOption
		if key != "" {
			opts = append(opts, client.WithIdempotencyKey(key))
		}
		return env.api.AppendEvents(ctx, c.space, events, opts...)
	})
}

// append appends the one event of the flags, or stdin's JSON lines, through add.
func (c *appendCmd) append(ctx context.Context, env *env, add appendFunc) error {
	out := bufio.NewWriter(env.stdout)
	defer out.Flush()
	if c.ev.Type == "" {
		sum, err := c.bulk.run(ctx, env, out, add, c.batch, c.asJSON)
		if err != nil || !c.bulk.waitProjected || sum.LastSeq == 0 {
			return err
		}
		out.Flush()
		return waitProjected(ctx, env, c.space, sum.LastSeq)
	}
	res, err := add(ctx, []eventloom.NewEvent{c.ev}, c.key)
	if err != nil {
		return err
	}
	printReceipts(out, env.stderr, res, c.asJSON)
	if !c.bulk.waitProjected {
		return nil
	}
	out.Flush()
	return waitProjected(ctx, env, c.space, res.Receipts[len(res.Receipts)-1].Seq)
}

// printReceipts writes one line per receipt ("seq N hash H", or JSON) and a note on stderr
// when secrets were redacted.
func printReceipts(out, stderr io.Writer, res *eventloom.AppendResult, asJSON bool) {
	for _, r := range res.Receipts {
		if asJSON {
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

// batchKey is the idempotency key of the batch whose first event is at line.
func batchKey(prefix string, line int) string {
	if prefix == "" {
		return ""
	}
	return prefix + "-" + strconv.Itoa(line)
}
