package client_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/eventloom"
)

// flaky is a stand-in server that answers the first failures requests of each path with
// status (and Retry-After when set), then 200 {}; it records every attempt's
// Idempotency-Key. A failure status 0 drops the connection instead.
type flaky struct {
	failures, status int
	retryAfter       string
	mu               sync.Mutex
	attempts         map[string]int
	keys             []string
}

// tries is how many requests path got; sentKeys the Idempotency-Key of each request. Read under
// the lock: a handler's last write has no other ordering with the test's read.
func (f *flaky) tries(path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.attempts[path]
}

func (f *flaky) sentKeys() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.keys...)
}

func (f *flaky) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.attempts[r.URL.Path]++
	n := f.attempts[r.URL.Path]
	f.keys = append(f.keys, r.Header.Get("Idempotency-Key"))
	f.mu.Unlock()
	if n <= f.failures {
		if f.status == 0 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		}
		if f.retryAfter != "" {
			w.Header().Set("Retry-After", f.retryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.status)
		_, _ = w.Write([]byte(`{"error":{"code":"too_many_requests","message":"slow down","details":{}}}`))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{}`))
}

func newFlaky(t *testing.T, failures, status int, retryAfter string) (*flaky, *client.Client) {
	t.Helper()
	f := &flaky{failures: failures, status: status, retryAfter: retryAfter, attempts: map[string]int{}}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 3, MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}))
	require.NoError(t, err)
	return f, c
}

// TestRetry_SafeCallsAreRetriedAndAppendsOnlyWithAKey: reads and keyed appends are retried
// on 429, 503 and dropped connections, up to MaxAttempts; an append without a key, a
// recording checkout and a 400 are tried once.
func TestRetry_SafeCallsAreRetriedAndAppendsOnlyWithAKey(t *testing.T) {
	ctx := context.Background()
	events := []eventloom.NewEvent{{Type: "note", Content: "x"}}
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable, 0} {
		f, c := newFlaky(t, 2, status, "")
		_, err := c.ReplayEvents(ctx, "s", nil)
		require.NoError(t, err, status)
		require.Equal(t, 3, f.tries("/v1/spaces/s/events"), status)

		_, err = c.AppendEvents(ctx, "t", events)
		require.Error(t, err, status)
		require.Equal(t, 1, f.tries("/v1/spaces/t/events"), "an append without a key is tried once (%d)", status)

		f.mu.Lock()
		f.keys = nil
		f.mu.Unlock()
		_, err = c.AppendEvents(ctx, "u", events, client.WithIdempotencyKey("k1"))
		require.NoError(t, err, status)
		require.Equal(t, 3, f.tries("/v1/spaces/u/events"), status)
		require.Equal(t, []string{"k1", "k1", "k1"}, f.sentKeys(), "every attempt carries the key")

		_, err = c.Checkout(ctx, "v", &checkout.Request{Query: "q"})
		require.Error(t, err)
		require.Equal(t, 1, f.tries("/v1/spaces/v/checkout"), "a checkout that records is tried once (%d)", status)
		_, err = c.Checkout(ctx, "w", &checkout.Request{Query: "q", NoRecord: true})
		require.NoError(t, err)
		require.Equal(t, 3, f.tries("/v1/spaces/w/checkout"), status)
	}

	f, c := newFlaky(t, 5, http.StatusTooManyRequests, "")
	_, err := c.Health(ctx)
	require.True(t, client.IsCode(err, "too_many_requests"), "%v", err)
	require.Equal(t, 3, f.tries("/healthz"), "gives up after MaxAttempts")

	f, c = newFlaky(t, 5, http.StatusBadRequest, "")
	_, err = c.Health(ctx)
	require.Error(t, err)
	require.Equal(t, 1, f.tries("/healthz"), "a 400 is not retried")
}

// TestRetry_HonoursRetryAfter waits the server's Retry-After rather than the short backoff,
// and gives up at once when that wait would pass the context's deadline.
func TestRetry_HonoursRetryAfter(t *testing.T) {
	f, c := newFlaky(t, 1, http.StatusServiceUnavailable, "1")
	start := time.Now()
	_, err := c.Health(context.Background())
	require.NoError(t, err)
	require.GreaterOrEqual(t, time.Since(start), time.Second)
	require.Equal(t, 2, f.tries("/healthz"))

	f, c = newFlaky(t, 1, http.StatusServiceUnavailable, "30")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start = time.Now()
	_, err = c.Health(ctx)
	var apiErr *client.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 30*time.Second, apiErr.RetryAfter)
	require.Less(t, time.Since(start), time.Second, "no wait that outlasts the deadline")
	require.Equal(t, 1, f.tries("/healthz"))
}
