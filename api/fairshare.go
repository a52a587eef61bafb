package api

import (
	"context"
	"sync"
)

// fairGate admits database work onto one connection pool so that no tenant can take the pool
// from the others. It has capacity slots, the pool's connections; a request takes as many as
// it may use at once (one, or a few for a checkout whose lanes run side by side). It holds
// every tenant to at most share of them at all times, whether or not anyone else is waiting:
// a tenant's slow work (a Cypher query that runs for its whole timeout) can then never hold
// the connections another tenant's next request needs, which a gate that lent idle slots out
// could not promise without taking them back.
//
// A request that cannot enter waits in a queue. When slots free, the waiting tenant holding
// the fewest slots goes first (max-min fairness, ties in arrival order); a tenant's own
// requests enter in arrival order; a tenant at its share never blocks the others. The queue is
// bounded by the per-caller in-flight budgets ahead of it, and each wait by the request's
// deadline.
type fairGate struct {
	capacity, share int
	// name is the pool's ("hot-path" or "analytics"), which names its shared budget.
	name string

	mu      sync.Mutex
	used    int
	held    map[string]int // slots held per tenant; a tenant holding none is absent
	waiting []*gateWaiter  // in arrival order
}

// gateWaiter is one request waiting to enter.
type gateWaiter struct {
	key      string
	n        int
	admitted chan struct{} // closed when the request holds its slots
}

// newFairGate returns a gate of capacity slots (at least 1) that lets each tenant hold at most
// half of them (at least 1).
func newFairGate(capacity int) *fairGate {
	capacity = max(capacity, 1)
	return &fairGate{capacity: capacity, share: max(capacity/2, 1), name: "hot-path", held: map[string]int{}}
}

// weight is how many slots a request of n connections takes: at least 1 and at most the
// share, so that a request needing more than a share still runs, alone for its tenant.
func (g *fairGate) weight(n int) int { return min(max(n, 1), g.share) }

// acquire waits until the tenant key may hold weight(n) more slots and takes them, or returns
// ctx's error when ctx ends first. Whoever acquired calls release with the same key and n once
// the request's database work has ended.
func (g *fairGate) acquire(ctx context.Context, key string, n int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w := &gateWaiter{key: key, n: g.weight(n), admitted: make(chan struct{})}
	g.mu.Lock()
	g.waiting = append(g.waiting, w)
	g.admit()
	g.mu.Unlock()
	select {
	case <-w.admitted:
		return nil
	case <-ctx.Done():
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-w.admitted:
		// Admitted while ctx ended: give the slots back to whoever waits next.
		g.free(w.key, w.n)
	default:
		for i, o := range g.waiting {
			if o == w {
				g.waiting = append(g.waiting[:i], g.waiting[i+1:]...)
				break
			}
		}
	}
	// A request leaving the queue may have been the one the others waited behind.
	g.admit()
	return ctx.Err()
}

// release gives back the slots that acquire(key, n) took.
func (g *fairGate) release(key string, n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.free(key, g.weight(n))
	g.admit()
}

// free returns n of key's slots; mu is held.
func (g *fairGate) free(key string, n int) {
	g.used -= n
	if g.held[key] -= n; g.held[key] <= 0 {
		delete(g.held, key)
	}
}

// admit lets waiting requests in while one may enter; mu is held. Each round it considers
// each tenant's earliest waiter (a tenant's requests enter in order), skips those that would
// take their tenant past its share, and picks the one whose tenant holds the fewest slots
// (the earliest on a tie). If that one does not fit in the free slots, nobody passes it: a
// request of several slots is not starved by lighter ones behind it.
func (g *fairGate) admit() {
	for {
		best := -1
		first := map[string]bool{}
		for i, w := range g.waiting {
			if first[w.key] {
				continue
			}
			first[w.key] = true
			if g.held[w.key]+w.n > g.share {
				continue
			}
			if best < 0 || g.held[w.key] < g.held[g.waiting[best].key] {
				best = i
			}
		}
		if best < 0 || g.used+g.waiting[best].n > g.capacity {
			return
		}
		w := g.waiting[best]
		g.waiting = append(g.waiting[:best], g.waiting[best+1:]...)
		g.used += w.n
		g.held[w.key] += w.n
		close(w.admitted)
	}
}

// holding reports the slots key holds and the requests waiting in all, for tests.
func (g *fairGate) holding(key string) (held, waiting int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.held[key], len(g.waiting)
}
