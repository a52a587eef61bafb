package checkout

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/embed"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/sql"
)

// Config configures a Service.
type Config struct {
	// TextSearchConfig must match the projector's. Defaults to "english".
	TextSearchConfig string
	// Embedder embeds queries for the vector lane; nil switches the lane off.
	Embedder embed.Embedder
	// EfSearch is HNSW's candidate list size for the vector lane. Defaults to 40.
	EfSearch int
	// Logger defaults to discarding.
	Logger *slog.Logger
}

// Service answers checkouts and raw queries.
type Service struct {
	pool  *pgxpool.Pool
	store *eventloom.Store
	cfg   Config
}

// New returns a Service reading through store's pool and recording surfacing through store.
func New(store *eventloom.Store, cfg Config) *Service {
	if cfg.TextSearchConfig == "" {
		cfg.TextSearchConfig = "english"
	}
	if cfg.EfSearch == 0 {
		cfg.EfSearch = 40
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{pool: store.Pool(), store: store, cfg: cfg}
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
	asOf            time.Time
	fused           []*scored
	lanes           map[string]LaneStat
	recent          []string
	lag             int64
	items           map[string]*Item
	previous        []*Item
	stable          []string
}

// QueryResult is the body of a raw query: ranked items with their score components.
type QueryResult struct {
	Purpose         string              `json:"purpose"`
	PurposeInferred bool                `json:"purpose_inferred"`
	Items           []*Item             `json:"items"`
	Lanes           map[string]LaneStat `json:"lanes"`
	ProjectionLag   int64               `json:"projection_lag"`
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
	res := &QueryResult{Purpose: rk.purpose, PurposeInferred: rk.purposeInferred, Lanes: rk.lanes, ProjectionLag: rk.lag, Items: []*Item{}}
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

// rank runs the lanes in one read-only snapshot (the vector lane on its own connection),
// fuses them, applies purpose boosts and attenuation, and fetches the top items.
func (s *Service) rank(ctx context.Context, r *Request, keep int, withTiers bool) (*ranking, error) {
	rk := &ranking{purpose: r.Purpose, lanes: map[string]LaneStat{}, asOf: time.Now().UTC()}
	if r.AsOf != nil {
		rk.asOf = r.AsOf.UTC()
	}
	if rk.purpose == "" {
		rk.purpose, rk.purposeInferred = InferPurpose(r.Query), true
	}
	if err := s.requireSpace(ctx, r.SpaceID); err != nil {
		return nil, err
	}
	// The vector lane calls the embedder and its own connection, alongside the SQL lanes.
	var vec laneResult
	var wg sync.WaitGroup
	if r.laneOn(LaneVector) && s.cfg.Embedder != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			vec = s.laneVector(ctx, r, rk.asOf)
			vec.took = time.Since(start)
		}()
	}
	var results []laneResult
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, sql.Query("checkout/projection_lag"), r.SpaceID).Scan(&rk.lag); err != nil {
			return err
		}
		run := func(name string, f func() laneResult) {
			if !r.laneOn(name) {
				rk.lanes[name] = LaneStat{Off: true}
				return
			}
			start := time.Now()
			res := f()
			res.took = time.Since(start)
			results = append(results, res)
		}
		var exact laneResult
		run(LaneExact, func() laneResult { exact = s.laneExact(ctx, tx, r, rk.asOf); return exact })
		run(LaneKeyword, func() laneResult { return s.laneKeyword(ctx, tx, r, rk.asOf) })
		run(LaneGraph, func() laneResult { return s.laneGraph(ctx, tx, r, exact.entities, rk.asOf) })
		run(LaneVerbatim, func() laneResult { return s.laneVerbatim(ctx, tx, r, rk.asOf) })
		var recent laneResult
		run(LaneRecent, func() laneResult { recent = s.laneRecent(ctx, tx, r, rk.asOf); return recent })
		rk.recent = recent.items
		if withTiers {
			rows, err := tx.Query(ctx, sql.Query("checkout/stable_facts"), r.SpaceID, rk.asOf, stableK)
			if err != nil {
				return err
			}
			if rk.stable, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
				return err
			}
		}
		wg.Wait()
		if !r.laneOn(LaneVector) {
			rk.lanes[LaneVector] = LaneStat{Off: true}
		} else {
			if s.cfg.Embedder == nil {
				rk.lanes[LaneVector] = LaneStat{Off: true, Error: "no embedder configured"}
			} else {
				results = append(results, vec)
			}
		}
		for _, l := range results {
			st := LaneStat{Count: len(l.items), MS: float64(l.took.Microseconds()) / 1000}
			if l.err != nil {
				if errors.Is(l.err, context.Canceled) || errors.Is(l.err, context.DeadlineExceeded) {
					return l.err
				}
				// A failing lane is reported, not fatal: the others still answer.
				st.Error = l.err.Error()
				s.cfg.Logger.WarnContext(ctx, "checkout lane failed", "lane", l.name, "space_id", r.SpaceID, "error", l.err)
			}
			rk.lanes[l.name] = st
		}
		rk.fused = fuse(rk.purpose, results)
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
		var err error
		rk.items, rk.previous, err = fetchItems(ctx, tx, r.SpaceID, r.Query, ids, rk.asOf)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("checkout %q: %w", r.SpaceID, err)
	}
	// Purpose boosts and attenuation, then re-sort; bookkeeping never surfaces.
	kept := rk.fused[:0]
	for _, c := range rk.fused {
		it := rk.items[c.itemID]
		if it == nil {
			continue
		}
		c.score *= kindBoost(rk.purpose, it.boostKind)
		if it.Labels.Attenuated {
			if it.Labels.Invalidated != "" {
				c.score *= attenuateInvalidated
			} else {
				c.score *= attenuateClosed
			}
		}
		kept = append(kept, c)
	}
	rk.fused = kept
	sortScored(rk.fused)
	return rk, nil
}

// stableK caps the stable tier's candidate facts.
const stableK = 40

func (s *Service) requireSpace(ctx context.Context, space string) error {
	var ok bool
	if err := s.pool.QueryRow(ctx, sql.Query("eventloom/space_exists"), space).Scan(&ok); err != nil {
		return fmt.Errorf("checkout %q: %w", space, err)
	}
	if !ok {
		return fmt.Errorf("%w: space %q has no events", eventloom.ErrNotFound, space)
	}
	return nil
}
