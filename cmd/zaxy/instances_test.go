package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

// startInstance starts `zaxy serve` on dbURL as one of several instances (shared budgets on,
// River's job timing from env) and returns it with its base URL.
func startInstance(t *testing.T, bin, dbURL string, env ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "ZAXY_DATABASE_URL="+dbURL, "ZAXY_ADDR=127.0.0.1:0", "ZAXY_AUTH=off",
		"ZAXY_SHARED_BUDGETS=on", "ZAXY_WORKERS=4")
	cmd.Env = append(cmd.Env, env...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	_, url, ok := strings.Cut(strings.TrimSpace(line), "serving on ")
	require.True(t, ok, line)
	return cmd, url
}

// Two `zaxy serve` processes work one database's jobs as one service: one is killed in the
// middle of projecting a space, the other projects it to its head, the killed process's job
// is rescued (River's rescuer, on whichever instance leads) and finishes, every job ends
// completed, and the projections equal a clean rebuild.
func TestServe_TwoInstancesOneKilledMidProjectionTheOtherFinishes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	bin := buildZaxy(t)
	pool := db.AppPool(t)
	// Rescue a killed job after a minute rather than the default 15, so the test sees it.
	timing := []string{"ZAXY_JOB_TIMEOUT=1m", "ZAXY_RESCUE_STUCK_JOBS_AFTER=1m"}

	first, firstURL := startInstance(t, bin, db.AppURL, timing...)
	client, err := jobs.NewInsertOnlyClient(pool, nil)
	require.NoError(t, err)
	store := eventloom.NewStore(pool, jobs.NewOutbox(client), nil)
	const space, total = "instances", 30000
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
		_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: batch})
		require.NoError(t, err)
	}
	lag := func() projection.Status {
		st, err := projection.Lag(ctx, pool, space)
		require.NoError(t, err)
		require.Len(t, st, 1)
		return st[0]
	}
	projected := func() int64 { return lag().ProjectedSeq }
	const stall = 3 * time.Minute
	waitForProgress(t, "the first instance never started projecting", stall, 2*time.Millisecond, projected,
		func(seq int64) bool { return seq > 0 })
	var firstID string
	require.NoError(t, pool.QueryRow(ctx, `SELECT attempted_by[cardinality(attempted_by)] FROM river_job
		WHERE kind = 'project_space' AND state = 'running' LIMIT 1`).Scan(&firstID))

	second, secondURL := startInstance(t, bin, db.AppURL, timing...)
	for _, url := range []string{firstURL, secondURL} {
		resp, err := http.Get(url + "/v1/spaces/" + space + "/events?limit=1")
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, "both instances serve")
	}
	require.NoError(t, first.Process.Signal(syscall.SIGKILL))
	_ = first.Wait()
	// What the first instance was running when it died, read after its death: a job it finished
	// just before is no killed job, and nothing is rescued before ZAXY_RESCUE_STUCK_JOBS_AFTER.
	rows, err := pool.Query(ctx, `SELECT id FROM river_job WHERE state = 'running' AND attempted_by[cardinality(attempted_by)] = $1`, firstID)
	require.NoError(t, err)
	var killedJobs []int64
	for rows.Next() {
		var id int64
		require.NoError(t, rows.Scan(&id))
		killedJobs = append(killedJobs, id)
	}
	require.NoError(t, rows.Err())
	killedAt := lag()
	require.Less(t, killedAt.ProjectedSeq, int64(total), "killed in the middle of projecting")
	require.NotEmpty(t, killedJobs, "the first instance was running a job when killed")
	t.Logf("first instance %s killed at seq %d of %d with jobs %v running", firstID, killedAt.ProjectedSeq, total, killedJobs)

	killed := time.Now()
	waitForProgress(t, "the second instance stopped projecting", stall, 20*time.Millisecond, projected,
		func(seq int64) bool { return seq == int64(total) })
	t.Logf("the second instance projected to the head %s after the kill", time.Since(killed).Round(time.Second))

	// The jobs the killed process held are rescued once they have run for
	// ZAXY_RESCUE_STUCK_JOBS_AFTER (checked every 30 s by the leader, which may have to be
	// elected again, 15 s), retried on the live instance and completed. Every projection job
	// ends completed: none is lost, none is left running.
	unfinished := func() int64 {
		var n int64
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM river_job
			WHERE (kind = 'project_space' OR id = ANY($1)) AND state <> 'completed'`, killedJobs).Scan(&n))
		return n
	}
	require.Eventually(t, func() bool { return unfinished() == 0 }, 5*time.Minute, time.Second,
		"some jobs never completed after the kill")
	t.Logf("every job completed %s after the kill", time.Since(killed).Round(time.Second))
	for _, id := range killedJobs {
		var errs string
		var by []string
		require.NoError(t, pool.QueryRow(ctx, `SELECT coalesce(errors::text, ''), attempted_by FROM river_job WHERE id = $1`, id).Scan(&errs, &by))
		require.Contains(t, errs, "Stuck job rescued", "job %d was rescued", id)
		require.NotEqual(t, firstID, by[len(by)-1], "job %d was finished by the live instance", id)
	}

	built := func() int64 {
		var built int64
		require.NoError(t, pool.QueryRow(ctx, `SELECT coalesce((SELECT built_seq FROM latent_watermarks WHERE space_id = $1), 0)`, space).Scan(&built))
		return built
	}
	waitForProgress(t, "the second instance stopped building the latent artifacts", stall, 20*time.Millisecond, built,
		func(seq int64) bool { return seq == int64(total) })
	// Stopped before the rebuild it is compared with (see the SIGKILL worker test: AGE 1.5.0's
	// label cache and concurrent label DDL).
	require.NoError(t, second.Process.Signal(syscall.SIGTERM))
	_ = second.Wait()
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
}
