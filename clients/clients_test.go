package clients_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/testcontainers"
)

// newStandbyServer is the real API (auth off) on a primary whose reads go to a standby that
// applies each commit an hour late, so that only a read carrying its write's consistency token
// sees the write (docs/scaling.md). It skips the test unless local clusters can be started.
func newStandbyServer(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	primary := testcontainers.StartCluster(t, "clientsryw")
	db := primary.NewDatabase(t)
	pool := db.AppPool(t)
	standby := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{ApplyDelay: time.Hour})
	set := replica.NewSet(pool, []*replica.Standby{{Name: "standby", Pool: standby.Database(db).AppPool(t)}},
		replica.Config{Wait: 50 * time.Millisecond, MaxLag: 2 * time.Hour, HealthInterval: 50 * time.Millisecond})
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { set.Run(rctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: eventloom.NewStore(pool, nil, nil), Replicas: set}, nil))
	t.Cleanup(srv.Close)
	for !set.Standbys()[0].Up() {
		time.Sleep(20 * time.Millisecond) // the standby is measured up on its first health check
	}
	return srv.URL
}

// liveServer is the real API over a fresh database with River's workers projecting what is
// appended, as zaxy serve runs it, and a write-scoped token for every space.
type liveServer struct {
	url, token string
}

func newLiveServer(t *testing.T) *liveServer {
	t.Helper()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	rc, err := jobs.NewClient(pool, jobs.Config{Workers: 2, Projector: proj})
	require.NoError(t, err)
	require.NoError(t, rc.Start(ctx))
	t.Cleanup(func() { _ = rc.Stop(context.Background()) })
	tokens := auth.NewStore(pool)
	_, token, err := tokens.Create(ctx, []string{auth.AllSpaces}, auth.ScopeWrite, "clients test")
	require.NoError(t, err)
	store := eventloom.NewStore(pool, jobs.NewOutbox(rc), nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Auth: tokens}, nil))
	t.Cleanup(srv.Close)
	return &liveServer{url: srv.URL, token: token}
}

// run runs name with args in dir against srv, printing its output, and fails t when it fails.
// It ends the command a minute before the test binary's deadline, so that its output is shown
// rather than lost in the test binary's panic.
func (srv *liveServer) run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	srv.runEnv(t, nil, dir, name, args...)
}

// runEnv is run with env added to the command's environment.
func (srv *liveServer) runEnv(t *testing.T, env []string, dir, name string, args ...string) {
	t.Helper()
	ctx := t.Context()
	if deadline, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-time.Minute))
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "ZAXY_URL="+srv.url, "ZAXY_TOKEN="+srv.token, "NO_COLOR=1"), env...)
	out, err := cmd.CombinedOutput()
	t.Logf("%s %s (in %s):\n%s", name, strings.Join(args, " "), dir, out)
	require.NoError(t, err, "%s %s failed; its output is above", name, strings.Join(args, " "))
}

// need returns the path of the program name, failing t (never skipping) when it is missing:
// make test runs every client's suite.
func need(t *testing.T, name, why string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if errors.Is(err, exec.ErrNotFound) {
		t.Fatalf("%s is not installed: %s", name, why)
	}
	require.NoError(t, err)
	return p
}

// TestClients runs the TypeScript client's suite (node --test, after generating its types
// from api/openapi.json and compiling it) and the Python client's (python3 -m unittest)
// against a live server: each appends, checks out and verifies every citation against replay,
// lists facts and maps a refused body to its typed error. Then, behind a standby an hour late,
// each client reads its own write by the consistency token it carries (skipped unless local
// clusters can be started, as make test provides).
func TestClients(t *testing.T) {
	srv := newLiveServer(t)

	t.Run("typescript", func(t *testing.T) {
		dir, err := filepath.Abs("typescript")
		require.NoError(t, err)
		need(t, "node", "the TypeScript client's tests need Node.js 20 or later (docs/clients.md)")
		npm := need(t, "npm", "the TypeScript client's tests need npm (docs/clients.md)")
		if _, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json")); err != nil {
			t.Fatalf("clients/typescript has no node_modules: run `make clients` (npm ci) first (%v)", err)
		}
		// The types are generated from the document as it is now, so a changed document that
		// the wrapper no longer fits fails here.
		srv.run(t, dir, npm, "run", "--silent", "build")
		srv.run(t, dir, "node", "--test", "dist/test/")
	})

	t.Run("python", func(t *testing.T) {
		dir, err := filepath.Abs("python")
		require.NoError(t, err)
		python := need(t, "python3", "the Python client's tests need Python 3.10 or later (docs/clients.md)")
		srv.run(t, dir, python, "-m", "unittest", "discover", "-v", "-s", "tests", "-t", ".")
	})

	t.Run("read your writes", func(t *testing.T) {
		env := []string{"ZAXY_RYW_URL=" + newStandbyServer(t)}
		ts, err := filepath.Abs("typescript")
		require.NoError(t, err)
		py, err := filepath.Abs("python")
		require.NoError(t, err)
		srv.runEnv(t, env, ts, "node", "--test", "dist/test/readyourwrites.test.js")
		srv.runEnv(t, env, py, "python3", "-m", "unittest", "-v", "tests.test_read_your_writes")
	})
}
