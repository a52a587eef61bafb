package api

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/zaxy/zaxy/internal/slotlock"
)

// Budget names of the shared budgets (Services.SharedBudgets), each followed by the caller
// key: the requests in flight, the analytics requests in flight, and the slots of the
// hot-path and analytics pools' fair shares.
const (
	budgetRequests  = "requests:"
	budgetAnalytics = "analytics:"
	budgetPool      = "pool:"
)

// Waits of a request for its fair share held elsewhere: it asks again after sharedWaitFirst,
// doubling up to sharedWaitMax, until its deadline.
const (
	sharedWaitFirst = 2 * time.Millisecond
	sharedWaitMax   = 50 * time.Millisecond
)

// takenShareKey is the context key of the pool share limitInFlight took for a request
// (a *slotlock.Hold), which shareOf then uses instead of taking its own.
type takenShareKey struct{}

// holdInFlight takes, in one round trip, the caller's slot of the shared in-flight budgets
// (and of the analytics one for an analytics request) and, when free, its fair share of the
// pool the route draws from, returning ctx carrying that share for shareOf; or it names the
// budget that is exhausted across every instance ("requests" or "analytics"). Without shared
// budgets it takes nothing: the per-process counts (inFlight) are the budget.
func (s *server) holdInFlight(ctx context.Context, key string, kind routeKind) (_ context.Context, release func(), over string, err error) {
	if s.shared == nil {
		return ctx, func() {}, "", nil
	}
	gate := s.hotGate
	if kind == analytics {
		gate = s.analyticsGate
	}
	asks := []slotlock.Ask{{Budget: budgetRequests + key, Limit: s.cfg.MaxInFlight, N: 1},
		{Budget: budgetPool + gate.name + ":" + key, Limit: gate.share, N: gate.weight(kind.conns())}}
	if kind == analytics {
		asks = append(asks, slotlock.Ask{Budget: budgetAnalytics + key, Limit: s.cfg.MaxAnalyticsInFlight, N: 1})
	}
	h, err := s.shared.TakeAll(ctx, asks...)
	switch {
	case err != nil:
		return ctx, nil, "", err
	case h[0] == nil:
		over = "requests"
	case len(h) > 2 && h[2] == nil:
		over = "analytics"
	}
	if over != "" {
		for _, x := range h {
			x.Release()
		}
		return ctx, nil, over, nil
	}
	if h[1] != nil {
		ctx = context.WithValue(ctx, takenShareKey{}, h[1])
	}
	return ctx, func() {
		for _, x := range h {
			x.Release()
		}
	}, "", nil
}

// holdShare takes the slots of the caller's fair share of gate's pool across every instance,
// waiting while the caller's requests on other instances hold them, until ctx ends. Every
// instance counts the same share (half of its pool, which must be sized alike on every
// instance), so a caller holds no more connections with N instances than with one. Without
// shared budgets it takes nothing.
func (s *server) holdShare(ctx context.Context, gate *fairGate, key string, n int) (func(), error) {
	if s.shared == nil {
		return func() {}, nil
	}
	if h, ok := ctx.Value(takenShareKey{}).(*slotlock.Hold); ok {
		return h.Release, nil // limitInFlight took it; Release is idempotent
	}
	wait := sharedWaitFirst
	for {
		h, err := s.shared.Take(ctx, budgetPool+gate.name+":"+key, gate.share, gate.weight(n))
		if err != nil {
			return nil, fmt.Errorf("take a shared pool share: %w", err)
		}
		if h != nil {
			return h.Release, nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, sharedWaitMax)
	}
}

// SharedBudgets is what Services.SharedBudgets holds: slots shared by every instance on the
// database (internal/slotlock), opened by OpenSharedBudgets.
type SharedBudgets = slotlock.Locks

// OpenSharedBudgets opens the lease connections of the shared budgets on the database at
// dbURL (conns of them, slotlock.DefaultConns when 0); logger hears of a lost one. Close it
// after the server stops.
func OpenSharedBudgets(ctx context.Context, dbURL string, conns int, logger *slog.Logger) (*SharedBudgets, error) {
	return slotlock.Open(ctx, dbURL, slotlock.Config{Conns: conns, Logger: logger})
}
