package checkout

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
)

// Config configures a Service.
type Config struct {
	// TextSearchConfig must match the projector's. Defaults to "english".
	TextSearchConfig string
	// Embedder embeds queries for the vector lane; nil switches the lane off.
	Embedder embedding.Embedder
	// EfSearch is HNSW's candidate list size for the vector lane. Defaults to 100.
	EfSearch int
	// Logger defaults to discarding.
	Logger *slog.Logger
	// PPRWeight is the personalized PageRank lane's fusion weight (ppr.go), for every purpose.
	// Defaults to 0: the lane does not run.
	PPRWeight float64
	// Policy, when set, is the retrieval policy every checkout ranks with, whatever the space's
	// current one is: benchmarks and the policy regression gate measure a candidate with it.
	// Defaults to nil: each checkout reads its space's current policy (built-in when none).
	Policy *Policy
}

// Service answers checkouts and raw queries.
type Service struct {
	// pool serves the lanes, which run concurrently.
	pool  *pgxpool.Pool
	store *eventloom.Store
	cfg   Config
	// decoded holds the fitted policies read so far, by version (CurrentPolicy).
	decoded sync.Map
}

// New returns a Service reading through pool and recording surfacing through store. It takes
// a pool, not a connection or a transaction: a checkout's lanes run concurrently, each on a
// connection of its own, and one connection serves one query at a time.
func New(pool *pgxpool.Pool, store *eventloom.Store, cfg Config) *Service {
	if cfg.TextSearchConfig == "" {
		cfg.TextSearchConfig = "english"
	}
	if cfg.EfSearch == 0 {
		cfg.EfSearch = 100
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{pool: pool, store: store, cfg: cfg}
}

// LaneStat is one lane's diagnostics.
type LaneStat struct {
	Count int     `json:"count"`
	MS    float64 `json:"ms"`
	Off   bool    `json:"off,omitempty"`
	Error string  `json:"error,omitempty"`
}

// ranking is the fused result of the lanes with what the packet needs besides.
type ranking struct {
	purpose         string
	purposeInferred bool
	speaker         string
	asOf            time.Time
	fused           []*scored
	lanes           map[string]LaneStat
	recent          []string
	lag             int64
	items           map[string]*Item
	previous        []*Item
	stable          []string
	// salience is the salience diagnostics (nil with the plain profile).
	salience *SalienceStats
	// policy is the retrieval policy the ranking used.
	policy *Policy
}

// QueryResult is the body of a raw query: ranked items with their score components.
type QueryResult struct {
	Purpose         string `json:"purpose"`
	PurposeInferred bool   `json:"purpose_inferred"`
	// Speaker is the role whose turns the speaker prior favoured ("user"), if any (speaker.go).
	Speaker       string              `json:"speaker,omitempty"`
	Items         []*Item             `json:"items"`
	Lanes         map[string]LaneStat `json:"lanes"`
	ProjectionLag int64               `json:"projection_lag"`
	// Salience reports the attenuated candidates left out (absent with the plain profile).
	Salience *SalienceStats `json:"salience,omitempty"`
	// PolicyVersion is the retrieval policy the ranking used (docs/checkout.md).
	PolicyVersion string `json:"policy_version"`
}

// Query runs the lanes and fusion and returns the ranked items, without packing or
// recording anything.
func (s *Service) Query(ctx context.Context, r *Request) (*QueryResult, error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	rk, err := s.rank(ctx, r, r.Limit, false)
	if err != nil {
		return nil, err
	}
	res := &QueryResult{Purpose: rk.purpose, PurposeInferred: rk.purposeInferred, Speaker: rk.speaker, Lanes: rk.lanes, ProjectionLag: rk.lag, Items: []*Item{}, Salience: rk.salience,
		PolicyVersion: rk.policy.Version}
	for _, c := range rk.fused {
		if len(res.Items) == r.Limit {
			break
		}
		if it := rk.items[c.itemID]; it != nil {
			it.Score, it.Components = c.score, c.components
			it.Tokens = EstimateTokens(it.Text)
			res.Items = append(res.Items, it)
		}
	}
	return res, nil
}

// rank runs the lanes concurrently, each on its own pooled connection (so they do not share
// one snapshot: an append landing meanwhile may show in one lane and not another), fuses
// them, applies purpose boosts and attenuation, and fetches the top items.
func (s *Service) rank(ctx context.Context, r *Request, keep int, withTiers bool) (*ranking, error) {
	var err error
	rk := &ranking{purpose: r.Purpose, lanes: map[string]LaneStat{}, asOf: time.Now().UTC()}
	if r.AsOf != nil {
		rk.asOf = r.AsOf.UTC()
	}
	if rk.purpose == "" {
		rk.purpose, rk.purposeInferred = inferPurpose(r.Query, r.Cues), true
	}
	// The lanes run concurrently, each on its own pooled connection (the graph lane after the
	// exact lane, whose entities it starts from). Whether the space exists is asked alongside
	// them, and the question's time windows are read meanwhile (both are checked after the
	// lanes), so neither adds to the checkout's critical path.
	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		results  []laneResult
		exact    laneResult
		recent   laneResult
		spaceErr error
		when     timeWindows
	)
	// The lanes' events are read as the lanes return (prefetch.go).
	prefetch := newEventPrefetch(ctx, s, r, rk.asOf)
	record := func(res laneResult, start time.Time) laneResult {
		res.took = time.Since(start)
		laneSpan(ctx, r.SpaceID, &res, start)
		mu.Lock()
		results = append(results, res)
		mu.Unlock()
		prefetch.add(res.items)
		return res
	}
	launch := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	// The policy is read first: its weights decide which lanes run.
	if rk.policy, err = s.CurrentPolicy(ctx, r.SpaceID); err != nil {
		return nil, err
	}
	weigh := s.laneWeigher(rk.policy, rk.purpose)
	// A lane is off when the request switches it off or the purpose weighs it 0 (it would
	// add nothing to the fusion, so it does not run).
	off := func(name string) bool {
		if !r.laneOn(name) || weigh(name) == 0 {
			mu.Lock()
			rk.lanes[name] = LaneStat{Off: true}
			mu.Unlock()
			return true
		}
		return false
	}
	launch(func() { spaceErr = s.requireSpace(ctx, r.SpaceID) })
	launch(func() { when = parseTimeWindows(r.Query, rk.asOf) })
	// The PPR lane starts from the exact and vector lanes' results (ppr.go).
	seeds := newPPRSeeds()
	if !off(LaneVector) && s.cfg.Embedder != nil {
		launch(func() { start := time.Now(); seeds.vector <- record(s.laneVector(ctx, r), start) })
	} else {
		if s.cfg.Embedder == nil && r.laneOn(LaneVector) {
			rk.lanes[LaneVector] = LaneStat{Off: true, Error: "no embedder configured"}
		}
		seeds.vector <- laneResult{}
	}
	if !off(LanePPR) {
		launch(func() {
			e, v := <-seeds.exact, <-seeds.vector
			start := time.Now()
			record(s.lanePPR(ctx, s.pool, r, e, v, rk.asOf), start)
		})
	}
	launch(func() {
		if !off(LaneExact) {
			start := time.Now()
			exact = record(s.laneExact(ctx, s.pool, r, rk.asOf), start)
		}
		seeds.exact <- exact
		if !off(LaneGraph) {
			start := time.Now()
			record(s.laneGraph(ctx, s.pool, r, exact.entities, exact.specs, rk.asOf), start)
		}
	})
	// An acknowledged append is found by the next checkout: by the verbatim lane while it is
	// past the projection watermark, by the keyword lane once projected. The two lanes read in
	// their own snapshots, so the keyword lane reads the watermark before its query and the
	// verbatim lane reads past that one: an event projected in between is in the verbatim lane.
	floor := make(chan *int64, 1)
	if !off(LaneKeyword) {
		launch(func() {
			if wm, err := queries.Watermark(ctx, s.pool, r.SpaceID); err != nil {
				floor <- nil
			} else {
				floor <- &wm
			}
			start := time.Now()
			kw := record(s.laneKeyword(ctx, s.pool, r, rk.asOf, rk.policy.KeywordByScore), start)
			if kw.err == nil && !off(LaneRemedy) {
				launch(func() { start := time.Now(); record(s.laneRemedy(ctx, s.pool, r, kw, rk.asOf), start) })
			}
			if kw.err == nil && !off(LaneReply) {
				start = time.Now()
				record(s.laneReply(ctx, s.pool, r, kw.items, rk.asOf, rk.policy.ReplyAfterStatements), start)
			}
		})
	} else {
		// The reply and remedy lanes follow the keyword lane's hits: without them they have
		// nothing to follow.
		for _, lane := range []string{LaneReply, LaneRemedy} {
			if !off(lane) {
				mu.Lock()
				rk.lanes[lane] = LaneStat{Off: true, Error: "the keyword lane is off"}
				mu.Unlock()
			}
		}
	}
	if !off(LaneTopic) {
		launch(func() { start := time.Now(); record(s.laneTopic(ctx, s.pool, r, rk.asOf), start) })
	}
	var sideErr error
	launch(func() {
		if !off(LaneVerbatim) {
			var f *int64
			if r.laneOn(LaneKeyword) && weigh(LaneKeyword) != 0 {
				f = <-floor
			}
			start := time.Now()
			record(s.laneVerbatim(ctx, s.pool, r, rk.asOf, f), start)
		}
		// Without a session the recent lane has no session to replay: it stays out of the
		// ranking (the space's latest events are not evidence for a question).
		if r.SessionID == "" && r.laneOn(LaneRecent) {
			mu.Lock()
			rk.lanes[LaneRecent] = LaneStat{Off: true, Error: "no session_id"}
			mu.Unlock()
		} else if !off(LaneRecent) {
			start := time.Now()
			recent = record(s.laneRecent(ctx, s.pool, r, rk.asOf), start)
		}
		var err error
		if rk.lag, err = queries.ProjectionLag(ctx, s.pool, r.SpaceID); err != nil {
			sideErr = err
			return
		}
		if withTiers {
			rk.stable, sideErr = queries.StableFacts(ctx, s.pool, dbsqlc.StableFactsParams{SpaceID: r.SpaceID, AsOf: rk.asOf, OmitToolState: rk.policy.StableOmitsToolState, MaxRows: stableK})
		}
	})
	wg.Wait()
	if spaceErr != nil {
		return nil, spaceErr
	}
	if sideErr != nil {
		return nil, fmt.Errorf("checkout %q: %w", r.SpaceID, sideErr)
	}
	rk.recent = recent.items
	// Fuse in lane order, so equal scores always add up the same way.
	slices.SortFunc(results, func(a, b laneResult) int { return strings.Compare(a.name, b.name) })
	for _, l := range results {
		st := LaneStat{Count: len(l.items), MS: float64(l.took.Microseconds()) / 1000}
		if l.err != nil {
			if errors.Is(l.err, context.Canceled) || errors.Is(l.err, context.DeadlineExceeded) {
				return nil, fmt.Errorf("checkout %q: %w", r.SpaceID, l.err)
			}
			// A failing lane is reported, not fatal: the others still answer.
			st.Error = l.err.Error()
			s.cfg.Logger.WarnContext(ctx, "checkout lane failed", "lane", l.name, "space_id", r.SpaceID, "error", l.err)
		}
		rk.lanes[l.name] = st
	}
	rk.fused = fuse(rk.policy.Mechanism(), weigh, results)
	need := map[string]bool{}
	var ids []string
	add := func(id string) {
		if !need[id] {
			need[id] = true
			ids = append(ids, id)
		}
	}
	for i, c := range rk.fused {
		if i == keep*2+laneK {
			break
		}
		add(c.itemID)
	}
	for _, id := range rk.recent {
		add(id)
	}
	for _, id := range rk.stable {
		add(id)
	}
	rk.items, rk.previous, err = fetchItems(ctx, s.pool, r.SpaceID, r.Query, ids, rk.asOf, !r.plain(), prefetch.wait())
	if err != nil {
		return nil, fmt.Errorf("checkout %q: %w", r.SpaceID, err)
	}
	// Purpose boosts and attenuation, then the session context, then re-sort; bookkeeping
	// never surfaces.
	kept := rk.fused[:0]
	rk.speaker = speakerOf(r.Query)
	named := newSpeakerNamer(r.Query)
	for _, c := range rk.fused {
		it := rk.items[c.itemID]
		if it == nil {
			continue
		}
		c.score *= rk.policy.KindBoost(rk.purpose, it.boostKind)
		if rk.speaker != "" && it.role == rk.speaker {
			c.score *= rk.policy.SpeakerBoost
		}
		if named.names(it.speaker) {
			c.score *= rk.policy.NamedSpeakerBoost
		}
		if when.matches(it) {
			c.score *= rk.policy.TemporalBoost
		}
		if it.Labels.Attenuated {
			if it.Labels.Invalidated != "" {
				c.score *= rk.policy.Mechanism().AttenuateInvalidated
			} else {
				c.score *= rk.policy.Mechanism().AttenuateClosed
			}
		}
		kept = append(kept, c)
	}
	rk.fused = kept
	if !r.plain() {
		if !r.IncludeAttenuated {
			if err := fetchRepeated(ctx, s.pool, r, rk); err != nil {
				return nil, fmt.Errorf("checkout %q: %w", r.SpaceID, err)
			}
		}
		rk.fused = applySalience(r, rk, rk.fused)
	}
	if err := applyCues(ctx, s.pool, rk.policy.Mechanism(), r.SpaceID, r.Cues, rk.fused, rk.items); err != nil {
		return nil, fmt.Errorf("checkout %q: %w", r.SpaceID, err)
	}
	addSessionContext(rk.policy.Mechanism().SessionContextShare, rk.fused, rk.items)
	sortScored(rk.fused)
	if rk.policy.CollapseRepeatedFacts && !r.plain() {
		rk.fused = collapseRepeatedFacts(rk.fused, rk.items)
	}
	return rk, nil
}

// stableK caps the stable tier's candidate facts.
const stableK = 40

func (s *Service) requireSpace(ctx context.Context, space string) error {
	ok, err := s.store.SpaceExists(ctx, space)
	if err != nil {
		return fmt.Errorf("checkout %q: %w", space, err)
	}
	if !ok {
		return fmt.Errorf("%w: space %q has no events", eventloom.ErrNotFound, space)
	}
	return nil
}
