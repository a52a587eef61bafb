package slotlock_test

import (
	"context"
	"net/url"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/internal/slotlock"
	"github.com/zaxy/zaxy/testcontainers"
)

// open returns Locks on dbURL whose lease connections are named name (application_name).
func open(t testing.TB, dbURL, name string, conns int) *slotlock.Locks {
	t.Helper()
	u, err := url.Parse(dbURL)
	require.NoError(t, err)
	q := u.Query()
	q.Set("application_name", name)
	u.RawQuery = q.Encode()
	l, err := slotlock.Open(context.Background(), u.String(), slotlock.Config{Conns: conns})
	require.NoError(t, err)
	t.Cleanup(l.Close)
	return l
}

func take(t *testing.T, l *slotlock.Locks, budget string, limit, n int) *slotlock.Hold {
	t.Helper()
	h, err := l.Take(context.Background(), budget, limit, n)
	require.NoError(t, err)
	return h
}

func TestLocks_TwoProcessesShareOneBudget(t *testing.T) {
	db := testcontainers.NewDatabase(t)
	a, b := open(t, db.AppURL, "instance-a", 2), open(t, db.AppURL, "instance-b", 2)

	two := take(t, a, "req:t1", 3, 2)
	require.NotNil(t, two)
	require.Len(t, two.Slots(), 2)
	one := take(t, b, "req:t1", 3, 1)
	require.NotNil(t, one, "the third slot is free")
	require.Nil(t, take(t, b, "req:t1", 3, 1), "all three are held, two by the other process")
	require.Nil(t, take(t, a, "req:t1", 3, 1))
	require.NotNil(t, take(t, b, "req:t2", 3, 3), "another budget is apart")

	two.Release()
	two.Release() // a second release does nothing
	a.Flush()     // Release leaves the unlock to the connection's next statement
	again := take(t, b, "req:t1", 3, 2)
	require.NotNil(t, again, "released slots are free to every process")
	require.Nil(t, take(t, a, "req:t1", 3, 1))
}

// A session's advisory locks are reentrant: the holds of one lease connection must still
// count one slot each.
func TestLocks_OneConnectionTakesEachSlotOnce(t *testing.T) {
	db := testcontainers.NewDatabase(t)
	l := open(t, db.AppURL, "one-conn", 1)
	h1, h2 := take(t, l, "b", 2, 1), take(t, l, "b", 2, 1)
	require.NotNil(t, h1)
	require.NotNil(t, h2)
	require.NotEqual(t, h1.Slots(), h2.Slots())
	require.Nil(t, take(t, l, "b", 2, 1))
	h1.Release()
	h3 := take(t, l, "b", 2, 1)
	require.NotNil(t, h3)
	require.Equal(t, h1.Slots(), h3.Slots())
	require.Nil(t, take(t, l, "b", 2, 1))
}

// A take of several slots gets all or none, and leaves none taken when it gets none.
func TestLocks_TakeIsAllOrNothing(t *testing.T) {
	db := testcontainers.NewDatabase(t)
	a, b := open(t, db.AppURL, "instance-a", 1), open(t, db.AppURL, "instance-b", 1)
	require.NotNil(t, take(t, a, "pool:t", 4, 2))
	require.Nil(t, take(t, b, "pool:t", 4, 3), "only two are free")
	require.NotNil(t, take(t, b, "pool:t", 4, 2), "the failed take gave back what it had tried")
	require.Nil(t, take(t, b, "pool:t", 4, 1))
}

// A process whose connections die (it was killed) gives its slots back: Postgres releases a
// session's advisory locks when the session ends.
func TestLocks_AKilledProcessGivesItsSlotsBack(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	a, b := open(t, db.AppURL, "killed-instance", 2), open(t, db.AppURL, "live-instance", 2)
	held := take(t, a, "req:t", 2, 2)
	require.NotNil(t, held)
	require.Nil(t, take(t, b, "req:t", 2, 1))

	var killed int
	require.NoError(t, db.AdminPool(t).QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE application_name = 'killed-instance' AND datname = current_database()`).Scan(&killed))
	require.Equal(t, 2, killed)
	require.Eventually(t, func() bool {
		h, err := b.Take(ctx, "req:t", 2, 2)
		require.NoError(t, err)
		if h != nil {
			h.Release()
			b.Flush()
		}
		return h != nil
	}, 30e9, 10e6, "the killed sessions' slots were never released")

	held.Release() // its connection is gone: nothing to give back, no error
	// The process that lost its connections reconnects on its next take (the first take on a
	// broken connection fails, and forgets the connection).
	var h *slotlock.Hold
	require.Eventually(t, func() bool {
		var err error
		h, err = a.Take(ctx, "req:t", 2, 1)
		return err == nil && h != nil
	}, 30e9, 10e6)
	require.NotNil(t, take(t, b, "req:t", 2, 1))
	require.Nil(t, take(t, b, "req:t", 2, 1))
}

// Concurrent takes from two processes never hold more slots than the budget has.
func TestLocks_ConcurrentTakesNeverPassTheLimit(t *testing.T) {
	db := testcontainers.NewDatabase(t)
	procs := []*slotlock.Locks{open(t, db.AppURL, "p1", 3), open(t, db.AppURL, "p2", 3)}
	const limit = 5
	var mu sync.Mutex
	held, top := 0, 0
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			l := procs[w%2]
			for range 60 {
				h, err := l.Take(context.Background(), "c", limit, 1+w%2)
				require.NoError(t, err)
				if h == nil {
					continue
				}
				mu.Lock()
				held += len(h.Slots())
				top = max(top, held)
				require.LessOrEqual(t, held, limit)
				mu.Unlock()
				mu.Lock()
				held -= len(h.Slots())
				mu.Unlock()
				h.Release()
			}
		})
	}
	wg.Wait()
	require.Positive(t, top)
}

// BenchmarkLocks_TakeRelease is what shared budgets cost: one take and its release on a lease
// connection (serial; parallel, from 4×GOMAXPROCS goroutines), and what a request takes.
func BenchmarkLocks_TakeRelease(b *testing.B) {
	db := testcontainers.NewDatabase(b)
	l := open(b, db.AppURL, "bench", slotlock.DefaultConns)
	b.Run("serial", func(b *testing.B) {
		for b.Loop() {
			h, err := l.Take(context.Background(), "req:bench", 32, 1)
			if err != nil || h == nil {
				b.Fatal(err, h)
			}
			h.Release()
		}
	})
	b.Run("request", func(b *testing.B) {
		// What a request takes with shared budgets on: its requests slot and its pool share.
		for b.Loop() {
			h, err := l.TakeAll(context.Background(), slotlock.Ask{Budget: "requests:token:t", Limit: 32, N: 1},
				slotlock.Ask{Budget: "pool:hot-path:token:t", Limit: 8, N: 1})
			if err != nil || h[0] == nil || h[1] == nil {
				b.Fatal(err, h)
			}
			h[1].Release()
			h[0].Release()
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.SetParallelism(4)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				h, err := l.Take(context.Background(), "req:bench", 1000, 1)
				if err != nil || h == nil {
					b.Fatal(err, h)
				}
				h.Release()
			}
		})
	})
}

// A released slot is free to another process once its connection's next statement ran, which
// Release starts at once: no take has to come first.
func TestLocks_ReleaseUnlocksWithoutAnotherTake(t *testing.T) {
	db := testcontainers.NewDatabase(t)
	a, b := open(t, db.AppURL, "instance-a", 2), open(t, db.AppURL, "instance-b", 2)
	h := take(t, a, "r", 1, 1)
	require.NotNil(t, h)
	h.Release()
	require.Eventually(t, func() bool {
		got := take(t, b, "r", 1, 1)
		return got != nil
	}, 30e9, 1e6)
}
