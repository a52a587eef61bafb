package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/placement"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

// moveWriter appends one event at a time to a space through the API, each with its own
// idempotency key, retrying a 503 (space_moving while the space moves) with the same key until
// it is acknowledged, and keeps what was acknowledged.
type moveWriter struct {
	url, space string
	mu         sync.Mutex
	acked      map[int64]string // seq -> content
	moving     int              // 503 space_moving answers seen
	err        error
}

func (w *moveWriter) append(ctx context.Context, n int) error {
	content := fmt.Sprintf("writer event %d: the deploy of service %d went out", n, n%17)
	body, _ := json.Marshal(map[string]any{"events": []map[string]any{{"type": "message", "content": content, "data": map[string]any{"role": "user"}}}})
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, w.url+"/v1/spaces/"+w.space+"/events", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", fmt.Sprintf("writer-%d", n))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		var out struct {
			Events []struct {
				Seq int64 `json:"seq"`
			} `json:"events"`
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if err != nil {
			return err
		}
		switch {
		case resp.StatusCode == http.StatusCreated || resp.StatusCode == http.StatusOK:
			w.mu.Lock()
			w.acked[out.Events[0].Seq] = content
			w.mu.Unlock()
			return nil
		case resp.StatusCode == http.StatusServiceUnavailable && out.Error.Code == "space_moving" && resp.Header.Get("Retry-After") != "":
			w.mu.Lock()
			w.moving++
			w.mu.Unlock()
			// The client waits Retry-After; the test retries sooner to press on the flip.
			time.Sleep(20 * time.Millisecond)
		default:
			return fmt.Errorf("append %d: %d %s", n, resp.StatusCode, out.Error.Code)
		}
	}
}

// A space moved from the home cluster to a second cluster while a writer keeps appending
// through zaxy serve: every acknowledged event is on the target with its seq and content, the
// chain verifies there, the projections' checksums were equal, the writer never saw anything
// but success or space_moving, the source copy refuses appends until --finish drops it, and
// the listing names the space once.
func TestSpaceMove_WhileAWriterAppendsEveryAcknowledgedEventLandsOnTheTarget(t *testing.T) {
	t.Parallel()
	if ok, why := testcontainers.LocalClusters(t); !ok {
		t.Skip(why)
	}
	ctx := context.Background()
	home := testcontainers.NewDatabase(t)
	other := testcontainers.StartCluster(t, "move")
	target := other.NewDatabase(t)
	bin := buildZaxy(t)
	// The service as the application role; new spaces go to home (b takes none).
	_, url := startInstance(t, bin, home.AppURL, "ZAXY_CLUSTERS=b="+target.AppURL, "ZAXY_CLUSTER_WEIGHTS=b=0")

	const space = "moving"
	w := &moveWriter{url: url, space: space, acked: map[int64]string{}}
	for n := range 1500 {
		require.NoError(t, w.append(ctx, n))
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for n := 1500; ; n++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := w.append(ctx, n); err != nil {
				w.mu.Lock()
				w.err = err
				w.mu.Unlock()
				return
			}
		}
	}()

	// The move as the schema owner, on the same cluster names.
	move := exec.Command(bin, "space", "move", "--space", space, "--to", "b", "--json")
	move.Env = append(os.Environ(), "ZAXY_DATABASE_URL="+home.AdminURL, "ZAXY_CLUSTERS=b="+target.AdminURL)
	out, err := move.Output()
	require.NoError(t, err, "%s", exitStderr(err))
	var res placement.MoveResult
	require.NoError(t, json.Unmarshal(out, &res), string(out))
	require.Equal(t, "home", res.From)
	require.Equal(t, "b", res.To)
	require.NotEmpty(t, res.Checksum)

	// The writer goes on after the flip, on the target, without a change.
	w.mu.Lock()
	before := len(w.acked)
	w.mu.Unlock()
	waitForProgress(t, "the writer appending after the move", 2*time.Minute, 20*time.Millisecond, func() int64 {
		w.mu.Lock()
		defer w.mu.Unlock()
		return int64(len(w.acked))
	}, func(n int64) bool { return n >= int64(before)+50 })
	close(stop)
	<-done
	require.NoError(t, w.err)
	t.Logf("moved %d events (head %d) while writing: %d acknowledged, %d space_moving answers, appends paused %s (%v)",
		res.Events, res.HeadSeq, len(w.acked), w.moving, res.Paused, res.Steps)

	tpool, err := pgxpool.New(ctx, target.AdminURL)
	require.NoError(t, err)
	defer tpool.Close()
	rows, err := tpool.Query(ctx, `SELECT seq, content FROM events WHERE space_id = $1 ORDER BY seq`, space)
	require.NoError(t, err)
	onTarget := map[int64]string{}
	for rows.Next() {
		var seq int64
		var content string
		require.NoError(t, rows.Scan(&seq, &content))
		onTarget[seq] = content
	}
	require.NoError(t, rows.Err())
	for seq, content := range w.acked {
		require.Equal(t, content, onTarget[seq], "acknowledged event %d", seq)
	}
	require.Len(t, onTarget, len(w.acked), "the target holds exactly the acknowledged events")
	v, err := eventloom.NewStore(tpool, nil, nil).Verify(ctx, space)
	require.NoError(t, err)
	require.True(t, v.OK, "%+v", v)

	// The target's projections catch up (its River).
	waitForProgress(t, "the target projecting the space", 2*time.Minute, 20*time.Millisecond, func() int64 {
		st, err := projection.Lag(ctx, tpool, space)
		require.NoError(t, err)
		return st[0].ProjectedSeq
	}, func(n int64) bool { return n == v.HeadSeq })

	// The source copy is read-only: an append there is refused.
	hpool, err := pgxpool.New(ctx, home.AdminURL)
	require.NoError(t, err)
	defer hpool.Close()
	_, err = eventloom.NewStore(hpool, nil, nil).Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{{Type: "message", Content: "late", Data: []byte(`{"role":"user"}`)}}})
	require.ErrorIs(t, err, eventloom.ErrSpaceMoving)

	// The listing names it once; then --finish drops the source copy.
	var list spacesList
	getJSON(t, url+"/v1/spaces", &list)
	n := 0
	for _, sp := range list.Spaces {
		if sp.SpaceID == space {
			n++
			require.Equal(t, v.HeadSeq, sp.HeadSeq)
		}
	}
	require.Equal(t, 1, n)
	// zaxy doctor names the clusters and the copy waiting for --finish.
	doc := exec.Command(bin, "doctor", "--no-probe")
	doc.Env = move.Env
	dout, derr := doc.Output() // doctor exits non-zero on a warning
	require.Contains(t, string(dout), "OK   cluster b: 1 spaces placed", "%s%v %s", dout, derr, exitStderr(derr))
	require.Contains(t, string(dout), "WARN moves: read-only copies left by moves: [moving]", string(dout))

	finish := exec.Command(bin, "space", "move", "--space", space, "--finish")
	finish.Env = move.Env
	fout, err := finish.Output()
	require.NoError(t, err, "%s", exitStderr(err))
	require.Contains(t, string(fout), fmt.Sprintf("(%d events)", res.HeadSeq))
	var left int
	require.NoError(t, hpool.QueryRow(ctx, `SELECT count(*) FROM events WHERE space_id = $1`, space).Scan(&left))
	require.Zero(t, left)
	require.NoError(t, hpool.QueryRow(ctx, `SELECT count(*) FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1)`, space).Scan(&left))
	require.Zero(t, left)
}

// spacesList is GET /v1/spaces as the test reads it.
type spacesList struct {
	Spaces []struct {
		SpaceID string `json:"space_id"`
		HeadSeq int64  `json:"head_seq"`
	} `json:"spaces"`
}

func getJSON(t *testing.T, url string, out any) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(out))
}

func exitStderr(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}

// Commands that serve one database say so with ZAXY_CLUSTERS rather than serve part of the
// spaces; zaxy space move without ZAXY_CLUSTERS, or with bad flags, is a usage error.
func TestClusters_CommandsThatCannotSpanThemSaySo(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ZAXY_DATABASE_URL": "postgres://zaxy@127.0.0.1:1/zaxy", "ZAXY_CLUSTERS": "b=postgres://zaxy@127.0.0.1:2/zaxy"}
	getenv := func(k string) string { return env[k] }
	var out, errOut bytes.Buffer
	require.Equal(t, 2, run(context.Background(), []string{"mcp"}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "/mcp endpoint")
	for _, args := range [][]string{{"space", "move", "--space", "s"}, {"space", "move", "--space", "s", "--to", "b", "--finish"},
		{"space", "move", "--space", "s", "--to", "B"}} {
		errOut.Reset()
		require.Equal(t, 2, run(context.Background(), args, getenv, nil, &out, &errOut), "%v", args)
	}
	delete(env, "ZAXY_CLUSTERS")
	errOut.Reset()
	require.Equal(t, 2, run(context.Background(), []string{"space", "move", "--space", "s", "--to", "b"}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "needs ZAXY_CLUSTERS")
	env["ZAXY_CLUSTERS"] = "home=postgres://elsewhere/zaxy"
	errOut.Reset()
	require.Equal(t, 2, run(context.Background(), []string{"version"}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "home cluster")
}
