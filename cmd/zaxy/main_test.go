package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

func TestVerifyCommand_ReportsBrokenSeqAndExitsOne(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(ctx, []string{"append", "--space", "cli", "--type", "message", "--content", "one", "--data", `{"role":"user"}`}, getenv, nil, &out, &errOut), errOut.String())
	lines := strings.NewReader("{\"type\":\"note\",\"content\":\"two\"}\n{\"type\":\"note\",\"content\":\"three\"}\n")
	require.Equal(t, 0, run(ctx, []string{"append", "--space", "cli", "--json"}, getenv, lines, &out, &errOut), errOut.String())
	require.Equal(t, 1, run(ctx, []string{"append", "--space", "cli"}, getenv, strings.NewReader("{\"type\":\"BAD\"}\n"), &out, &errOut))
	require.Contains(t, errOut.String(), "line 1: type")
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"verify", "--space", "cli"}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "ok:")

	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"replay", "--space", "cli"}, getenv, nil, &out, &errOut), errOut.String())
	require.Equal(t, 3, strings.Count(out.String(), "\n"))

	_, err := db.AdminPool(t).Exec(ctx, `SET session_replication_role = replica; UPDATE events SET content = 'forged' WHERE seq = 2`)
	require.NoError(t, err)
	for _, method := range []string{"go", "sql"} {
		out.Reset()
		require.Equal(t, 1, run(ctx, []string{"verify", "--space", "cli", "--method", method}, getenv, nil, &out, &errOut))
		require.Contains(t, out.String(), "BROKEN at seq 2")
	}
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"--help"}, getenv, nil, &out, &errOut))
	require.Contains(t, out.String(), "ZAXY_MAX_BATCH")
}
