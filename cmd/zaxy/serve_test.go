package main

import (
	"bytes"
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// lockedBuffer is a bytes.Buffer that River's goroutines and the test may use at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *lockedBuffer) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}

// A serve that fails after River has started (here its listen address is taken) stops River
// before closing River's pool and returns exit status 1; were River left running, closing
// the pool would wait for River's connections forever and serve would never return.
func TestServe_StopsRiverWhenItFailsAfterStart(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	env := map[string]string{"ZAXY_DATABASE_URL": db.AppURL, "ZAXY_ADDR": taken.Addr().String(), "ZAXY_AUTH": "off",
		"ZAXY_MODEL_DIR": "/nonexistent/zaxy-models", "ZAXY_SHUTDOWN_TIMEOUT": "10s"}
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"serve"}, func(k string) string { return env[k] }, nil, &stdout, &stderr)
	}()
	select {
	case code := <-done:
		require.Equal(t, 1, code, stderr.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not return after failing to listen: River still holds its pool\n%s", stderr.String())
	}
	require.Contains(t, stderr.String(), "zaxy serve: listen on "+taken.Addr().String())
	require.NotContains(t, stderr.String(), "river stop")
	require.Empty(t, stdout.String(), "it never served")
	// A backend leaves pg_stat_activity a moment after its client closed the connection.
	admin := db.AdminPool(t)
	require.Eventually(t, func() bool {
		var workers int
		require.NoError(t, admin.QueryRow(context.Background(),
			`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'zaxy-worker'`).Scan(&workers))
		return workers == 0
	}, 10*time.Second, 20*time.Millisecond, "River's pool is closed")
}
