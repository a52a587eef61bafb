package api

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
