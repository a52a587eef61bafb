package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// buildZaxy returns this command compiled once for the package's tests (sharedZaxy), linked
// into the test's own temporary directory: a test runs its own link, which nothing outside the
// test removes while it runs. The tests only run it.
func buildZaxy(t *testing.T) string {
	t.Helper()
	shared := sharedZaxy(t)
	own := filepath.Join(t.TempDir(), "zaxy")
	if err := os.Link(shared, own); err != nil {
		data, err := os.ReadFile(shared)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(own, data, 0o755))
	}
	return own
}

// sharedZaxy compiles this command once for the package (by the first test that asks, in a
// directory TestMain removes), and again only if the file has gone meanwhile.
func sharedZaxy(t *testing.T) string {
	t.Helper()
	zaxyBinary.mu.Lock()
	defer zaxyBinary.mu.Unlock()
	if zaxyBinary.path != "" {
		if _, err := os.Stat(zaxyBinary.path); err == nil {
			return zaxyBinary.path
		}
	}
	if zaxyBinary.dir == "" {
		dir, err := os.MkdirTemp("", "cmdtestbin-")
		require.NoError(t, err)
		zaxyBinary.dir = dir
	}
	bin := filepath.Join(zaxyBinary.dir, "zaxy")
	require.NoError(t, os.MkdirAll(zaxyBinary.dir, 0o755))
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, string(out))
	zaxyBinary.path = bin
	return bin
}

func startWorker(t *testing.T, bin, dbURL string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, "worker")
	cmd.Env = append(os.Environ(), "ZAXY_DATABASE_URL="+dbURL, "ZAXY_WORKERS=4")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}

// waitForProgress polls value every poll until done holds for it, and fails with why only
// when value has not changed for stall: a test waits on progress, however slow a loaded
// machine makes it, not on a wall-clock deadline.
func waitForProgress(t *testing.T, why string, stall, poll time.Duration, value func() int64, done func(int64) bool) {
	t.Helper()
	last, moved := value(), time.Now()
	for !done(last) {
		require.Less(t, time.Since(moved), stall, "%s: stuck at %d for %s", why, last, stall)
		time.Sleep(poll)
		if v := value(); v != last {
			last, moved = v, time.Now()
		}
	}
}

func TestWorker_SIGKILLMidProjectionEndsEqualToACleanRebuild(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	bin := buildZaxy(t)
	pool := db.AppPool(t)
	client, err := jobs.NewInsertOnlyClient(pool, nil)
	require.NoError(t, err)
	store := eventloom.NewStore(pool, jobs.NewOutbox(client), nil)
	// The worker is killed as soon as its first committed batch (500 events) shows, far from
	// the head of 10,000; each kind of event and every subject, task and document cycle (50,
	// 30 and 40) repeats many times in the log.
	const space, total = "kill", 10000
	for b := 0; b < total/1000; b++ {
		batch := make([]eventloom.NewEvent, 1000)
		for i := range batch {
			n := b*1000 + i
			switch n % 4 {
			case 0:
				batch[i] = eventloom.NewEvent{Type: "fact.asserted", Data: fmt.Appendf(nil, `{"subject":"svc %d","predicate":"owner","object":"team %d"}`, n%50, n%7)}
			case 1:
				batch[i] = eventloom.NewEvent{Type: "task.updated", Data: fmt.Appendf(nil, `{"task_id":"T%d","status":"%s"}`, n%30, []string{"open", "done"}[n%2])}
			default:
				batch[i] = eventloom.NewEvent{Type: "message", Content: fmt.Sprintf("@dana please check docs/svc-%d.md with Alice Chen", n%40), Data: []byte(`{"role":"user"}`)}
			}
		}
		fixture.Append(t, store, space, batch...)
	}

	lag := func() projection.Status {
		st, err := projection.Lag(ctx, pool, space)
		require.NoError(t, err)
		require.Len(t, st, 1)
		return st[0]
	}
	worker := startWorker(t, bin, db.AppURL)
	projected := func() int64 { return lag().ProjectedSeq }
	// Each phase waits as long as the worker advances: it fails only when nothing moved for
	// stall (a start under load included), never on the machine's overall pace.
	const stall = 3 * time.Minute
	waitForProgress(t, "the worker never started projecting", stall, 2*time.Millisecond, projected,
		func(seq int64) bool { return seq > 0 })
	require.NoError(t, worker.Process.Signal(syscall.SIGKILL))
	_ = worker.Wait()
	killedAt := lag()
	require.Less(t, killedAt.ProjectedSeq, int64(total), "killed in the middle of projecting")
	require.Zero(t, killedAt.ProjectedSeq%500, "the watermark only moves by whole committed batches")

	restarted := startWorker(t, bin, db.AppURL)
	waitForProgress(t, "the restarted worker stopped projecting", stall, 20*time.Millisecond, projected,
		func(seq int64) bool { return seq == int64(total) })
	// The worker's latent_rebuild jobs follow the projection; the checksum covers their artifacts.
	built := func() int64 {
		var built int64
		err := pool.QueryRow(ctx, `SELECT coalesce((SELECT built_seq FROM latent_watermarks WHERE space_id = $1), 0)`, space).Scan(&built)
		require.NoError(t, err)
		return built
	}
	waitForProgress(t, "the restarted worker stopped building the latent artifacts", stall, 20*time.Millisecond, built,
		func(seq int64) bool { return seq == int64(total) })
	// The restarted worker stops before the rebuild it is compared with: a worker still running
	// would project and mirror beside it, and AGE 1.5.0 can fail a statement with "label
	// (relation) cache corrupted" when another session's label DDL lands while it fills that
	// cache (apache/age#2245, fixed in 1.6.0).
	require.NoError(t, restarted.Process.Signal(syscall.SIGTERM))
	_ = restarted.Wait()
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	incremental, err := proj.Checksum(ctx, space)
	require.NoError(t, err)
	_, err = proj.Rebuild(ctx, space)
	require.NoError(t, err)
	builder, err := latent.NewBuilder(ctx, pool, store, latent.Config{})
	require.NoError(t, err)
	_, err = builder.Rebuild(ctx, space)
	require.NoError(t, err)
	rebuilt, err := proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, rebuilt, incremental)
	t.Logf("killed at seq %d of %d; digest %s", killedAt.ProjectedSeq, total, rebuilt.Digest)
}
