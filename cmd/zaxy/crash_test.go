package main

import (
	"bufio"
	"context"
	"encoding/json"
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
	"github.com/zaxy/zaxy/testcontainers"
)

// startServer builds and starts `zaxy serve` on a free port and returns its base URL.
func startServer(t *testing.T, bin, dbURL string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "ZAXY_DATABASE_URL="+dbURL, "ZAXY_ADDR=127.0.0.1:0", "ZAXY_AUTH=off")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	_, url, ok := strings.Cut(strings.TrimSpace(line), "serving on ")
	require.True(t, ok, line)
	return cmd, url
}

func TestServe_SIGKILLLosesNoAcknowledgedBatch(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	bin := buildZaxy(t)

	cmd, url := startServer(t, bin, db.AppURL)
	acked := make(chan int, 10000)
	done := make(chan struct{})
	go func() {
		defer close(done)
		client := &http.Client{Timeout: 5 * time.Second}
		for b := 0; ; b++ {
			var sb strings.Builder
			sb.WriteString(`{"events":[`)
			for i := 0; i < 20; i++ {
				if i > 0 {
					sb.WriteString(",")
				}
				fmt.Fprintf(&sb, `{"type":"message","content":"batch %d item %d","data":{"batch":%d,"role":"user"}}`, b, i, b)
			}
			sb.WriteString("]}")
			resp, err := client.Post(url+"/v1/spaces/crash/events", "application/json", strings.NewReader(sb.String()))
			if err != nil {
				return
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusCreated {
				acked <- b
			}
		}
	}()
	time.Sleep(1500 * time.Millisecond)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	<-done
	close(acked)
	ackedSet := map[int]bool{}
	for b := range acked {
		ackedSet[b] = true
	}
	require.NotEmpty(t, ackedSet)

	cmd2, url2 := startServer(t, bin, db.AppURL)
	defer func() { _ = cmd2.Process.Signal(syscall.SIGTERM); _ = cmd2.Wait() }()
	resp, err := http.Get(url2 + "/v1/spaces/crash/verify")
	require.NoError(t, err)
	var v eventloom.VerifyResult
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&v))
	resp.Body.Close()
	require.True(t, v.OK, v.Reason)

	counts := map[int]int{}
	store := eventloom.NewStore(db.AppPool(t), nil, nil)
	require.NoError(t, store.ReplayAll(context.Background(), eventloom.ReplayParams{SpaceID: "crash"}, func(e *eventloom.Event) error {
		var d struct{ Batch int }
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return err
		}
		counts[d.Batch]++
		return nil
	}))
	for b := range ackedSet {
		require.Equal(t, 20, counts[b], "acknowledged batch %d", b)
	}
	for b, n := range counts {
		require.Equal(t, 20, n, "batch %d is partial", b)
	}
	t.Logf("%d batches acknowledged, %d present", len(ackedSet), len(counts))
}
