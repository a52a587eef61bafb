package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// TestBenchReplicaCommand_MeasuresAStandby runs zaxy bench replica small against a real
// streaming standby (skipped unless testcontainers.LocalClusters): every section reports, the
// standby serves reads under the writer (a wait of 5 s, which a loaded machine's replay meets),
// the copied space arrives, and --out holds the JSON.
func TestBenchReplicaCommand_MeasuresAStandby(t *testing.T) {
	t.Parallel()
	primary := testcontainers.StartCluster(t, "benchrepl")
	standby := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{})
	getenv := func(k string) string {
		switch k {
		case "ZAXY_DATABASE_URL":
			return primary.AdminURL
		case "ZAXY_REPLICA_URLS":
			return standby.AdminURL
		case "ZAXY_MODEL_DIR":
			return "/nonexistent/zaxy-models"
		}
		return ""
	}
	out := filepath.Join(t.TempDir(), "replica.json")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"bench", "replica", "--memories", "200", "--queries", "10", "--warmup", "2",
		"--corpus", "/nonexistent", "--write-rate", "20", "--duration", "2s", "--copy-events", "500", "--wait", "5s", "--out", out},
		getenv, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Contains(t, stdout.String(), "ranked on the standby")
	require.Contains(t, stdout.String(), "copy a space of 500 events")

	b, err := os.ReadFile(out)
	require.NoError(t, err)
	var rep struct {
		StandbyP50 float64 `json:"standby_checkout_p50_ms"`
		Load       struct {
			Writes, Reads    int64
			Replica, Primary uint64
		} `json:"load"`
		Copy struct {
			Events    int   `json:"events"`
			FileBytes int64 `json:"file_bytes"`
		} `json:"copy"`
	}
	require.NoError(t, json.Unmarshal(b, &rep))
	require.Positive(t, rep.StandbyP50)
	require.Positive(t, rep.Load.Writes)
	require.Positive(t, rep.Load.Replica, "the standby served no read under the writer")
	require.Equal(t, uint64(rep.Load.Reads), rep.Load.Replica+rep.Load.Primary)
	require.Equal(t, 500, rep.Copy.Events)
	require.Positive(t, rep.Copy.FileBytes)
}

// TestBenchReplicaCommand_NeedsAStandby: without --replica-url or ZAXY_REPLICA_URLS the command
// says how to get one.
func TestBenchReplicaCommand_NeedsAStandby(t *testing.T) {
	t.Parallel()
	getenv := func(k string) string {
		if k == "ZAXY_DATABASE_URL" {
			return "postgres://u@127.0.0.1:1/x"
		}
		return ""
	}
	var stdout, stderr bytes.Buffer
	require.Equal(t, 1, run(context.Background(), []string{"bench", "replica"}, getenv, nil, &stdout, &stderr))
	require.Contains(t, stderr.String(), "--replica-url")
	require.Equal(t, 2, run(context.Background(), []string{"bench", "replica", "--readers", "0"}, getenv, nil, &stdout, &stderr))
	require.Contains(t, stderr.String(), "--readers")
}
