package checkout

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/zaxy/zaxy/internal/pgexec"
)

// lane is one way of finding candidates for a question. Each runs on a goroutine of its own
// once the lanes it reads (after) are done, on its own pooled connection: the lanes do not
// share one snapshot, so an append landing meanwhile may show in one lane and not another.
type lane interface {
	// name is the lane's name (Lanes), the key of its weight and its LaneStat.
	name() string
	// after names the lanes whose results this one reads (laneInput.result); it starts when
	// they are done or off.
	after() []string
	// run finds the lane's candidates, best first.
	run(ctx context.Context, in *laneInput) laneResult
}

// gatedLane is a lane that can be off for a reason of its own (no embedder, no session),
// reported as its LaneStat's Error.
type gatedLane interface {
	lane
	// unavailable says why the lane cannot run for this checkout, "" when it can.
	unavailable(in *laneInput) string
}

// followingLane is a lane that follows another lane's hits: it is off when that lane is off,
// and does not run (and reports nothing) when that lane failed.
type followingLane interface {
	lane
	follows() string
}

// readStep is a step of the plan that lanes wait for but that is no lane: it runs when the lane
// it serves runs, and is neither fused nor reported.
type readStep interface {
	lane
	serves() string
}

// laneResult is one lane's ranked item ids, best first.
type laneResult struct {
	name     string
	items    []string
	entities []string  // exact lane: the matched entity ids
	specs    []float64 // exact lane: each matched entity's specificity (lane_exact.sql)
	// scales, when set, multiply each item's fused contribution (parallel to items): the
	// exact and graph lanes scale by the matched entity's specificity, so a match on an
	// entity most items mention adds almost nothing.
	scales []float64
	// relevance, when set, is each item's score in the lane's own measure (parallel to items;
	// the keyword lane's BM25), which fusion does not read: the remedy lane follows only the
	// keyword hits near the best one.
	relevance []float64
	// floor is the watermark step's projection watermark (nil when it could not be read).
	floor *int64
	err   error
	took  time.Duration
}

// laneInput is what every lane of one checkout reads.
type laneInput struct {
	svc *Service
	// db serves the lane's queries (the service's pool).
	db     pgexec.Executor
	req    *Request
	q      *question
	asOf   time.Time
	policy *Policy
	mech   *Mechanism
	// weigh is each lane's fusion weight for the checkout's purpose (Service.laneWeigher).
	weigh func(lane string) float64

	// plan is the lanes runLanes runs.
	plan    []lane
	mu      sync.Mutex
	results map[string]laneResult
}

func (s *Service) newLaneInput(r *Request, q *question, asOf time.Time, pol *Policy) *laneInput {
	return &laneInput{svc: s, db: s.pool, req: r, q: q, asOf: asOf, policy: pol, mech: mechanismOf(pol),
		weigh: s.laneWeigher(r, pol, q.purpose), results: map[string]laneResult{}}
}

// result is the result of the lane named name, which must be one of the reading lane's after
// (an empty result when it was off).
func (in *laneInput) result(name string) laneResult {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.results[name]
}

// offStat says whether lane l is off for this checkout, and its LaneStat when it is: off when
// the request disables it, when it is unavailable (gatedLane), when its weight is 0 (it would
// add nothing to the fusion) or when the lane it follows is off.
func (in *laneInput) offStat(l lane) (LaneStat, bool) {
	name := l.name()
	if rs, ok := l.(readStep); ok {
		name = rs.serves()
	}
	if !laneOn(in.req, name) {
		return LaneStat{Off: true}, true
	}
	if g, ok := l.(gatedLane); ok {
		if why := g.unavailable(in); why != "" {
			return LaneStat{Off: true, Error: why}, true
		}
	}
	if in.weigh(name) == 0 {
		return LaneStat{Off: true}, true
	}
	if f, ok := l.(followingLane); ok {
		if _, off := in.offStat(in.lane(f.follows())); off {
			return LaneStat{Off: true, Error: "the " + f.follows() + " lane is off"}, true
		}
	}
	return LaneStat{}, false
}

// runLanes runs plan: every lane on a goroutine of its own, started when the lanes it reads are
// done. It records each lane's timing and span, hands each lane's items to prefetch as the lane
// returns, and returns the lanes' results in name order (so equal scores always add up the same
// way) and the stats of the lanes that were off.
func runLanes(ctx context.Context, in *laneInput, plan []lane, prefetch *eventPrefetch) ([]laneResult, map[string]LaneStat) {
	in.plan = plan
	done := make(map[string]chan struct{}, len(plan))
	for _, l := range plan {
		done[l.name()] = make(chan struct{})
	}
	for _, l := range plan {
		for _, dep := range l.after() {
			if done[dep] == nil {
				panic("checkout: lane " + l.name() + " runs after " + dep + ", which is not in the plan")
			}
		}
	}
	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		results []laneResult
		offs    = map[string]LaneStat{}
	)
	for _, l := range plan {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(done[l.name()])
			for _, dep := range l.after() {
				<-done[dep]
			}
			if f, ok := l.(followingLane); ok && in.result(f.follows()).err != nil {
				return
			}
			if st, off := in.offStat(l); off {
				if _, ok := l.(readStep); !ok {
					mu.Lock()
					offs[l.name()] = st
					mu.Unlock()
				}
				return
			}
			start := time.Now()
			res := l.run(ctx, in)
			res.took = time.Since(start)
			in.mu.Lock()
			in.results[l.name()] = res
			in.mu.Unlock()
			if _, ok := l.(readStep); ok {
				return
			}
			laneSpan(ctx, in.req.SpaceID, &res, start)
			mu.Lock()
			results = append(results, res)
			mu.Unlock()
			prefetch.add(res.items)
		}()
	}
	wg.Wait()
	slices.SortFunc(results, func(a, b laneResult) int { return strings.Compare(a.name, b.name) })
	return results, offs
}

// lanePlan is every lane of a checkout and the steps they wait for.
var lanePlan = []lane{exactLane{}, graphLane{}, vectorLane{}, pprLane{}, watermarkStep{}, keywordLane{},
	replyLane{}, remedyLane{}, verbatimLane{}, recentLane{}, topicLane{}}

// lane is the lane of the plan named name.
func (in *laneInput) lane(name string) lane {
	for _, l := range in.plan {
		if l.name() == name {
			return l
		}
	}
	panic("checkout: no lane " + name)
}

// laneWeigher returns the lane weights of checkout r for purpose: policy pol's, except the PPR
// lane's (pprWeight).
func (s *Service) laneWeigher(r *Request, pol *Policy, purpose string) func(lane string) float64 {
	ppr := s.pprWeight(r, pol, purpose)
	return func(lane string) float64 {
		if lane == LanePPR {
			return ppr
		}
		return pol.Weight(purpose, lane)
	}
}

// pprWeight is the PPR lane's weight for checkout r: the request's ppr_weight when it sets
// one, else policy pol's "ppr" lane weight when pol names one (for purpose or general), else
// Config.PPRWeight. The built-in policies name none, so by default the server's weight
// decides, and it is 0: the lane does not run.
func (s *Service) pprWeight(r *Request, pol *Policy, purpose string) float64 {
	if r.PPRWeight != nil {
		return *r.PPRWeight
	}
	if w, ok := pol.LaneWeights[purpose][LanePPR]; ok {
		return w
	}
	if w, ok := pol.LaneWeights[PurposeGeneral][LanePPR]; ok {
		return w
	}
	return s.cfg.PPRWeight
}
