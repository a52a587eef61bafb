package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

func TestErase_CLIErasesVerifiesAndRefuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out, errOut bytes.Buffer
	for _, c := range []string{"keep this", "my secret is hunter2", "keep that"} {
		require.Equal(t, 0, run(ctx, []string{"append", "--space", "cli", "--type", "note", "--content", c}, getenv, nil, &out, &errOut), errOut.String())
	}

	errOut.Reset()
	require.Equal(t, 2, run(ctx, []string{"erase", "--space", "cli", "--seq", "2"}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "reason")

	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"erase", "--space", "cli", "--seq", "2", "--reason", "user request", "--json"}, getenv, nil, &out, &errOut), errOut.String())
	var res struct {
		Seq        int64 `json:"seq"`
		ErasureSeq int64 `json:"erasure_seq"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &res))
	require.Equal(t, int64(2), res.Seq)
	require.Equal(t, int64(4), res.ErasureSeq)

	errOut.Reset()
	require.Equal(t, 1, run(ctx, []string{"erase", "--space", "cli", "--seq", "2", "--reason", "again"}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "already erased")
	errOut.Reset()
	require.Equal(t, 1, run(ctx, []string{"erase", "--space", "cli", "--seq", "4", "--reason", "hide it"}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "erasure record")

	for _, m := range []string{"go", "sql"} {
		out.Reset()
		require.Equal(t, 0, run(ctx, []string{"verify", "--space", "cli", "--method", m}, getenv, nil, &out, &errOut), out.String())
	}
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"replay", "--space", "cli"}, getenv, nil, &out, &errOut), errOut.String())
	require.NotContains(t, out.String(), "hunter2")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 4)
	require.Contains(t, lines[1], `"erased_by_seq":4`)
	require.Contains(t, lines[3], `"type":"erasure.recorded"`)
	path := filepath.Join(t.TempDir(), "cli.jsonl")
	require.NoError(t, os.WriteFile(path, out.Bytes(), 0o600))
	code, vout := runVerifylog(t, path)
	require.Equal(t, 0, code, vout)

	// Erased, then edited back: the independent verifier names the seq.
	forged := strings.Replace(out.String(), `"erased_by_seq":4`, `"content":"my secret is hunter2","erased_by_seq":4`, 1)
	require.NoError(t, os.WriteFile(path, []byte(forged), 0o600))
	code, vout = runVerifylog(t, path)
	require.Equal(t, 1, code, vout)
	require.Contains(t, vout, "BROKEN at seq 2: an erased event holds more than the tombstone")
	// The erasure record cut off: the erased event is unbound.
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines[:3], "\n")+"\n"), 0o600))
	code, vout = runVerifylog(t, path)
	require.Equal(t, 1, code, vout)
	require.Contains(t, vout, "BROKEN at seq 2: the event is erased but no later erasure.recorded event names it")
}
