package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/spacelog"
)

// ReplicaOptions configures Replica (zaxy bench replica's flags).
type ReplicaOptions struct {
	// Memories is how many chat memories the checkout space holds; at least 100.
	Memories int
	// Queries is how many checkouts are timed on each side (primary, standby); at least 10.
	Queries int
	// Warmup is how many checkouts run untimed on each side first.
	Warmup int
	// Corpus is a LongMemEval file whose sentences are the memories (synthetic text when missing).
	Corpus string
	// WriteRate is the writer's appends per second during the load phase; at least 1.
	WriteRate int
	// Readers is how many concurrent readers run during the load phase; at least 1.
	Readers int
	// LoadDuration is how long the load phase runs.
	LoadDuration time.Duration
	// CopyEvents is the size of the space exported and imported into a second database; at
	// least 500.
	CopyEvents int
	// Wait is the Set's bounded wait for a standby (replica.DefaultWait when zero).
	Wait time.Duration
	// Embedder is the embedding provider; required.
	Embedder embedding.Embedder
	// OpenPool opens a pool; required.
	OpenPool func(ctx context.Context, url string) (*pgxpool.Pool, error)
	// Logger receives the store's and the projector's logs.
	Logger *slog.Logger
}

// Validate names the first option out of range or missing.
func (o ReplicaOptions) Validate() error {
	switch {
	case o.Memories < 100:
		return fmt.Errorf("Memories must be at least 100, got %d", o.Memories)
	case o.Queries < 10:
		return fmt.Errorf("Queries must be at least 10, got %d", o.Queries)
	case o.Warmup < 0 || o.Warmup > o.Memories:
		return fmt.Errorf("Warmup must be between 0 and Memories, got %d", o.Warmup)
	case o.WriteRate < 1 || o.WriteRate > 1000:
		return fmt.Errorf("WriteRate must be between 1 and 1000, got %d", o.WriteRate)
	case o.Readers < 1 || o.Readers > 64:
		return fmt.Errorf("Readers must be between 1 and 64, got %d", o.Readers)
	case o.LoadDuration < time.Second:
		return fmt.Errorf("LoadDuration must be at least 1s, got %s", o.LoadDuration)
	case o.CopyEvents < 500:
		return fmt.Errorf("CopyEvents must be at least 500, got %d", o.CopyEvents)
	case o.Embedder == nil:
		return errors.New("Embedder is required")
	case o.OpenPool == nil:
		return errors.New("OpenPool is required")
	}
	return nil
}

// ReplicaReport is what Replica measured (zaxy bench replica prints it, as JSON with --json or
// --out).
type ReplicaReport struct {
	Memories int `json:"memories"`
	Queries  int `json:"queries"`
	// PrimaryP50MS and PrimaryP95MS are checkout latencies ranked on the primary; StandbyP50MS
	// and StandbyP95MS the same questions ranked on the standby (surfacing recorded on the
	// primary in both).
	PrimaryP50MS float64 `json:"primary_checkout_p50_ms"`
	PrimaryP95MS float64 `json:"primary_checkout_p95_ms"`
	StandbyP50MS float64 `json:"standby_checkout_p50_ms"`
	StandbyP95MS float64 `json:"standby_checkout_p95_ms"`
	// Load is the steady-write phase.
	Load ReplicaLoad `json:"load"`
	// Check is the cost of the consistency check on a read.
	Check ReplicaCheck `json:"check"`
	// Copy is the cost of copying a space between two databases through its log.
	Copy ReplicaCopy `json:"copy"`
	// LoadAverage is /proc/loadavg's first three fields at the end.
	LoadAverage string `json:"load_average"`
}

// ReplicaLoad is the load phase: a writer appending at a fixed rate, each append's token the
// readers' next token, readers routing raw queries through a replica.Set.
type ReplicaLoad struct {
	Seconds   float64 `json:"seconds"`
	WriteRate int     `json:"write_rate"`
	Writes    int64   `json:"writes"`
	Readers   int     `json:"readers"`
	// Reads is every read; Replica and Primary count where they ran; Waits the reads whose
	// token no standby had reached at once; Fallbacks those the primary served after the wait.
	Reads        int64   `json:"reads"`
	Replica      uint64  `json:"replica"`
	Primary      uint64  `json:"primary"`
	Waits        uint64  `json:"waits"`
	Fallbacks    uint64  `json:"fallbacks"`
	ReplicaShare float64 `json:"replica_share"`
	ReadP50MS    float64 `json:"read_p50_ms"`
	ReadP95MS    float64 `json:"read_p95_ms"`
	// IdleReadP50MS and IdleReadP95MS are the same readers' latencies for half the duration
	// before the writer starts (no token yet: every read on the healthy standby, no wait).
	IdleReadP50MS float64 `json:"idle_read_p50_ms"`
	IdleReadP95MS float64 `json:"idle_read_p95_ms"`
}

// ReplicaCheck is the consistency check's cost: Set.Pick in process (nanoseconds) and the round
// trips a token costs (a write's token, a waiting read's poll of the standby).
type ReplicaCheck struct {
	NoStandbysNS   float64 `json:"no_standbys_ns"`
	CoveredTokenNS float64 `json:"covered_token_ns"`
	NoTokenNS      float64 `json:"no_token_ns"`
	ParseHeaderNS  float64 `json:"parse_header_ns"`
	WriteTokenMS   float64 `json:"write_token_p50_ms"`
	StandbyPollMS  float64 `json:"standby_poll_p50_ms"`
}

// ReplicaCopy is spacelog's export of a space to a file and import into another database.
type ReplicaCopy struct {
	Events        int     `json:"events"`
	FileBytes     int64   `json:"file_bytes"`
	ExportSeconds float64 `json:"export_seconds"`
	ImportSeconds float64 `json:"import_seconds"`
}

// WriteText writes the report as zaxy bench replica prints it.
func (rep *ReplicaReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%d memories, %d checkouts per side (load average %s)\n", rep.Memories, rep.Queries, rep.LoadAverage)
	fmt.Fprintf(w, "%-34s %10s %10s\n", "checkout (2000 tokens)", "p50 ms", "p95 ms")
	fmt.Fprintf(w, "%-34s %10.1f %10.1f\n", "ranked on the primary", rep.PrimaryP50MS, rep.PrimaryP95MS)
	fmt.Fprintf(w, "%-34s %10.1f %10.1f\n", "ranked on the standby", rep.StandbyP50MS, rep.StandbyP95MS)
	l := rep.Load
	fmt.Fprintf(w, "load: %.0fs, writer %d/s (%d writes), %d readers with the latest token: %d reads, replica %d (%.1f%%), primary %d, waits %d, fallbacks %d; read p50 %.1f ms p95 %.1f ms\n",
		l.Seconds, l.WriteRate, l.Writes, l.Readers, l.Reads, l.Replica, 100*l.ReplicaShare, l.Primary, l.Waits, l.Fallbacks, l.ReadP50MS, l.ReadP95MS)
	fmt.Fprintf(w, "the same readers before the writer started: read p50 %.1f ms p95 %.1f ms\n", l.IdleReadP50MS, l.IdleReadP95MS)
	c := rep.Check
	fmt.Fprintf(w, "consistency check per read: no standbys %.0f ns, covered token %.0f ns, no token %.0f ns, header parse %.0f ns; write token round trip %.2f ms, standby poll %.2f ms\n",
		c.NoStandbysNS, c.CoveredTokenNS, c.NoTokenNS, c.ParseHeaderNS, c.WriteTokenMS, c.StandbyPollMS)
	p := rep.Copy
	fmt.Fprintf(w, "copy a space of %d events (spacelog): export %.2fs, import %.2fs (verified), %d bytes\n",
		p.Events, p.ExportSeconds, p.ImportSeconds, p.FileBytes)
}

// withDatabase returns u with its database name replaced by name.
func withDatabase(u, name string) (string, error) {
	p, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("parse database url: %w", err)
	}
	p.Path = "/" + name
	return p.String(), nil
}

// databaseName is u's database name.
func databaseName(u string) (string, error) {
	p, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("parse database url: %w", err)
	}
	return strings.TrimPrefix(p.Path, "/"), nil
}

// Replica measures reads on a standby of dbURL's cluster (standbyURL connects to the standby;
// its database name is replaced by the scratch database's). In a scratch database beside
// dbURL's it loads o.Memories chat memories (as Checkout does), waits for the standby to
// replay them, then: times o.Queries checkouts ranked on the primary and the same on the
// standby; runs a writer at o.WriteRate appends per second while o.Readers readers route raw
// queries through a replica.Set with the writer's latest token, for o.LoadDuration; times
// the consistency check; and exports a space of o.CopyEvents events and imports it into a
// second scratch database. Both scratch databases are dropped.
func Replica(ctx context.Context, dbURL, standbyURL string, o ReplicaOptions) (*ReplicaReport, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if dbURL == "" || standbyURL == "" {
		return nil, errors.New("both the primary's and the standby's URL are required")
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	scratch, drop, err := scratchDatabase(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer drop()
	name, err := databaseName(scratch)
	if err != nil {
		return nil, err
	}
	standbyScratch, err := withDatabase(standbyURL, name)
	if err != nil {
		return nil, err
	}
	pool, err := o.OpenPool(ctx, scratch)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	client, err := jobs.NewInsertOnlyClient(pool, logger)
	if err != nil {
		return nil, err
	}
	box := jobs.NewOutbox(client)
	store := eventloom.NewStore(pool, box, logger)
	n, q := o.Memories, o.Queries
	texts := corpusSentences(o.Corpus, n+q, logger)
	if err := loadCheckoutBench(ctx, pool, store, o.Embedder, []string{checkoutBenchSpace}, texts[:n], 20, &CheckoutReport{}, logger); err != nil {
		return nil, err
	}
	spool, err := o.OpenPool(ctx, standbyScratch)
	if err != nil {
		return nil, err
	}
	defer spool.Close()
	st := &replica.Standby{Name: "standby", Pool: spool}
	set := replica.NewSet(pool, []*replica.Standby{st}, replica.Config{Wait: o.Wait, Logger: logger})
	if err := catchUp(ctx, set, st); err != nil {
		return nil, err
	}
	rep := &ReplicaReport{Memories: n, Queries: q}
	primarySvc := checkout.New(pool, store, checkout.Config{Embedder: o.Embedder, Logger: logger})
	standbySvc := primarySvc.ReadingFrom(spool, eventloom.NewStore(spool, nil, logger))
	timeCheckouts := func(svc *checkout.Service) (float64, float64, error) {
		for _, query := range texts[:o.Warmup] {
			if _, err := svc.Checkout(ctx, &checkout.Request{SpaceID: checkoutBenchSpace, Query: query, SessionID: "s1"}); err != nil {
				return 0, 0, err
			}
		}
		var d []time.Duration
		for _, query := range texts[n : n+q] {
			t0 := time.Now()
			if _, err := svc.Checkout(ctx, &checkout.Request{SpaceID: checkoutBenchSpace, Query: query, SessionID: "s1"}); err != nil {
				return 0, 0, err
			}
			d = append(d, time.Since(t0))
		}
		p50, p95 := p50p95(d)
		return p50, p95, nil
	}
	if rep.PrimaryP50MS, rep.PrimaryP95MS, err = timeCheckouts(primarySvc); err != nil {
		return nil, fmt.Errorf("checkout on the primary: %w", err)
	}
	if rep.StandbyP50MS, rep.StandbyP95MS, err = timeCheckouts(standbySvc); err != nil {
		return nil, fmt.Errorf("checkout on the standby: %w", err)
	}
	idle := o
	idle.WriteRate, idle.LoadDuration = 0, o.LoadDuration/2
	idleLoad, err := replicaLoad(ctx, set, store, primarySvc, standbySvc, texts[n:n+q], idle)
	if err != nil {
		return nil, err
	}
	if rep.Load, err = replicaLoad(ctx, set, store, primarySvc, standbySvc, texts[n:n+q], o); err != nil {
		return nil, err
	}
	rep.Load.IdleReadP50MS, rep.Load.IdleReadP95MS = idleLoad.ReadP50MS, idleLoad.ReadP95MS
	if rep.Check, err = replicaCheck(ctx, set, st); err != nil {
		return nil, err
	}
	if rep.Copy, err = replicaCopy(ctx, dbURL, store, pool, o); err != nil {
		return nil, err
	}
	rep.LoadAverage = loadAverage()
	return rep, nil
}

// catchUp measures the set until the standby has replayed everything the primary has
// committed (at most two minutes).
func catchUp(ctx context.Context, set *replica.Set, st *replica.Standby) error {
	t, err := set.Token(ctx)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		set.Measure(ctx)
		if st.Up() && st.Replay() >= t.LSN {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("wait for the standby: it has not replayed %s within 2 minutes (up %v, at %s)", t.LSN, st.Up(), st.Replay())
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// replicaLoad runs the writer (none when o.WriteRate is 0) and the readers for o.LoadDuration.
func replicaLoad(ctx context.Context, set *replica.Set, store *eventloom.Store, primarySvc, standbySvc *checkout.Service, queries []string, o ReplicaOptions) (ReplicaLoad, error) {
	l := ReplicaLoad{WriteRate: o.WriteRate, Readers: o.Readers}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go set.Run(runCtx)
	before := set.Stats()
	var token atomic.Uint64
	var writes, reads atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	var firstErr error
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	start := time.Now()
	stop := start.Add(o.LoadDuration)
	var wg sync.WaitGroup
	wg.Go(func() {
		if o.WriteRate == 0 {
			return
		}
		tick := time.NewTicker(time.Second / time.Duration(o.WriteRate))
		defer tick.Stop()
		for i := 0; time.Now().Before(stop); i++ {
			select {
			case <-runCtx.Done():
				return
			case <-tick.C:
			}
			_, err := store.Append(runCtx, &eventloom.AppendParams{SpaceID: "bench-writes", Events: []eventloom.NewEvent{{
				Type: "message", SessionID: "w", Content: fmt.Sprintf("write %d", i), Data: json.RawMessage(`{"role":"user"}`)}}})
			if err != nil {
				fail(fmt.Errorf("append under load: %w", err))
				return
			}
			t, err := set.Token(runCtx)
			if err != nil {
				fail(err)
				return
			}
			token.Store(uint64(t.LSN))
			writes.Add(1)
		}
	})
	for r := range o.Readers {
		wg.Go(func() {
			for i := r; time.Now().Before(stop) && runCtx.Err() == nil; i += o.Readers {
				t0 := time.Now()
				c := set.Pick(runCtx, replica.Token{LSN: replica.LSN(token.Load())})
				svc := primarySvc
				if c.Standby != nil {
					svc = standbySvc
				}
				if _, err := svc.Query(runCtx, &checkout.Request{SpaceID: checkoutBenchSpace, Query: queries[i%len(queries)], Limit: 20}); err != nil {
					if runCtx.Err() == nil {
						fail(fmt.Errorf("read under load: %w", err))
					}
					return
				}
				d := time.Since(t0)
				reads.Add(1)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return l, firstErr
	}
	after := set.Stats()
	l.Seconds = time.Since(start).Seconds()
	l.Writes, l.Reads = writes.Load(), reads.Load()
	l.Replica, l.Primary = after.Replica-before.Replica, after.Primary-before.Primary
	l.Waits, l.Fallbacks = after.Waits-before.Waits, after.Fallbacks-before.Fallbacks
	if total := l.Replica + l.Primary; total > 0 {
		l.ReplicaShare = float64(l.Replica) / float64(total)
	}
	if len(lat) > 0 {
		l.ReadP50MS, l.ReadP95MS = p50p95(lat)
	}
	return l, nil
}

// replicaCheck times Set.Pick in process (after a fresh measurement, so a token the standby
// has replayed is covered without a round trip) and the two round trips a token can cost.
func replicaCheck(ctx context.Context, set *replica.Set, st *replica.Standby) (ReplicaCheck, error) {
	var c ReplicaCheck
	covered, err := set.Token(ctx)
	if err != nil {
		return c, err
	}
	if err := catchUp(ctx, set, st); err != nil {
		return c, err
	}
	perOp := func(n int, fn func()) float64 {
		t0 := time.Now()
		for range n {
			fn()
		}
		return float64(time.Since(t0).Nanoseconds()) / float64(n)
	}
	const n = 200000
	none := replica.NewSet(set.Primary(), nil, replica.Config{})
	c.NoStandbysNS = perOp(n, func() { none.Pick(ctx, covered) })
	c.CoveredTokenNS = perOp(n, func() { set.Pick(ctx, covered) })
	c.NoTokenNS = perOp(n, func() { set.Pick(ctx, replica.Token{}) })
	text := covered.String()
	c.ParseHeaderNS = perOp(n, func() { _, _ = replica.ParseToken(text) })
	var tok, poll []time.Duration
	for range 200 {
		t0 := time.Now()
		if _, err := set.Token(ctx); err != nil {
			return c, err
		}
		tok = append(tok, time.Since(t0))
		t0 = time.Now()
		var rec bool
		var lsn *string
		if err := st.Pool.QueryRow(ctx, `SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text`).Scan(&rec, &lsn); err != nil {
			return c, fmt.Errorf("poll the standby: %w", err)
		}
		poll = append(poll, time.Since(t0))
	}
	c.WriteTokenMS, _ = p50p95(tok)
	c.StandbyPollMS, _ = p50p95(poll)
	return c, nil
}

// replicaCopy appends o.CopyEvents messages to a space, exports it to a file and imports the
// file into a second scratch database (Import verifies the chain), timing both.
func replicaCopy(ctx context.Context, dbURL string, store *eventloom.Store, pool *pgxpool.Pool, o ReplicaOptions) (ReplicaCopy, error) {
	c := ReplicaCopy{Events: o.CopyEvents}
	const space = "bench-copy"
	words := strings.Repeat("lorem ipsum dolor sit amet ", 8)
	for done := 0; done < o.CopyEvents; done += 500 {
		events := make([]eventloom.NewEvent, 0, 500)
		for i := done; i < min(done+500, o.CopyEvents); i++ {
			events = append(events, eventloom.NewEvent{Type: "message", Actor: "user", SessionID: fmt.Sprintf("s%d", i/100),
				Content: fmt.Sprintf("event %d: %s", i, words), Data: json.RawMessage(`{"role":"user"}`)})
		}
		if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: events}); err != nil {
			return c, err
		}
	}
	dir, err := os.MkdirTemp("", "zaxy-bench-replica")
	if err != nil {
		return c, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, space+".jsonl")
	f, err := os.Create(path)
	if err != nil {
		return c, err
	}
	t0 := time.Now()
	sum, err := spacelog.Export(ctx, pool, f, space)
	if err == nil {
		err = f.Close()
	} else {
		f.Close()
	}
	if err != nil {
		return c, fmt.Errorf("export the space: %w", err)
	}
	c.ExportSeconds = time.Since(t0).Seconds()
	c.FileBytes = sum.Bytes
	target, drop, err := scratchDatabase(ctx, dbURL)
	if err != nil {
		return c, err
	}
	defer drop()
	tpool, err := o.OpenPool(ctx, target)
	if err != nil {
		return c, err
	}
	defer tpool.Close()
	client, err := jobs.NewInsertOnlyClient(tpool, o.Logger)
	if err != nil {
		return c, err
	}
	in, err := os.Open(path)
	if err != nil {
		return c, err
	}
	defer in.Close()
	t0 = time.Now()
	if _, err := spacelog.Import(ctx, tpool, in, spacelog.ImportParams{Space: space, Outbox: jobs.NewOutbox(client)}); err != nil {
		return c, fmt.Errorf("import the space: %w", err)
	}
	c.ImportSeconds = time.Since(t0).Seconds()
	return c, nil
}
