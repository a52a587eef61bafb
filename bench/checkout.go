package bench

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/migrations"
	"github.com/zaxy/zaxy/projection"
)

// CheckoutReport is what Checkout measured (zaxy bench checkout prints it, as JSON with --json).
type CheckoutReport struct {
	// Memories is how many memories each space holds.
	Memories int `json:"memories"`
	// Spaces is how many spaces were loaded; each timed checkout asks one of them.
	Spaces  int `json:"spaces"`
	Queries int `json:"queries"`
	// Warmup is how many checkouts ran untimed before the timed ones.
	Warmup       int     `json:"warmup"`
	LoadSeconds  float64 `json:"load_seconds"`
	ProjectSecs  float64 `json:"project_seconds"`
	EmbedSeconds float64 `json:"embed_seconds"`
	IndexSeconds float64 `json:"index_seconds"`
	// ArtifactSeconds is how long building the latent artifacts took (Weave only).
	ArtifactSeconds float64 `json:"artifact_seconds,omitempty"`
	// Weaves counts the checkouts whose packet carried a weave (Weave only).
	Weaves        int     `json:"weaves,omitempty"`
	CheckoutP50MS float64 `json:"checkout_p50_ms"`
	CheckoutP95MS float64 `json:"checkout_p95_ms"`
	QueryP50MS    float64 `json:"query_p50_ms"`
	QueryP95MS    float64 `json:"query_p95_ms"`
	LoadAverage   string  `json:"load_average"`
	// LaneMS is each lane's mean time per checkout.
	LaneMS map[string]float64 `json:"lane_ms"`
}

// CheckoutOptions configures Checkout (zaxy bench checkout's flags).
type CheckoutOptions struct {
	// Memories is how many chat memories (message events) each space holds; at least 100.
	Memories int
	// Spaces is how many spaces of Memories memories each are loaded (0 or 1: one, named
	// "bench"; more: "bench-0001" on). Each timed checkout asks the next space in a fixed
	// spread over all of them, so the indexes hold every space's rows and a checkout reads one.
	Spaces int
	// Queries is how many checkouts (and raw queries) are timed; at least 10.
	Queries int
	// Warmup is how many checkouts and raw queries run untimed first, as a running service's
	// have: the pool's connections prepare and plan each statement on its first use, and the
	// first checkouts read the indexes from disk. They ask the first Warmup memories' own
	// sentences, never a timed query. 0 times from the first checkout.
	Warmup int
	// Corpus is a LongMemEval file whose sentences are the memories and queries; synthetic
	// text tops them up when it is missing or short.
	Corpus string
	// Keep leaves the scratch database in place and writes its URL to Notices.
	Keep bool
	// Reuse is the URL of a database a Keep run loaded: it is migrated to this binary's schema,
	// then only the queries are timed.
	Reuse string
	// Embedder is the embedding provider, so its query embedding is timed; required.
	Embedder embedding.Embedder
	// OpenPool opens the scratch database's pool; required.
	OpenPool func(ctx context.Context, url string) (*pgxpool.Pool, error)
	// Notices receives the kept database's URL; nil discards it.
	Notices io.Writer
	// Logger receives the store's and the projector's logs.
	Logger *slog.Logger
	// EfSearch, when not 0, is the vector lane's hnsw.ef_search (checkout.Config.EfSearch).
	EfSearch int
	// Items, when set, receives each query's ranked item ids as a JSON line: the packet's, in
	// tier order, and the raw query's, so two builds can be shown to rank alike.
	Items io.Writer
	// CPUProfile, when set, receives a Go CPU profile of the timed queries.
	CPUProfile io.Writer
	// PPRWeight, when not 0, switches the PPR lane on at that weight (checkout.Config.PPRWeight).
	PPRWeight float64
	// Weave asks every checkout for a memory weave (checkout.Request.Weave). The space's latent
	// artifacts (episodes of each session) are built first, untimed, as the latent_rebuild job
	// would have; on a --reuse database only what is missing is built.
	Weave bool
	// SessionEvents is how many consecutive memories share a session (0: 20). Long agent
	// sessions make long episodes: the weave verifies every source of what it weaves.
	SessionEvents int
	// Cues sends cues with every checkout (a task, a repo, a tool and a phase; checkout.Cues),
	// so the cue blend reads the candidates' recorded cues.
	Cues bool
}

// benchCues are the cues of query i with Cues set: one of a few tasks, repos and tools each.
func benchCues(i int) checkout.Cues {
	return checkout.Cues{"task": fmt.Sprintf("task-%d", i%7), "repo": fmt.Sprintf("repo-%d", i%3),
		"tool": []string{"shell", "editor", "browser"}[i%3], "phase": "implementation"}
}

// Validate names the first option out of range or missing.
func (o CheckoutOptions) Validate() error {
	switch {
	case o.Memories < 100:
		return fmt.Errorf("Memories must be at least 100, got %d", o.Memories)
	case o.Spaces < 0 || o.Spaces > 10000:
		return fmt.Errorf("Spaces must be between 1 and 10000 (0: 1), got %d", o.Spaces)
	case o.Spaces > 1 && o.Weave:
		return errors.New("Weave works on one space (Spaces 0 or 1)")
	case o.Queries < 10:
		return fmt.Errorf("Queries must be at least 10, got %d", o.Queries)
	case o.Warmup < 0 || o.Warmup > o.Memories:
		return fmt.Errorf("Warmup must be between 0 and Memories, got %d", o.Warmup)
	case o.SessionEvents < 0 || o.SessionEvents > o.Memories:
		return fmt.Errorf("SessionEvents must be between 1 and Memories (0: 20), got %d", o.SessionEvents)
	case o.EfSearch < 0 || o.EfSearch > 1000:
		return fmt.Errorf("EfSearch must be between 1 and 1000 (0: the default), got %d", o.EfSearch)
	case o.PPRWeight < 0 || o.PPRWeight > 5:
		return fmt.Errorf("PPRWeight must be between 0 and 5, got %g", o.PPRWeight)
	case o.Embedder == nil:
		return errors.New("Embedder is required")
	case o.OpenPool == nil:
		return errors.New("OpenPool is required")
	}
	return nil
}

// WriteText writes the report as zaxy bench checkout prints it.
func (rep *CheckoutReport) WriteText(w io.Writer) {
	if rep.Spaces > 1 {
		fmt.Fprintf(w, "%d spaces of ", rep.Spaces)
	}
	fmt.Fprintf(w, "%d memories: load %.1fs, project %.1fs, embed %.1fs, HNSW build %.1fs (load average %s)\n",
		rep.Memories, rep.LoadSeconds, rep.ProjectSecs, rep.EmbedSeconds, rep.IndexSeconds, rep.LoadAverage)
	if rep.ArtifactSeconds > 0 || rep.Weaves > 0 {
		fmt.Fprintf(w, "weave: latent artifacts built in %.1fs; %d of %d packets carried a weave\n", rep.ArtifactSeconds, rep.Weaves, rep.Queries)
	}
	fmt.Fprintf(w, "checkout (2000 tokens, recorded): p50 %.1f ms  p95 %.1f ms over %d queries (after %d untimed)\n", rep.CheckoutP50MS, rep.CheckoutP95MS, rep.Queries, rep.Warmup)
	fmt.Fprintf(w, "query (ranked items only):       p50 %.1f ms  p95 %.1f ms\n", rep.QueryP50MS, rep.QueryP95MS)
	var lanes []string
	for name, v := range rep.LaneMS {
		lanes = append(lanes, fmt.Sprintf("%s %.1f", name, v))
	}
	slices.Sort(lanes)
	fmt.Fprintf(w, "mean lane ms per checkout: %s\n", strings.Join(lanes, ", "))
}

// Checkout measures checkout latency on o.Spaces spaces (at least one) of o.Memories chat
// memories each: it loads them into a scratch database beside dbURL's (projected and embedded
// with o.Embedder, the HNSW index built after the load), then times o.Queries checkouts (max_tokens 2000, surfacing
// recorded, and projected untimed after each as the workers would) and as many raw queries,
// one client. With o.Reuse it times the queries on a
// database an earlier o.Keep run loaded, migrated first to this binary's schema, and dbURL is
// not used.
func Checkout(ctx context.Context, dbURL string, o CheckoutOptions) (*CheckoutReport, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	logger, stderr := o.Logger, o.Notices
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if stderr == nil {
		stderr = io.Discard
	}
	n, q := o.Memories, o.Queries
	if dbURL == "" && o.Reuse == "" {
		return nil, errors.New("no database URL to create the scratch database beside")
	}
	scratch := o.Reuse
	if scratch != "" {
		if err := migrateReused(ctx, scratch, o.OpenPool, stderr); err != nil {
			return nil, err
		}
	} else {
		var drop func()
		var err error
		scratch, drop, err = scratchDatabase(ctx, dbURL)
		if err != nil {
			return nil, err
		}
		if o.Keep {
			fmt.Fprintf(stderr, "zaxy bench checkout: keeping the scratch database: --reuse '%s'\n", scratch)
		} else {
			defer drop()
		}
	}
	pool, err := o.OpenPool(ctx, scratch)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	spaces := checkoutBenchSpaces(o.Spaces)
	loaded := n * len(spaces)
	texts := corpusSentences(o.Corpus, loaded+q, logger)
	rep := &CheckoutReport{Memories: n, Spaces: len(spaces), Queries: q, Warmup: o.Warmup, LaneMS: map[string]float64{}}
	// As in service, every append (each checkout's surfaced record) enqueues its projection job
	// in the append's transaction; no worker runs them here (the bench projects by itself).
	client, err := jobs.NewInsertOnlyClient(pool, logger)
	if err != nil {
		return nil, err
	}
	store := eventloom.NewStore(pool, jobs.NewOutbox(client), logger)
	provider := o.Embedder
	if o.Reuse == "" {
		if err := loadCheckoutBench(ctx, pool, store, provider, spaces, texts[:loaded], cmp.Or(o.SessionEvents, 20), rep, logger); err != nil {
			return nil, err
		}
	}
	svc := checkout.New(pool, store, checkout.Config{Embedder: provider, EfSearch: o.EfSearch, Logger: logger, PPRWeight: o.PPRWeight})
	if o.Weave {
		builder, err := latent.NewBuilder(ctx, pool, store, latent.Config{})
		if err != nil {
			return nil, err
		}
		start := time.Now()
		if _, err := builder.Build(ctx, spaces[0]); err != nil {
			return nil, err
		}
		rep.ArtifactSeconds = time.Since(start).Seconds()
		// In service autovacuum analyzes the new artifacts within a minute; the queries are timed
		// against that state, not against statistics from before they existed.
		if _, err := pool.Exec(ctx, "ANALYZE latent_artifacts, latent_sources"); err != nil {
			return nil, err
		}
	}
	// Each checkout records what it surfaced; in service the workers project that event within
	// moments, so the log's unprojected tail (which the exact and verbatim lanes read) stays
	// short. The bench does the same, untimed: it catches up before the first query (an earlier
	// --reuse run's records) and after every checkout.
	proj, err := projection.New(ctx, pool, projection.Config{Logger: logger})
	if err != nil {
		return nil, err
	}
	catchUp := func(space string) error {
		_, err := proj.ProjectSpace(ctx, space)
		return err
	}
	for _, space := range spaces {
		if err := catchUp(space); err != nil {
			return nil, err
		}
	}
	var items *json.Encoder
	if o.Items != nil {
		items = json.NewEncoder(o.Items)
	}
	if o.CPUProfile != nil {
		if err := pprof.StartCPUProfile(o.CPUProfile); err != nil {
			return nil, err
		}
		defer pprof.StopCPUProfile()
	}
	for i, query := range texts[:o.Warmup] {
		space := spaces[spreadSpace(i, len(spaces))]
		if _, err := svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: query, SessionID: "s1", Weave: o.Weave}); err != nil {
			return nil, err
		}
		if err := catchUp(space); err != nil {
			return nil, err
		}
		if _, err := svc.Query(ctx, &checkout.Request{SpaceID: space, Query: query, Limit: 20}); err != nil {
			return nil, err
		}
	}
	var co, qu []time.Duration
	for i := 0; i < q; i++ {
		query, space := texts[loaded+i], spaces[spreadSpace(o.Warmup+i, len(spaces))]
		t0 := time.Now()
		var cues checkout.Cues
		if o.Cues {
			cues = benchCues(i)
		}
		p, err := svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: query, SessionID: "s1", Weave: o.Weave, Cues: cues})
		if err != nil {
			return nil, err
		}
		co = append(co, time.Since(t0))
		if p.Weave != nil {
			rep.Weaves++
		}
		if err := catchUp(space); err != nil {
			return nil, err
		}
		for name, l := range p.Diagnostics.Lanes {
			rep.LaneMS[name] += l.MS / float64(q)
		}
		t0 = time.Now()
		res, err := svc.Query(ctx, &checkout.Request{SpaceID: space, Query: query, Limit: 20})
		if err != nil {
			return nil, err
		}
		qu = append(qu, time.Since(t0))
		if items != nil {
			if err := items.Encode(rankedItems(query, p, res)); err != nil {
				return nil, err
			}
		}
	}
	rep.CheckoutP50MS, rep.CheckoutP95MS = p50p95(co)
	rep.QueryP50MS, rep.QueryP95MS = p50p95(qu)
	rep.LoadAverage = loadAverage()
	return rep, nil
}

// migrateReused brings a database kept by an older binary to this binary's schema, so the
// queries are timed against the indexes and views they are written for. A database a newer
// binary migrated is timed on its schema as it is, with a notice (binaries are compared run for
// run on one database).
func migrateReused(ctx context.Context, url string, open func(context.Context, string) (*pgxpool.Pool, error), notices io.Writer) error {
	pool, err := open(ctx, url)
	if err != nil {
		return err
	}
	st, err := migrations.ReadStatus(ctx, pool)
	pool.Close()
	if err != nil {
		return err
	}
	if !st.Dirty && st.Version > st.Latest {
		fmt.Fprintf(notices, "zaxy bench checkout: the reused database is at schema %d, newer than this binary's %d: timing on it as it is\n", st.Version, st.Latest)
		return nil
	}
	if _, err := migrations.Up(ctx, url, time.Minute); err != nil {
		return fmt.Errorf("migrate the reused database: %w", err)
	}
	return nil
}

// checkoutItems is one line of CheckoutOptions.Items: a query's ranked item ids.
type checkoutItems struct {
	Query  string   `json:"query"`
	Packet []string `json:"packet"`
	Ranked []string `json:"ranked"`
}

// rankedItems lists the item ids of a checkout packet (in tier order) and a raw query result.
func rankedItems(query string, p *checkout.Packet, res *checkout.QueryResult) checkoutItems {
	line := checkoutItems{Query: query}
	for _, t := range p.Tiers {
		for _, it := range t.Items {
			line.Packet = append(line.Packet, it.ItemID)
		}
	}
	for _, it := range res.Items {
		line.Ranked = append(line.Ranked, it.ItemID)
	}
	return line
}

// checkoutBenchSpace is the space zaxy bench checkout loads when it loads one.
const checkoutBenchSpace = "bench"

// checkoutBenchSpaces names the spaces zaxy bench checkout loads: "bench" alone, or
// "bench-0001" to "bench-<n>" when n > 1.
func checkoutBenchSpaces(n int) []string {
	if n <= 1 {
		return []string{checkoutBenchSpace}
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("bench-%04d", i+1)
	}
	return out
}

// spreadSpace is the space the i-th checkout asks, of n: a fixed stride through all of them,
// so consecutive checkouts read different spaces' pages.
func spreadSpace(i, n int) int {
	const stride = 7919 // a prime: coprime with every n it does not divide
	if n%stride == 0 {
		return i % n
	}
	return (i * stride) % n
}

// loadCheckoutBench appends texts as chat memories, len(texts)/len(spaces) to each space in
// turn, projects and embeds them, and builds the HNSW index, timing each step (summed over
// the spaces) into rep.
func loadCheckoutBench(ctx context.Context, pool *pgxpool.Pool, store *eventloom.Store, provider embedding.Embedder, spaces, texts []string, perSession int, rep *CheckoutReport, logger *slog.Logger) error {
	per := len(texts) / len(spaces)
	rng := rand.New(rand.NewPCG(5, 6))
	proj, err := projection.New(ctx, pool, projection.Config{Logger: logger})
	if err != nil {
		return err
	}
	emb := projection.NewEmbedder(pool, provider, 512)
	for s, space := range spaces {
		mine := texts[s*per : (s+1)*per]
		start := time.Now()
		for i := 0; i < per; i += 1000 {
			batch := make([]eventloom.NewEvent, 0, 1000)
			for j := i; j < min(i+1000, per); j++ {
				role := []string{"user", "assistant"}[rng.IntN(2)]
				batch = append(batch, eventloom.NewEvent{Type: "message", SessionID: fmt.Sprintf("s%d", j/perSession), Content: mine[j],
					Data: json.RawMessage(`{"role":"` + role + `"}`)})
			}
			if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: batch}); err != nil {
				return err
			}
		}
		rep.LoadSeconds += time.Since(start).Seconds()
		start = time.Now()
		if _, err := proj.ProjectSpace(ctx, space); err != nil {
			return err
		}
		rep.ProjectSecs += time.Since(start).Seconds()
		start = time.Now()
		if _, err := emb.EmbedSpaceBulk(ctx, space); err != nil {
			return err
		}
		rep.EmbedSeconds += time.Since(start).Seconds()
		if len(spaces) > 1 && (s+1)%100 == 0 {
			logger.Info("bench checkout: spaces loaded", "spaces", s+1, "of", len(spaces))
		}
	}
	start := time.Now()
	// An HNSW build is fast while its graph fits in maintenance_work_mem (a halfvec(484) row is
	// about 1 KB, its neighbour lists at m 32 as much again), and slows several-fold once it
	// does not: 2 KB a memory, at least 512 MB.
	mem := max(512, len(texts)*2/1024)
	if _, err := pool.Exec(ctx, fmt.Sprintf("SET maintenance_work_mem = '%dMB'", mem)); err != nil {
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

// p50p95 sorts d and returns its elements at len/2 and len*95/100, in milliseconds.
func p50p95(d []time.Duration) (p50, p95 float64) {
	slices.Sort(d)
	return millis(d[len(d)/2]), millis(d[len(d)*95/100])
}

// corpusSentences returns n distinct sentences of at least 20 characters from a LongMemEval
// file's haystacks, topped up with synthetic sentences when the file is missing or short. The
// synthetic ones draw from 36 words, so every query term matches a large share of them: a
// load that is mostly synthetic measures a keyword lane far busier than real text makes it,
// and logger warns how many there are.
func corpusSentences(path string, n int, logger *slog.Logger) []string {
	var out []string
	f, err := os.Open(path)
	if err == nil {
		out, err = Sentences(f, n)
		f.Close()
	}
	if len(out) < n {
		logger.Warn("bench: synthetic sentences from 36 words make up the rest of the memories and queries",
			"corpus", path, "from_corpus", len(out), "synthetic", n-len(out), "error", err)
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
