package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/zaxy/zaxy/eventloom"
)

// appendCmd: zaxy append --space S --type T [--content C ...] appends one event; without
// --type it reads JSON lines (one event object per line) from stdin and appends them in
// all-or-nothing batches of --batch events.
func appendCmd(ctx context.Context, args []string, dbURL string, logger *slog.Logger, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("append", flag.ContinueOnError)
	fs.SetOutput(stderr)
	space := fs.String("space", "", "space to append to (required)")
	ev := eventloom.NewEvent{}
	fs.StringVar(&ev.Type, "type", "", "event type; without it, JSON lines are read from stdin")
	fs.StringVar(&ev.Content, "content", "", "event text")
	fs.StringVar(&ev.SessionID, "session", "", "session id")
	fs.StringVar(&ev.Actor, "actor", "", "actor")
	data := fs.String("data", "", "data JSON object")
	cues := fs.String("cues", "", "cues JSON object")
	occurred := fs.String("occurred-at", "", "RFC 3339 time it happened (default now)")
	key := fs.String("idempotency-key", "", "idempotency key (single event only)")
	batch := fs.Int("batch", 500, "events per batch when reading stdin")
	asJSON := fs.Bool("json", false, "print receipts as JSON lines")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "zaxy append: "+format+"\n", a...)
		return code
	}
	if *batch < 1 {
		return fail(2, "--batch must be at least 1")
	}
	if *data != "" {
		ev.Data = json.RawMessage(*data)
	}
	if *cues != "" {
		ev.Cues = json.RawMessage(*cues)
	}
	if *occurred != "" {
		t, err := time.Parse(time.RFC3339Nano, *occurred)
		if err != nil {
			return fail(2, "--occurred-at must be RFC 3339, got %q", *occurred)
		}
		ev.OccurredAt = &t
	}
	store, closeFn, err := openStore(ctx, dbURL, logger)
	if err != nil {
		return fail(2, "%v", err)
	}
	defer closeFn()
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	emit := func(res *eventloom.AppendResult) {
		for _, r := range res.Receipts {
			if *asJSON {
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
	if ev.Type != "" {
		// The CLI holds database credentials: it has admin rights (redaction.configured).
		res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: *space, Events: []eventloom.NewEvent{ev}, IdempotencyKey: *key, Admin: true})
		if err != nil {
			return fail(1, "%v", err)
		}
		emit(res)
		return 0
	}
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var pending []eventloom.NewEvent
	line := 0
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: *space, Events: pending, Admin: true})
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
			err = e.Validate(fmt.Sprintf("line %d: ", line))
		}
		if err != nil {
			return fail(1, "%v (nothing from this batch was appended)", err)
		}
		pending = append(pending, e)
		if len(pending) == *batch {
			if err := flush(); err != nil {
				return fail(1, "%v", err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fail(1, "read stdin: %v", err)
	}
	if err := flush(); err != nil {
		return fail(1, "%v", err)
	}
	return 0
}
