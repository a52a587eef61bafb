package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
)

// bulkOptions are zaxy append's flags for JSON lines on stdin.
type bulkOptions struct {
	// prefix keys each batch (batchKey): a re-run of the same input appends nothing.
	prefix string
	// receipts prints every receipt instead of the summary.
	receipts bool
	// waitProjected waits for the projection to reach the last appended seq.
	waitProjected bool
}

// bulkSummary is what a bulk append did, printed at its end.
type bulkSummary struct {
	// Appended counts the events this run appended; AlreadyPresent those a batch's
	// idempotency key found appended by an earlier run.
	Appended       int `json:"appended"`
	AlreadyPresent int `json:"already_present"`
	Batches        int `json:"batches"`
	// FirstSeq and LastSeq are the seq range of every event of the input, appended now or
	// before (0 when the input held none).
	FirstSeq   int64 `json:"first_seq"`
	LastSeq    int64 `json:"last_seq"`
	Redactions int   `json:"redactions"`
}

// run reads JSON lines from env.stdin and appends them through add in batches of size,
// reporting progress on a terminal and printing the receipts or the summary.
func (o *bulkOptions) run(ctx context.Context, env *env, out io.Writer, add appendFunc, size int, asJSON bool) (*bulkSummary, error) {
	sum := &bulkSummary{}
	progress := newProgress(env.stderr)
	sc := bufio.NewScanner(env.stdin)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var pending []eventloom.NewEvent
	line, first := 0, 0
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		res, err := add(ctx, pending, batchKey(o.prefix, first))
		if err != nil {
			progress.done()
			if sum.Batches > 0 {
				return fmt.Errorf("lines %d-%d: %w (the %d batches before them were appended; with --idempotency-prefix a re-run appends only what is missing)", first, line, err, sum.Batches)
			}
			return fmt.Errorf("lines %d-%d: %w", first, line, err)
		}
		sum.add(res)
		if o.receipts {
			progress.clear()
			printReceipts(out, env.stderr, res, asJSON)
		}
		progress.show("zaxy append: %d events (line %d, seq %d)", sum.Appended+sum.AlreadyPresent, line, sum.LastSeq)
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
			progress.done()
			return nil, invalid(fmt.Errorf("%w (nothing from this batch was appended)", err))
		}
		if len(pending) == 0 {
			first = line
		}
		pending = append(pending, e)
		if len(pending) == size {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		progress.done()
		return nil, fmt.Errorf("read stdin: %w", err)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	progress.done()
	if !o.receipts {
		sum.print(out, env.stderr, asJSON)
	}
	return sum, nil
}

// add counts one batch's result.
func (s *bulkSummary) add(res *eventloom.AppendResult) {
	s.Batches++
	n := len(res.Receipts)
	if res.Replayed {
		s.AlreadyPresent += n
	} else {
		s.Appended += n
	}
	s.Redactions += res.Redactions
	for _, r := range res.Receipts {
		if s.FirstSeq == 0 || r.Seq < s.FirstSeq {
			s.FirstSeq = r.Seq
		}
		s.LastSeq = max(s.LastSeq, r.Seq)
	}
}

// print writes the summary: one line, or one JSON object.
func (s *bulkSummary) print(out, stderr io.Writer, asJSON bool) {
	if asJSON {
		_ = json.NewEncoder(out).Encode(s)
		return
	}
	line := fmt.Sprintf("appended %d, already present %d", s.Appended, s.AlreadyPresent)
	if s.LastSeq > 0 {
		line += fmt.Sprintf(", seq %d-%d", s.FirstSeq, s.LastSeq)
	}
	fmt.Fprintf(out, "%s (%d batches)\n", line, s.Batches)
	if s.Redactions > 0 {
		fmt.Fprintf(stderr, "zaxy append: %d secrets were replaced with [REDACTED:<kind>] (docs/redaction.md)\n", s.Redactions)
	}
}

// waitProjected returns once space's projection has applied seq, polling the server's
// GET /projection (or the database); on a terminal it shows the projection's progress.
func waitProjected(ctx context.Context, env *env, space string, seq int64) error {
	progress := newProgress(env.stderr)
	defer progress.done()
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		projected, err := projectedSeq(ctx, env, space)
		if err != nil {
			return fmt.Errorf("wait for projection: %w", err)
		}
		if projected >= seq {
			return nil
		}
		progress.show("zaxy append: waiting for the projection: seq %d of %d", projected, seq)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("wait for projection to reach seq %d (at %d): %w", seq, projected, ctx.Err())
		case <-t.C:
		}
	}
}

// projectedSeq is how far space's projection has applied its log.
func projectedSeq(ctx context.Context, env *env, space string) (int64, error) {
	if env.api != nil {
		st, err := env.api.Projection(ctx, space)
		if err != nil {
			return 0, err
		}
		return st.ProjectedSeq, nil
	}
	st, err := projection.Lag(ctx, env.pool, space)
	if err != nil || len(st) == 0 {
		return 0, err
	}
	return st[0].ProjectedSeq, nil
}

// progress is a one-line status rewritten in place on a terminal, and nothing elsewhere (a
// pipe or a file gets only the final output).
type progress struct {
	w    io.Writer
	tty  bool
	last time.Time
	used bool
}

// newProgress returns a progress line on w, live only when w is a terminal.
func newProgress(w io.Writer) *progress {
	return &progress{w: w, tty: isTerminal(w)}
}

// show rewrites the line, at most ten times a second.
func (p *progress) show(format string, args ...any) {
	if !p.tty || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.used = time.Now(), true
	fmt.Fprintf(p.w, "\r\033[K"+format, args...)
}

// clear erases the line so that other output can follow.
func (p *progress) clear() {
	if p.used {
		fmt.Fprint(p.w, "\r\033[K")
		p.last = time.Time{}
	}
}

// done erases the line for good.
func (p *progress) done() {
	p.clear()
	p.used = false
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
