package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embed"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
)

// checkoutBenchReport is what zaxy bench checkout measures.
type checkoutBenchReport struct {
	Memories      int     `json:"memories"`
	Queries       int     `json:"queries"`
	LoadSeconds   float64 `json:"load_seconds"`
	ProjectSecs   float64 `json:"project_seconds"`
	EmbedSeconds  float64 `json:"embed_seconds"`
	IndexSeconds  float64 `json:"index_seconds"`
	CheckoutP50MS float64 `json:"checkout_p50_ms"`
	CheckoutP95MS float64 `json:"checkout_p95_ms"`
	QueryP50MS    float64 `json:"query_p50_ms"`
	QueryP95MS    float64 `json:"query_p95_ms"`
	LoadAverage   string  `json:"load_average"`
	// LaneMS is each lane's mean time per checkout.
	LaneMS map[string]float64 `json:"lane_ms"`
}

// benchCheckoutCmd: zaxy bench checkout [--memories N] [--queries Q] [--corpus FILE] [--keep]
// [--reuse URL] [--json]. Loads N chat memories into one space of a scratch database
// (projected and embedded with the offline embedder, the HNSW index built after the load),
// then times Q checkouts (max_tokens 2000, surfacing recorded) and Q raw queries, one client.
// --keep leaves the scratch database in place and prints its URL; --reuse times the queries
// on such a database without loading it again.
func benchCheckoutCmd(ctx context.Context, args []string, dbURL string, getenv func(string) string, logger *slog.Logger, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench checkout", flag.ContinueOnError)
	fs.SetOutput(stderr)
	memories := fs.Int("memories", 100000, "memories (message events) in the space")
	queries := fs.Int("queries", 200, "checkouts to time")
	corpus := fs.String("corpus", "../shared/bench/longmemeval_s_dev.json", "LongMemEval file whose sentences are the memories (synthetic text when missing)")
	asJSON := fs.Bool("json", false, "print JSON")
	keep := fs.Bool("keep", false, "keep the scratch database and print its URL (for --reuse)")
	reuse := fs.String("reuse", "", "URL of a database a --keep run loaded: time the queries only")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *memories < 100 || *queries < 10 {
		fmt.Fprintln(stderr, "zaxy bench checkout: --memories must be at least 100 and --queries at least 10")
		return 2
	}
	rep, err := benchCheckout(ctx, dbURL, checkoutBenchOptions{memories: *memories, queries: *queries, corpus: *corpus, keep: *keep, reuse: *reuse, getenv: getenv}, logger, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy bench checkout: %v\n", err)
		return 1
	}
	if *asJSON {
		_ = json.NewEncoder(stdout).Encode(rep)
		return 0
	}
	fmt.Fprintf(stdout, "%d memories: load %.1fs, project %.1fs, embed %.1fs, HNSW build %.1fs (load average %s)\n",
		rep.Memories, rep.LoadSeconds, rep.ProjectSecs, rep.EmbedSeconds, rep.IndexSeconds, rep.LoadAverage)
	fmt.Fprintf(stdout, "checkout (2000 tokens, recorded): p50 %.1f ms  p95 %.1f ms over %d queries\n", rep.CheckoutP50MS, rep.CheckoutP95MS, rep.Queries)
	fmt.Fprintf(stdout, "query (ranked items only):       p50 %.1f ms  p95 %.1f ms\n", rep.QueryP50MS, rep.QueryP95MS)
	var lanes []string
	for name, v := range rep.LaneMS {
		lanes = append(lanes, fmt.Sprintf("%s %.1f", name, v))
	}
	slices.Sort(lanes)
	fmt.Fprintf(stdout, "mean lane ms per checkout: %s\n", strings.Join(lanes, ", "))
	return 0
}

// checkoutBenchOptions are zaxy bench checkout's flags.
type checkoutBenchOptions struct {
	memories, queries int
	corpus            string
	keep              bool
	reuse             string
	// getenv configures the embedder (ZAXY_EMBEDDER, ZAXY_MODEL_DIR).
	getenv func(string) string
}

func benchCheckout(ctx context.Context, dbURL string, o checkoutBenchOptions, logger *slog.Logger, stderr io.Writer) (*checkoutBenchReport, error) {
	n, q := o.memories, o.queries
	if dbURL == "" && o.reuse == "" {
		return nil, fmt.Errorf("ZAXY_DATABASE_URL is not set (run 'make db' to get one)")
	}
	scratch := o.reuse
	if scratch == "" {
		var drop func()
		var err error
		scratch, drop, err = scratchDatabase(ctx, dbURL)
		if err != nil {
			return nil, err
		}
		if o.keep {
			fmt.Fprintf(stderr, "zaxy bench checkout: keeping the scratch database: --reuse '%s'\n", scratch)
		} else {
			defer drop()
		}
	}
	pool, err := newPool(ctx, scratch)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	texts := corpusSentences(o.corpus, n+q)
	rep := &checkoutBenchReport{Memories: n, Queries: q, LaneMS: map[string]float64{}}
	store := eventloom.NewStore(pool, nil, logger)
	// The configured embedder (ZAXY_EMBEDDER, ZAXY_MODEL_DIR), so its query embedding is timed.
	provider, err := embedProviderFromEnv(o.getenv)
	if err != nil {
		return nil, err
	}
	if o.reuse == "" {
		if err := loadCheckoutBench(ctx, pool, store, provider, texts[:n], rep, logger); err != nil {
			return nil, err
		}
	}
	svc := checkout.New(pool, store, checkout.Config{Embedder: provider, Logger: logger})
	var co, qu []time.Duration
	for i := 0; i < q; i++ {
		query := texts[n+i]
		t0 := time.Now()
		p, err := svc.Checkout(ctx, &checkout.Request{SpaceID: checkoutBenchSpace, Query: query, SessionID: "s1"})
		if err != nil {
			return nil, err
		}
		co = append(co, time.Since(t0))
		for name, l := range p.Diagnostics.Lanes {
			rep.LaneMS[name] += l.MS / float64(q)
		}
		t0 = time.Now()
		if _, err := svc.Query(ctx, &checkout.Request{SpaceID: checkoutBenchSpace, Query: query, Limit: 20}); err != nil {
			return nil, err
		}
		qu = append(qu, time.Since(t0))
	}
	rep.CheckoutP50MS, rep.CheckoutP95MS = percentiles(co)
	rep.QueryP50MS, rep.QueryP95MS = percentiles(qu)
	rep.LoadAverage = loadAverage()
	return rep, nil
}

// checkoutBenchSpace is the space zaxy bench checkout loads.
const checkoutBenchSpace = "bench"

// loadCheckoutBench appends texts as chat memories, projects and embeds them, and builds the
// HNSW index, timing each step into rep.
func loadCheckoutBench(ctx context.Context, pool *pgxpool.Pool, store *eventloom.Store, provider embed.Embedder, texts []string, rep *checkoutBenchReport, logger *slog.Logger) error {
	n := len(texts)
	const space = checkoutBenchSpace
	start := time.Now()
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < n; i += 1000 {
		batch := make([]eventloom.NewEvent, 0, 1000)
		for j := i; j < min(i+1000, n); j++ {
			role := []string{"user", "assistant"}[rng.IntN(2)]
			batch = append(batch, eventloom.NewEvent{Type: "message", SessionID: fmt.Sprintf("s%d", j/20), Content: texts[j],
				Data: json.RawMessage(`{"role":"` + role + `"}`)})
		}
		if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: batch}); err != nil {
			return err
		}
	}
	rep.LoadSeconds = time.Since(start).Seconds()
	proj, err := projection.New(ctx, pool, projection.Config{Logger: logger})
	if err != nil {
		return err
	}
	start = time.Now()
	if _, err := proj.ProjectSpace(ctx, space); err != nil {
		return err
	}
	rep.ProjectSecs = time.Since(start).Seconds()
	emb := projection.NewEmbedder(pool, provider, 512)
	start = time.Now()
	if _, err := emb.EmbedSpaceBulk(ctx, space); err != nil {
		return err
	}
	rep.EmbedSeconds = time.Since(start).Seconds()
	start = time.Now()
	if _, err := pool.Exec(ctx, "SET maintenance_work_mem = '512MB'"); err != nil {
		return err
	}
	if err := emb.EnsureIndex(ctx); err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, "ANALYZE"); err != nil {
		return err
	}
	rep.IndexSeconds = time.Since(start).Seconds()
	return nil
}

func percentiles(d []time.Duration) (p50, p95 float64) {
	slices.Sort(d)
	return ms(d[len(d)/2]), ms(d[len(d)*95/100])
}

// corpusSentences returns n distinct sentences of at least 20 characters from a LongMemEval
// file's haystacks, topped up with synthetic sentences when the file is missing or short.
func corpusSentences(path string, n int) []string {
	var out []string
	if f, err := os.Open(path); err == nil {
		out, _ = bench.Sentences(f, n)
		f.Close()
	}
	words := strings.Fields("deploy pipeline postgres upgrade billing service search index gateway latency timeout retry queue worker migration schema vector graph entity session agent tool failure review plan cache memory budget owner team incident rollback release branch commit")
	rng := rand.New(rand.NewPCG(7, 8))
	for len(out) < n {
		w := make([]string, 10+rng.IntN(15))
		for i := range w {
			w[i] = words[rng.IntN(len(words))]
		}
		out = append(out, strings.Join(w, " ")+fmt.Sprintf(" %d.", len(out)))
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
