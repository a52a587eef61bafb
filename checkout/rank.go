package checkout

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
)

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
	items           map[string]*rankedItem
	previous        []*rankedItem
	stable          []string
	// salience is the salience diagnostics (nil with the plain profile).
	salience *SalienceStats
	// policy is the retrieval policy the ranking used.
	policy *Policy
	// question is the checkout's question, analysed once.
	question *question
	// fetch reads the ranking's items.
	fetch itemFetch
	// noSpace: the space has no events; the answer is empty and records nothing.
	noSpace bool
}

// rank answers r's question: it reads the space's policy, analyses the question once with the
// policy's mechanism, runs the lanes (lanePlan, runLanes) beside the side reads, fuses them,
// reads the best candidates' items and rescores them (rescoreSteps). keep is how many items
// the caller shows; withTiers reads the stable tier's facts too.
func (s *Service) rank(ctx context.Context, r *Request, keep int, withTiers bool) (*ranking, error) {
	rk := &ranking{lanes: map[string]LaneStat{}, asOf: time.Now().UTC()}
	if r.AsOf != nil {
		rk.asOf = r.AsOf.UTC()
	}
	var err error
	if rk.policy, err = s.CurrentPolicy(ctx, r.SpaceID); err != nil {
		return nil, err
	}
	m := mechanismOf(rk.policy)
	q := newQuestion(r, rk.asOf, m)
	rk.question, rk.purpose, rk.purposeInferred, rk.speaker = q, q.purpose, q.purposeInferred, q.asked
	rk.fetch = s.newItemFetch(r, q, rk.asOf, m)
	in := s.newLaneInput(r, q, rk.asOf, rk.policy)
	// The lanes' events are read as the lanes return (prefetch.go).
	prefetch := newEventPrefetch(ctx, rk.fetch)
	side := s.startSideReads(ctx, r, rk, withTiers)
	results, offs := runLanes(ctx, in, lanePlan, prefetch)
	if err := side.wait(); err != nil {
		return nil, err
	}
	rk.noSpace = !side.exists
	if err := s.reportLanes(ctx, r, rk, results, offs); err != nil {
		return nil, err
	}
	rk.recent = in.result(LaneRecent).items
	rk.fused = fuse(m, in.weigh, results)
	if rk.items, rk.previous, err = rk.fetch.items(ctx, rk.candidates(keep, m), prefetch.wait()); err != nil {
		return nil, fmt.Errorf("checkout %q: %w", r.SpaceID, err)
	}
	for _, step := range rescoreSteps {
		if err := step(ctx, s, r, rk); err != nil {
			return nil, fmt.Errorf("checkout %q: %w", r.SpaceID, err)
		}
	}
	return rk, nil
}

// candidates are the ids of the items to read: the best 2·keep+m.LaneK fused candidates, then
// the recent lane's and the stable tier's, each once.
func (rk *ranking) candidates(keep int, m *Mechanism) []string {
	need := map[string]bool{}
	var ids []string
	add := func(id string) {
		if !need[id] {
			need[id] = true
			ids = append(ids, id)
		}
	}
	for i, c := range rk.fused {
		if i == keep*2+m.LaneK {
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
	return ids
}

// reportLanes sets rk.lanes from the lanes' results and the lanes that were off. A failing lane
// is reported, not fatal (the others still answer), unless the checkout was cancelled or timed
// out.
func (s *Service) reportLanes(ctx context.Context, r *Request, rk *ranking, results []laneResult, offs map[string]LaneStat) error {
	for name, st := range offs {
		rk.lanes[name] = st
	}
	for _, l := range results {
		st := LaneStat{Count: len(l.items), MS: float64(l.took.Microseconds()) / 1000}
		if l.err != nil {
			if errors.Is(l.err, context.Canceled) || errors.Is(l.err, context.DeadlineExceeded) {
				return fmt.Errorf("checkout %q: %w", r.SpaceID, l.err)
			}
			st.Error = l.err.Error()
			s.cfg.Logger.WarnContext(ctx, "checkout lane failed", "lane", l.name, "space_id", r.SpaceID, "error", l.err)
		}
		rk.lanes[l.name] = st
	}
	return nil
}

// sideReads are the reads a ranking makes beside the lanes: whether the space exists, the
// projection lag and, for a packet, the stable tier's facts.
type sideReads struct {
	wg            sync.WaitGroup
	exists        bool
	spaceErr, err error
}

// startSideReads starts the side reads, which set rk.lag and rk.stable.
func (s *Service) startSideReads(ctx context.Context, r *Request, rk *ranking, withTiers bool) *sideReads {
	sr := &sideReads{}
	sr.wg.Add(2)
	go func() {
		defer sr.wg.Done()
		sr.exists, sr.spaceErr = s.spaceExists(ctx, r.SpaceID)
	}()
	go func() {
		defer sr.wg.Done()
		var err error
		if rk.lag, err = queries.ProjectionLag(ctx, s.pool, r.SpaceID); err != nil {
			sr.err = fmt.Errorf("checkout %q: %w", r.SpaceID, err)
			return
		}
		if withTiers {
			rk.stable, err = queries.StableFacts(ctx, s.pool, dbsqlc.StableFactsParams{SpaceID: r.SpaceID, AsOf: rk.asOf,
				OmitToolState: rk.policy.StableOmitsToolState, MaxRows: int32(mechanismOf(rk.policy).StableK)})
			if err != nil {
				sr.err = fmt.Errorf("checkout %q: %w", r.SpaceID, err)
			}
		}
	}()
	return sr
}

// wait waits for the side reads and returns the first error: the space's, then the others'.
func (sr *sideReads) wait() error {
	sr.wg.Wait()
	if sr.spaceErr != nil {
		return sr.spaceErr
	}
	return sr.err
}
