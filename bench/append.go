package bench

import (
	"context"
	"encoding/json"
	"errors"
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
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/migrations"
	zsql "github.com/zaxy/zaxy/sql"
)

// Benchmark scenario names; ratios refer to them.
const (
	scHTTP1        = "http single event, 1 client"
	scHTTP8        = "http single event, 8 clients / 8 spaces"
	scGo8          = "go api single event, 8 clients / 8 spaces"
	scGoBatch      = "go api batches of 100 (chained, outbox)"
	scGoBatchNoJob = "go api batches of 100 (chained, no outbox)"
	scSQLChained   = "INSERT..unnest batches of 100 (chained)"
	scSQLPlain     = "INSERT..unnest batches of 100 (unchained)"
	scVerify       = "verify (go)"
)

// benchPlainTable is the trigger-less copy of events the unchained scenario writes (scratch
// database only): the same columns, defaults, checks and primary key.
const benchPlainTable = `CREATE TABLE bench_plain_events (LIKE events INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
  PRIMARY KEY (space_id, seq))`

// AppendResult is one scenario's measurement over all runs.
type AppendResult struct {
	Scenario string `json:"scenario"`
	// Events is the number of events per run.
	Events int `json:"events"`
	// EventsPerSec is the median over the runs; Min and Max bound it.
	EventsPerSec    float64 `json:"events_per_sec"`
	EventsPerSecMin float64 `json:"events_per_sec_min"`
	EventsPerSecMax float64 `json:"events_per_sec_max"`
	// P50Ms and P95Ms are per-operation latencies pooled over the runs.
	P50Ms float64 `json:"p50_ms"`
	P95Ms float64 `json:"p95_ms"`

	rates []float64
	lat   []time.Duration
}

// AppendRatio is events/s of Faster divided by events/s of Slower, computed within each run
// (the two scenarios run back to back) and summarized over the runs.
type AppendRatio struct {
	Name   string  `json:"name"`
	Faster string  `json:"faster"`
	Slower string  `json:"slower"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// AppendReport is what Append measured (zaxy bench append prints it, as JSON with --json).
type AppendReport struct {
	Runs              int             `json:"runs"`
	PoolSize          int             `json:"pool_size"`
	SynchronousCommit string          `json:"synchronous_commit"`
	LoadBefore        string          `json:"load_before"`
	LoadAfter         string          `json:"load_after"`
	Scenarios         []*AppendResult `json:"scenarios"`
	Ratios            []AppendRatio   `json:"ratios"`
}

// AppendOptions configures Append (zaxy bench append's flags).
type AppendOptions struct {
	// Events is the number of events per scenario and run; at least 800.
	Events int
	// Runs is how many times every scenario runs (reported as median and range); at least 1.
	Runs int
	// PoolSize is the database pool's size; at least 1.
	PoolSize int
	// SyncCommitOff runs with synchronous_commit=off (not durable; for reports only).
	SyncCommitOff bool
	// Only, when set, keeps only the scenarios whose names contain it (ratios need both sides).
	Only string
	// Logger receives the store's and the outbox's logs.
	Logger *slog.Logger
	// API returns the HTTP API the HTTP scenarios append through, served by pool and store
	// (the scratch database's); zaxy bench append builds it with zaxy's composition root.
	// Required.
	API func(ctx context.Context, pool *pgxpool.Pool, store *eventloom.Store) (http.Handler, error)
}

// Validate names the first option out of range.
func (o AppendOptions) Validate() error {
	switch {
	case o.Events < 800:
		return fmt.Errorf("Events must be at least 800, got %d", o.Events)
	case o.Runs < 1:
		return fmt.Errorf("Runs must be at least 1, got %d", o.Runs)
	case o.PoolSize < 1:
		return fmt.Errorf("PoolSize must be at least 1, got %d", o.PoolSize)
	case o.API == nil:
		return errors.New("API is required")
	}
	return nil
}

// Append measures append throughput and latency (HTTP with 1 and 8 clients, the Go API,
// batches with and without the outbox, the bare INSERT chained and unchained, verify) in a
// scratch database created beside dbURL's (the role needs CREATEDB) and dropped afterwards.
func Append(ctx context.Context, dbURL string, o AppendOptions) (*AppendReport, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if dbURL == "" {
		return nil, errors.New("no database URL to create the scratch database beside")
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
	cfg.MaxConns = int32(o.PoolSize)
	rep := &AppendReport{Runs: o.Runs, PoolSize: o.PoolSize, SynchronousCommit: "on", LoadBefore: loadAverage()}
	if o.SyncCommitOff {
		cfg.ConnConfig.RuntimeParams["synchronous_commit"] = "off"
		rep.SynchronousCommit = "off"
	}
	pgexec.Configure(cfg)
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
	bare := eventloom.NewStore(pool, nil, logger)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	apiHandler, err := o.API(ctx, pool, store)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: apiHandler, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) //nolint:errcheck
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	httpc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	if _, err := pool.Exec(ctx, benchPlainTable); err != nil {
		return nil, fmt.Errorf("create plain table: %w", err)
	}

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
	one := []eventloom.NewEvent{{Type: "message", Content: "benchmark event with some words in it", Data: json.RawMessage(`{"role":"user"}`)}}
	batch := make([]eventloom.NewEvent, 100)
	for i := range batch {
		batch[i] = one[0]
	}
	var plainSeq atomic.Int64
	type scenario struct {
		name           string
		clients, perOp int
		op             func(client, i int) error
		// interleave: run batch by batch alternating with the next scenario (one client
		// each), so both see the same load on the machine and their ratio is fair.
		interleave bool
	}
	scenarios := []scenario{
		{scHTTP1, 1, 1, func(c, i int) error { return httpOne("http-1") }, false},
		{scHTTP8, 8, 1, func(c, i int) error { return httpOne(fmt.Sprintf("http-8-%d", c)) }, false},
		{scGo8, 8, 1, func(c, i int) error {
			_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: fmt.Sprintf("go-8-%d", c), Events: one})
			return err
		}, false},
		{scGoBatch, 1, 100, func(c, i int) error {
			_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "batch", Events: batch})
			return err
		}, true},
		{scGoBatchNoJob, 1, 100, func(c, i int) error {
			_, err := bare.Append(ctx, &eventloom.AppendParams{SpaceID: "batch-nojob", Events: batch})
			return err
		}, false},
		// The next two differ only in the table (and the client-side seq and hashes).
		{scSQLChained, 1, 100, func(c, i int) error {
			return sqlInsertBatch(ctx, pool, newBatchArgs("sql", batch), queryChainedAppend)
		}, true},
		{scSQLPlain, 1, 100, func(c, i int) error {
			first := plainSeq.Add(int64(len(batch))) - int64(len(batch))
			return sqlInsertBatch(ctx, pool, newBatchArgs("plain", batch), func(ctx context.Context, tx pgx.Tx, a batchArgs) (pgx.Rows, error) {
				return queryPlainAppend(ctx, tx, plainAppendArgs{batchArgs: a, FirstSeq: first, Hash: []byte(eventloom.ZeroHash)})
			})
		}, false},
	}
	if o.Only != "" {
		scenarios = slices.DeleteFunc(scenarios, func(s scenario) bool { return !strings.Contains(s.name, o.Only) })
	}
	results := make(map[string]*AppendResult)
	for _, s := range scenarios {
		rep.Scenarios = append(rep.Scenarios, &AppendResult{Scenario: s.name, Events: o.Events / s.perOp * s.perOp})
		results[s.name] = rep.Scenarios[len(rep.Scenarios)-1]
	}
	// Verify reads the chain the Go batch scenario wrote.
	if results[scGoBatch] != nil {
		rep.Scenarios = append(rep.Scenarios, &AppendResult{Scenario: scVerify})
		results[scVerify] = rep.Scenarios[len(rep.Scenarios)-1]
	}
	ratios := []AppendRatio{
		{Name: "chain overhead (same INSERT, batches of 100)", Faster: scSQLPlain, Slower: scSQLChained},
		{Name: "API path vs unchained INSERT", Faster: scSQLPlain, Slower: scGoBatch},
		{Name: "outbox cost (no outbox vs outbox)", Faster: scGoBatchNoJob, Slower: scGoBatch},
		{Name: "HTTP 8 clients vs 1 client", Faster: scHTTP8, Slower: scHTTP1},
	}
	perRun := make([][]float64, len(ratios))
	for run := 0; run < o.Runs; run++ {
		for i := 0; i < len(scenarios); i++ {
			s := scenarios[i]
			if s.interleave && i+1 < len(scenarios) {
				t := scenarios[i+1]
				rs, lat, err := measureInterleaved(o.Events/s.perOp, s.perOp, s.op, t.op)
				if err != nil {
					return nil, fmt.Errorf("%s / %s: %w", s.name, t.name, err)
				}
				results[s.name].add(rs[0], lat[0]...)
				results[t.name].add(rs[1], lat[1]...)
				i++
				continue
			}
			rate, lat, err := measure(s.name, o.Events, s.clients, s.perOp, s.op)
			if err != nil {
				return nil, err
			}
			results[s.name].add(rate, lat...)
		}
		if results[scVerify] != nil {
			start := time.Now()
			v, err := store.Verify(ctx, "batch")
			if err != nil {
				return nil, err
			}
			el := time.Since(start)
			results[scVerify].Events = int(v.Events)
			results[scVerify].add(float64(v.Events)/el.Seconds(), el)
		}
		for i, r := range ratios {
			f, s := results[r.Faster], results[r.Slower]
			if f != nil && s != nil && len(f.rates) > 0 && len(s.rates) > 0 {
				perRun[i] = append(perRun[i], f.rates[len(f.rates)-1]/s.rates[len(s.rates)-1])
			}
		}
	}
	for _, r := range rep.Scenarios {
		r.summarize()
	}
	for i, r := range ratios {
		if len(perRun[i]) > 0 {
			r.Median, r.Min, r.Max = medianRange(perRun[i])
			rep.Ratios = append(rep.Ratios, r)
		}
	}
	rep.LoadAfter = loadAverage()
	return rep, nil
}

// WriteText writes the report as zaxy bench append prints it: one line per scenario, then
// one per ratio.
func (rep *AppendReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%d run(s), pool %d, synchronous_commit %s, load average %s -> %s\n",
		rep.Runs, rep.PoolSize, rep.SynchronousCommit, rep.LoadBefore, rep.LoadAfter)
	for _, r := range rep.Scenarios {
		fmt.Fprintf(w, "%-44s %6d events %8.0f events/s (%.0f-%.0f)  p50 %6.2f ms  p95 %6.2f ms\n",
			r.Scenario, r.Events, r.EventsPerSec, r.EventsPerSecMin, r.EventsPerSecMax, r.P50Ms, r.P95Ms)
	}
	for _, r := range rep.Ratios {
		fmt.Fprintf(w, "%-44s %.2fx (%.2f-%.2f)\n", r.Name, r.Median, r.Min, r.Max)
	}
}

func (r *AppendResult) add(rate float64, lat ...time.Duration) {
	r.rates = append(r.rates, rate)
	r.lat = append(r.lat, lat...)
}

func (r *AppendResult) summarize() {
	r.EventsPerSec, r.EventsPerSecMin, r.EventsPerSecMax = medianRange(r.rates)
	slices.Sort(r.lat)
	if len(r.lat) > 0 {
		r.P50Ms, r.P95Ms = millis(r.lat[len(r.lat)/2]), millis(r.lat[len(r.lat)*95/100])
	}
}

func medianRange(v []float64) (median, lo, hi float64) {
	if len(v) == 0 {
		return 0, 0, 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[(len(s)-1)/2], s[0], s[len(s)-1]
}

// The statements the SQL scenarios run by name: append.sql, the chained append
// eventloom runs, and bench_plain_append.sql, the same INSERT into a table without the chain.
var (
	qChainedAppend = zsql.Query("eventloom/append")
	qPlainAppend   = zsql.Query("eventloom/bench_plain_append")
)

// batchArgs are append.sql's parameters: the space and one array per column of the events, all
// of one length, in append order (NULL elements: occurred_at and cues unset, data when absent).
type batchArgs struct {
	SpaceID                             string
	Types, SessionIDs, Actors, Contents []string
	OccurredAts                         []pgtype.Timestamptz
	Datas, Cues                         []*string
}

// newBatchArgs are the append of batch into space.
func newBatchArgs(space string, batch []eventloom.NewEvent) batchArgs {
	n := len(batch)
	a := batchArgs{SpaceID: space, Types: make([]string, n), SessionIDs: make([]string, n), Actors: make([]string, n),
		Contents: make([]string, n), OccurredAts: make([]pgtype.Timestamptz, n), Datas: make([]*string, n), Cues: make([]*string, n)}
	for i, e := range batch {
		a.Types[i], a.SessionIDs[i], a.Actors[i], a.Contents[i] = e.Type, e.SessionID, e.Actor, e.Content
		if e.Data != nil {
			d := string(e.Data)
			a.Datas[i] = &d
		}
	}
	return a
}

// queryChainedAppend runs append.sql; its rows are the receipts' columns.
func queryChainedAppend(ctx context.Context, tx pgx.Tx, a batchArgs) (pgx.Rows, error) {
	return tx.Query(ctx, qChainedAppend, a.SpaceID, a.Types, a.SessionIDs, a.Actors, a.OccurredAts, a.Contents, a.Datas, a.Cues)
}

// plainAppendArgs are bench_plain_append.sql's parameters: append.sql's, the seq before the
// batch's first and the constant hash every row gets.
type plainAppendArgs struct {
	batchArgs
	FirstSeq int64
	Hash     []byte
}

// queryPlainAppend runs bench_plain_append.sql.
func queryPlainAppend(ctx context.Context, tx pgx.Tx, a plainAppendArgs) (pgx.Rows, error) {
	return tx.Query(ctx, qPlainAppend, a.SpaceID, a.Types, a.SessionIDs, a.Actors, a.OccurredAts, a.Contents, a.Datas, a.Cues,
		a.FirstSeq, a.Hash)
}

// sqlInsertBatch runs one of the append statements (run) over a in a transaction of its own
// and checks every row was inserted.
func sqlInsertBatch(ctx context.Context, pool *pgxpool.Pool, a batchArgs, run func(context.Context, pgx.Tx, batchArgs) (pgx.Rows, error)) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		rows, err := run(ctx, tx, a)
		if err != nil {
			return err
		}
		defer rows.Close()
		got := 0
		for rows.Next() {
			got++
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if n := len(a.Types); got != n {
			return fmt.Errorf("inserted %d of %d", got, n)
		}
		return nil
	})
}

// measure runs events/perOp operations of perOp events each across clients goroutines and
// returns events/s and the per-operation latencies.
func measure(name string, events, clients, perOp int, op func(client, i int) error) (float64, []time.Duration, error) {
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
		return 0, nil, fmt.Errorf("%s: %w", name, firstErr)
	}
	return float64(ops*perOp) / el.Seconds(), lat, nil
}

// measureInterleaved runs ops operations of perOp events of a and of b alternately from one
// client and returns each one's events/s (over its own operations' time) and latencies.
func measureInterleaved(ops, perOp int, a, b func(client, i int) error) ([2]float64, [2][]time.Duration, error) {
	var rates [2]float64
	var lat [2][]time.Duration
	var total [2]time.Duration
	both := [2]func(int, int) error{a, b}
	for i := 0; i < ops; i++ {
		for j := 0; j < 2; j++ {
			k := (i + j) % 2 // which one goes first alternates too
			t0 := time.Now()
			if err := both[k](0, i); err != nil {
				return rates, lat, err
			}
			d := time.Since(t0)
			lat[k] = append(lat[k], d)
			total[k] += d
		}
	}
	for k := range rates {
		rates[k] = float64(ops*perOp) / total[k].Seconds()
	}
	return rates, lat, nil
}

// loadAverage is the 1-, 5- and 15-minute load average (other work on the machine skews the
// numbers), or "?" where /proc/loadavg does not exist.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// scratchSeq tells apart the scratch databases one process creates within a second.
var scratchSeq atomic.Int64

// scratchDatabase creates and migrates a throwaway database beside dbURL's.
func scratchDatabase(ctx context.Context, dbURL string) (string, func(), error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return "", nil, err
	}
	name := fmt.Sprintf("zaxy_bench_%d_%d_%d", os.Getpid(), time.Now().Unix(), scratchSeq.Add(1))
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
