package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/migrations"
)

// benchResult is one scenario's measurement.
type benchResult struct {
	Scenario     string  `json:"scenario"`
	Events       int     `json:"events"`
	EventsPerSec float64 `json:"events_per_sec"`
	P50Ms        float64 `json:"p50_ms"`
	P95Ms        float64 `json:"p95_ms"`
}

// benchCmd: zaxy bench append [--events N] [--json]. It works in a scratch database created
// next to ZAXY_DATABASE_URL's (the role needs CREATEDB) and dropped afterwards.
func benchCmd(ctx context.Context, args []string, dbURL string, logger *slog.Logger, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "append" {
		fmt.Fprintln(stderr, "usage: zaxy bench append [--events N] [--json]")
		return 2
	}
	fs := flag.NewFlagSet("bench append", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("events", 4000, "events per scenario")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	results, err := benchAppend(ctx, dbURL, *n, logger)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy bench append: %v\n", err)
		return 1
	}
	if *asJSON {
		_ = json.NewEncoder(stdout).Encode(results)
		return 0
	}
	for _, r := range results {
		fmt.Fprintf(stdout, "%-40s %7d events %10.0f events/s  p50 %7.2f ms  p95 %7.2f ms\n", r.Scenario, r.Events, r.EventsPerSec, r.P50Ms, r.P95Ms)
	}
	return 0
}

func benchAppend(ctx context.Context, dbURL string, n int, logger *slog.Logger) ([]benchResult, error) {
	if dbURL == "" {
		return nil, fmt.Errorf("ZAXY_DATABASE_URL is not set")
	}
	scratch, drop, err := scratchDatabase(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer drop()
	cfg, err := pgxpool.ParseConfig(scratch)
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = 16
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	client, err := jobs.NewInsertOnlyClient(pool, logger)
	if err != nil {
		return nil, err
	}
	store := eventloom.NewStore(pool, jobs.NewOutbox(client), logger)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: api.NewHandler(api.Config{}, store, logger)}
	go srv.Serve(ln) //nolint:errcheck
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	httpc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}

	var results []benchResult
	httpOne := func(space string) error {
		resp, err := httpc.Post(base+"/v1/spaces/"+space+"/events", "application/json",
			strings.NewReader(`{"type":"message","content":"benchmark event with some words in it","data":{"role":"user"}}`))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != http.StatusCreated {
			return fmt.Errorf("append: HTTP %d", resp.StatusCode)
		}
		return nil
	}
	r, err := measure("http single event, 1 client", n, 1, 1, func(c, i int) error { return httpOne("http-1") })
	if err != nil {
		return nil, err
	}
	results = append(results, r)
	r, err = measure("http single event, 8 clients / 8 spaces", n, 8, 1, func(c, i int) error { return httpOne(fmt.Sprintf("http-8-%d", c)) })
	if err != nil {
		return nil, err
	}
	results = append(results, r)

	batch := make([]eventloom.NewEvent, 100)
	for i := range batch {
		batch[i] = eventloom.NewEvent{Type: "message", Content: "benchmark event with some words in it", Data: json.RawMessage(`{"role":"user"}`)}
	}
	r, err = measure("go api batches of 100 (chained)", n, 1, 100, func(c, i int) error {
		_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "batch", Events: batch})
		return err
	})
	if err != nil {
		return nil, err
	}
	results = append(results, r)

	if _, err := pool.Exec(ctx, `CREATE TABLE bench_plain_events (LIKE events INCLUDING DEFAULTS)`); err != nil {
		return nil, err
	}
	r, err = measure("plain table batches of 100 (unchained)", n, 1, 100, func(c, i int) error {
		return plainInsert(ctx, pool, batch, i)
	})
	if err != nil {
		return nil, err
	}
	results = append(results, r)

	start := time.Now()
	v, err := store.Verify(ctx, "batch")
	if err != nil {
		return nil, err
	}
	el := time.Since(start)
	results = append(results, benchResult{Scenario: "verify (go)", Events: int(v.Events), EventsPerSec: float64(v.Events) / el.Seconds(), P50Ms: ms(el), P95Ms: ms(el)})
	ratio := results[3].EventsPerSec / results[2].EventsPerSec
	results = append(results, benchResult{Scenario: fmt.Sprintf("chain overhead in batches: %.2fx", ratio)})
	return results, nil
}

func plainInsert(ctx context.Context, pool *pgxpool.Pool, batch []eventloom.NewEvent, i int) error {
	rows := make([][]any, len(batch))
	now := time.Now()
	for j, e := range batch {
		seq := int64(i*len(batch) + j + 1)
		rows[j] = []any{"plain", seq, e.Type, "", "", now, now, e.Content, string(e.Data), "{}", []byte(eventloom.ZeroHash), []byte(eventloom.ZeroHash)}
	}
	_, err := pool.CopyFrom(ctx, pgx.Identifier{"bench_plain_events"},
		[]string{"space_id", "seq", "type", "session_id", "actor", "occurred_at", "recorded_at", "content", "data", "cues", "prev_hash", "hash"},
		pgx.CopyFromRows(rows))
	return err
}

// measure runs ops operations of perOp events each across clients goroutines.
func measure(name string, events, clients, perOp int, op func(client, i int) error) (benchResult, error) {
	ops := events / perOp
	lat := make([]time.Duration, ops)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c; i < ops; i += clients {
				t0 := time.Now()
				if err := op(c, i); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
				lat[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	if firstErr != nil {
		return benchResult{}, fmt.Errorf("%s: %w", name, firstErr)
	}
	slices.Sort(lat)
	return benchResult{Scenario: name, Events: ops * perOp, EventsPerSec: float64(ops*perOp) / el.Seconds(),
		P50Ms: ms(lat[len(lat)/2]), P95Ms: ms(lat[len(lat)*95/100])}, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// scratchDatabase creates and migrates a throwaway database beside dbURL's.
func scratchDatabase(ctx context.Context, dbURL string) (string, func(), error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return "", nil, err
	}
	name := fmt.Sprintf("zaxy_bench_%d_%d", os.Getpid(), time.Now().Unix())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		conn.Close(ctx)
		return "", nil, fmt.Errorf("create scratch database (the role needs CREATEDB): %w", err)
	}
	drop := func() {
		_, _ = conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		conn.Close(context.Background())
	}
	u, err := url.Parse(dbURL)
	if err != nil {
		drop()
		return "", nil, err
	}
	u.Path = "/" + name
	if _, err := migrations.Up(ctx, u.String(), time.Minute); err != nil {
		drop()
		return "", nil, err
	}
	return u.String(), drop, nil
}
