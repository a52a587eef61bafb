package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/migrations"
	"github.com/zaxy/zaxy/testcontainers"
)

func TestVerifyCommand_ReportsBrokenSeqAndExitsOne(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(ctx, []string{"append", "--space", "cli", "--type", "message", "--content", "one", "--data", `{"role":"user"}`}, getenv, nil, &out, &errOut), errOut.String())
	lines := strings.NewReader("{\"type\":\"note\",\"content\":\"two\"}\n{\"type\":\"note\",\"content\":\"three\"}\n")
	require.Equal(t, 0, run(ctx, []string{"append", "--space", "cli", "--json"}, getenv, lines, &out, &errOut), errOut.String())
	require.Equal(t, 2, run(ctx, []string{"append", "--space", "cli"}, getenv, strings.NewReader("{\"type\":\"BAD\"}\n"), &out, &errOut))
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

// TestCommands_RefuseADatabaseOfAnotherSchema: a command on a database behind (or ahead of)
// this binary's schema exits 2 naming the versions and what to run, before it reads or appends
// anything; a bench command says the same; doctor still runs and reports the schema.
func TestCommands_RefuseADatabaseOfAnotherSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out, errOut bytes.Buffer
	_, err := db.AdminPool(t).Exec(ctx, `UPDATE schema_migrations SET version = version - 1`)
	require.NoError(t, err)
	behind := fmt.Sprintf("database is at version %d, this zaxy needs %d; run 'zaxy migrate'", migrations.Latest()-1, migrations.Latest())
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"append", "--space", "cli", "--type", "message", "--content", "one", "--data", `{"role":"user"}`}, 2},
		{[]string{"projection", "status"}, 2},
		{[]string{"bench", "latent", "--sections", "fidelity"}, 1}, // a bench's database errors exit 1, as without a URL
	} {
		errOut.Reset()
		require.Equal(t, tc.code, run(ctx, tc.args, getenv, nil, &out, &errOut), "%v: %s", tc.args, errOut.String())
		require.Contains(t, errOut.String(), behind, "%v", tc.args)
	}
	var n int
	require.NoError(t, db.AdminPool(t).QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&n))
	require.Zero(t, n, "nothing was appended")

	_, err = db.AdminPool(t).Exec(ctx, `UPDATE schema_migrations SET version = version + 2`)
	require.NoError(t, err)
	errOut.Reset()
	require.Equal(t, 2, run(ctx, []string{"projection", "status"}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "newer than this zaxy")

	out.Reset()
	run(ctx, []string{"doctor", "--no-probe"}, getenv, nil, &out, &errOut)
	require.Contains(t, out.String(), "schema", "doctor runs and reports the schema: %s", out.String())
}

// TestAppendCommand_BulkFromStdinOnTheDatabase: without ZAXY_URL a bulk append with
// --idempotency-prefix goes to the database the same way: a summary, and a re-run appends
// nothing.
func TestAppendCommand_BulkFromStdinOnTheDatabase(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	lines := "{\"type\":\"note\",\"content\":\"one\"}\n{\"type\":\"note\",\"content\":\"two\"}\n{\"type\":\"note\",\"content\":\"three\"}\n"
	var out, errOut bytes.Buffer
	args := []string{"append", "--space", "bulk", "--idempotency-prefix", "p", "--batch", "2"}
	require.Equal(t, 0, run(t.Context(), args, getenv, strings.NewReader(lines), &out, &errOut), errOut.String())
	require.Equal(t, "appended 3, already present 0, seq 1-3 (2 batches)\n", out.String())
	out.Reset()
	require.Equal(t, 0, run(t.Context(), args, getenv, strings.NewReader(lines), &out, &errOut), errOut.String())
	require.Equal(t, "appended 0, already present 3, seq 1-3 (2 batches)\n", out.String())
	require.Empty(t, errOut.String(), "no progress line off a terminal")
}
