package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
)

// openStore connects a Store with a River insert-only outbox.
func openStore(ctx context.Context, dbURL string, logger *slog.Logger) (*eventloom.Store, func(), error) {
	_, store, closeFn, err := openPoolStore(ctx, dbURL, logger)
	return store, closeFn, err
}

// openPoolStore is openStore for commands that also run other packages' reads and writes: it
// returns the pool the store is built on, which those packages take as their executor.
func openPoolStore(ctx context.Context, dbURL string, logger *slog.Logger) (*pgxpool.Pool, *eventloom.Store, func(), error) {
	if dbURL == "" {
		return nil, nil, nil, errors.New("ZAXY_DATABASE_URL is not set (run 'make db' to get one)")
	}
	pool, err := newPool(ctx, dbURL)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("open database: %w", err)
	}
	client, err := jobs.NewInsertOnlyClient(pool, logger)
	if err != nil {
		pool.Close()
		return nil, nil, nil, err
	}
	return pool, eventloom.NewStore(pool, jobs.NewOutbox(client), logger), pool.Close, nil
}

// verifyCmd: zaxy verify --space S [--method go|sql] [--json]; exit 1 on a broken chain.
func verifyCmd(ctx context.Context, args []string, dbURL string, logger *slog.Logger, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	space := fs.String("space", "", "space to verify (required)")
	method := fs.String("method", "go", "go (recompute in this process) or sql (zaxy_verify in Postgres)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	store, closeFn, err := openStore(ctx, dbURL, logger)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy verify: %v\n", err)
		return 2
	}
	defer closeFn()
	res, err := store.VerifyWith(ctx, *space, *method)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy verify: %v\n", err)
		return 2
	}
	if *asJSON {
		_ = json.NewEncoder(stdout).Encode(res)
	} else if res.OK {
		fmt.Fprintf(stdout, "ok: space %s, %d events, head seq %d hash %s\n", res.SpaceID, res.Events, res.HeadSeq, res.HeadHash)
	} else {
		fmt.Fprintf(stdout, "BROKEN at seq %d: %s (space %s, %d events)\n", res.BrokenSeq, res.Reason, res.SpaceID, res.Events)
	}
	if !res.OK {
		return 1
	}
	return 0
}

// replayCmd: zaxy replay --space S [--session X] [--after-seq N] [--until-seq N]
// [--recorded-before T]; prints JSON lines.
func replayCmd(ctx context.Context, args []string, dbURL string, logger *slog.Logger, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	p := eventloom.ReplayParams{}
	fs.StringVar(&p.SpaceID, "space", "", "space to replay (required)")
	fs.StringVar(&p.SessionID, "session", "", "only this session's events")
	fs.Int64Var(&p.AfterSeq, "after-seq", 0, "start after this seq")
	fs.Int64Var(&p.UntilSeq, "until-seq", 0, "stop at this seq (0 = the end)")
	before := fs.String("recorded-before", "", "only events recorded at or before this RFC 3339 time")
	fs.Bool("json", true, "JSON lines (always)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *before != "" {
		t, err := time.Parse(time.RFC3339Nano, *before)
		if err != nil {
			fmt.Fprintf(stderr, "zaxy replay: --recorded-before must be RFC 3339, got %q\n", *before)
			return 2
		}
		p.RecordedBefore = &t
	}
	store, closeFn, err := openStore(ctx, dbURL, logger)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy replay: %v\n", err)
		return 2
	}
	defer closeFn()
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := store.ReplayAll(ctx, p, func(e *eventloom.Event) error { return enc.Encode(e) }); err != nil {
		fmt.Fprintf(stderr, "zaxy replay: %v\n", err)
		return 1
	}
	return 0
}
