package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"
)

// acquireAsync starts acquire(key, n) and returns a channel receiving its result.
func acquireAsync(ctx context.Context, g *fairGate, key string, n int) <-chan error {
	done := make(chan error, 1)
	go func() { done <- g.acquire(ctx, key, n) }()
	return done
}

// waitQueued waits until the gate has want requests waiting.
func waitQueued(t *testing.T, g *fairGate, want int) {
	t.Helper()
	require.Eventually(t, func() bool { _, w := g.holding(""); return w == want }, 10*time.Second, time.Millisecond)
}

func entered(done <-chan error) bool {
	select {
	case err := <-done:
		return err == nil
	default:
		return false
	}
}

func TestFairGate_ATenantHoldsAtMostHalfAndOthersEnterAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newFairGate(4)
	require.NoError(t, g.acquire(ctx, "a", 1))
	require.NoError(t, g.acquire(ctx, "a", 1))
	third := acquireAsync(ctx, g, "a", 1)
	waitQueued(t, g, 1)
	require.False(t, entered(third), "a already holds its share (2 of 4)")

	// b enters at once, though a waits.
	require.NoError(t, g.acquire(ctx, "b", 1))
	held, _ := g.holding("b")
	require.Equal(t, 1, held)

	// a's waiter enters when a releases one of its own.
	g.release("a", 1)
	require.NoError(t, <-third)
	held, waiting := g.holding("a")
	require.Equal(t, 2, held)
	require.Zero(t, waiting)
}

func TestFairGate_AFreedSlotGoesToTheTenantHoldingFewest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newFairGate(6) // share 3
	for range 3 {
		require.NoError(t, g.acquire(ctx, "a", 1))
	}
	for range 2 {
		require.NoError(t, g.acquire(ctx, "b", 1))
	}
	require.NoError(t, g.acquire(ctx, "c", 1)) // full: a 3, b 2, c 1
	bWaits := acquireAsync(ctx, g, "b", 1)
	waitQueued(t, g, 1)
	cWaits := acquireAsync(ctx, g, "c", 1)
	waitQueued(t, g, 2)

	// a frees a slot: c (holding 1) goes before b (holding 2), though b came first.
	g.release("a", 1)
	require.NoError(t, <-cWaits)
	require.False(t, entered(bWaits))
	g.release("c", 1)
	require.NoError(t, <-bWaits)
}

func TestFairGate_AWaitEndsWithItsContextAndLeaksNoSlot(t *testing.T) {
	t.Parallel()
	g := newFairGate(2) // share 1
	require.NoError(t, g.acquire(context.Background(), "a", 1))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	err := g.acquire(ctx, "a", 1)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	held, waiting := g.holding("a")
	require.Equal(t, 1, held)
	require.Zero(t, waiting, "the expired request left the queue")

	// An ended context takes no slot, even a free one.
	done, stop := context.WithCancel(context.Background())
	stop()
	require.ErrorIs(t, g.acquire(done, "b", 1), context.Canceled)
	held, _ = g.holding("b")
	require.Zero(t, held)
	g.release("a", 1)
	g.mu.Lock()
	defer g.mu.Unlock()
	require.Zero(t, g.used)
	require.Empty(t, g.held)
}

func TestFairGate_AHeavyRequestIsNotPassedByLighterOnes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newFairGate(8) // share 4
	for _, k := range []string{"a", "b"} {
		for range 3 {
			require.NoError(t, g.acquire(ctx, k, 1))
		}
	}
	// c needs 4 (its whole share) and 2 are free: it waits, and d (needing 1) waits behind it
	// rather than taking the free slots c is waiting for.
	cWaits := acquireAsync(ctx, g, "c", 4)
	waitQueued(t, g, 1)
	dWaits := acquireAsync(ctx, g, "d", 1)
	waitQueued(t, g, 2)
	require.False(t, entered(dWaits))
	g.release("a", 1)
	g.release("b", 1)
	require.NoError(t, <-cWaits)
	g.release("a", 1)
	require.NoError(t, <-dWaits)

	// A tenant's own requests enter in order: a's 3-slot request is not passed by its 1-slot
	// one while a holds 2 of its 4.
	g.release("a", 1)
	g.release("b", 1)
	g.release("b", 1) // a holds 0, b 0, c 4, d 1: 5 of 8
	require.NoError(t, g.acquire(ctx, "a", 2))
	aHeavy := acquireAsync(ctx, g, "a", 3)
	waitQueued(t, g, 1)
	aLight := acquireAsync(ctx, g, "a", 1)
	waitQueued(t, g, 2)
	require.False(t, entered(aLight), "a's 1-slot request waits behind its 3-slot one")
	g.release("a", 2)
	g.release("c", 4)
	require.NoError(t, <-aHeavy)
	require.NoError(t, <-aLight)

	// A request of more slots than the share takes the share.
	require.Equal(t, 4, g.weight(100))
	require.Equal(t, 1, g.weight(0))
}

// TestFairGate_UnderContentionNoTenantPassesItsShare runs many tenants' requests at once
// (run it with -race) and checks, inside each admitted request, that no tenant ever holds more
// than its share and the gate never more than its capacity, and that every request ends.
func TestFairGate_UnderContentionNoTenantPassesItsShare(t *testing.T) {
	t.Parallel()
	const capacity, tenants, perTenant = 6, 4, 200
	g := newFairGate(capacity)
	var total atomic.Int64
	inside := make([]atomic.Int64, tenants)
	var wg sync.WaitGroup
	for ten := range tenants {
		key := fmt.Sprint("t", ten)
		for i := range perTenant {
			wg.Go(func() {
				n := 1 + i%3
				ctx := context.Background()
				if i%10 == 0 { // some give up quickly
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, time.Millisecond)
					defer cancel()
				}
				if err := g.acquire(ctx, key, n); err != nil {
					return
				}
				w := int64(g.weight(n))
				if v := inside[ten].Add(w); v > int64(g.share) {
					t.Errorf("tenant %s holds %d slots, past its share %d", key, v, g.share)
				}
				if v := total.Add(w); v > capacity {
					t.Errorf("%d slots held, past the capacity %d", v, capacity)
				}
				time.Sleep(50 * time.Microsecond)
				inside[ten].Add(-w)
				total.Add(-w)
				g.release(key, n)
			})
		}
	}
	wg.Wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	require.Zero(t, g.used)
	require.Empty(t, g.held)
	require.Empty(t, g.waiting)
}

// TestOpenAPI_SpaceRoutesDocumentTheirLimits fails when an operation on a space does not
// document the answers its guards can give: 429 too_many_requests (limitInFlight) and 503
// pool_busy (shareOf) on every one, 413 response_too_large on exactly the capped ones (the
// others may answer 413 body_too_large).
func TestOpenAPI_SpaceRoutesDocumentTheirLimits(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(openAPI, &doc))
	for i := range spaceRoutes {
		rt := &spaceRoutes[i]
		path, method := spacePrefix+rt.pattern, strings.ToLower(rt.method)
		raw, ok := doc.Paths[path][method]
		require.True(t, ok, "%s %s is not described", method, path)
		var op struct {
			Responses map[string]struct {
				Ref string `json:"$ref"`
			} `json:"responses"`
		}
		require.NoError(t, json.Unmarshal(raw, &op))
		require.Equal(t, "#/components/responses/TooManyRequests", op.Responses["429"].Ref, "%s %s", method, path)
		require.Equal(t, "#/components/responses/PoolBusy", op.Responses["503"].Ref, "%s %s", method, path)
		if rt.capped() {
			require.Equal(t, "#/components/responses/ResponseTooLarge", op.Responses["413"].Ref, "%s %s", method, path)
		} else if r, ok := op.Responses["413"]; ok {
			require.Equal(t, "#/components/responses/BodyTooLarge", r.Ref, "%s %s is not capped: only its body can be too large", method, path)
		}
	}
}

// spaceRequest is a request under /v1/spaces/{space} for space, as chi routes it, with ctx.
func spaceRequest(ctx context.Context, space string) *http.Request {
	rctx := chi.NewRouteContext()
	rctx.URLParams.Add("space", space)
	return httptest.NewRequestWithContext(context.WithValue(ctx, chi.RouteCtxKey, rctx), http.MethodGet, "/v1/spaces/"+space+"/events", nil)
}

// TestShareOf_AWaitPastTheDeadlineIs503PoolBusyAndOtherSpacesEnter: with auth off the caller
// is the space. While space a holds its whole share of the pool, another request of a waits
// and gets 503 pool_busy (with Retry-After, the pool and the share) when its deadline passes,
// and space b's request enters at once.
func TestShareOf_AWaitPastTheDeadlineIs503PoolBusyAndOtherSpacesEnter(t *testing.T) {
	t.Parallel()
	s := &server{cfg: Config{}.WithDefaults(), hotGate: newFairGate(4), analyticsGate: newFairGate(4)}
	require.NoError(t, s.hotGate.acquire(context.Background(), "space:a", 2))
	ran := 0
	h := s.shareOf(everyday, func(*server, *http.Request) (any, error) { ran++; return "ok", nil })

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := h(s, spaceRequest(ctx, "a"))
	var ae *apiError
	require.ErrorAs(t, err, &ae)
	require.Equal(t, http.StatusServiceUnavailable, ae.status)
	require.Equal(t, "pool_busy", ae.code)
	require.Equal(t, retryAfterSeconds, ae.retryAfter)
	require.Equal(t, map[string]any{"pool": "hot-path", "share": 2, "retry_after_seconds": retryAfterSeconds}, ae.details)
	require.Zero(t, ran)

	v, err := h(s, spaceRequest(context.Background(), "b"))
	require.NoError(t, err)
	require.Equal(t, "ok", v)
	held, waiting := s.hotGate.holding("space:b")
	require.Zero(t, held, "b's slot is given back when its handler returns")
	require.Zero(t, waiting, "a's request left the queue when its deadline passed")
}
