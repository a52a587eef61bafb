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
	"github.com/zaxy/zaxy/testcontainers"
)

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
	ctx := t.Context()
	if deadline, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-time.Minute))
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ZAXY_URL="+srv.url, "ZAXY_TOKEN="+srv.token, "NO_COLOR=1")
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
// lists facts and maps a refused body to its typed error.
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
}
