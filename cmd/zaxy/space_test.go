package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// ownerEnv is dbEnv as the schema owner, which imports run as.
func ownerEnv(db *testcontainers.Database) func(string) string {
	app := dbEnv(db)
	return func(k string) string {
		if k == "ZAXY_DATABASE_URL" {
			return db.AdminURL
		}
		return app(k)
	}
}

func TestSpaceExportImport_CLIMovesALogAndRefusesABadFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src, dst := testcontainers.NewDatabase(t), testcontainers.NewDatabase(t)
	var out, errOut bytes.Buffer
	for _, c := range []string{"first <b>&</b>", "my secret is hunter2", "third, with a \"quote\""} {
		require.Equal(t, 0, run(ctx, []string{"append", "--space", "cli", "--type", "note", "--content", c, "--data", `{"n":1.50}`},
			dbEnv(src), nil, &out, &errOut), errOut.String())
	}
	require.Equal(t, 0, run(ctx, []string{"erase", "--space", "cli", "--seq", "2", "--reason", "user request"}, dbEnv(src), nil, &out, &errOut), errOut.String())

	dir := t.TempDir()
	path := filepath.Join(dir, "cli.export.jsonl")
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"space", "export", "--space", "cli", "--out", path}, dbEnv(src), nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "exported: space cli, 4 events, head seq 4")
	file, err := os.ReadFile(path)
	require.NoError(t, err)
	code, vout := runVerifylog(t, path)
	require.Equal(t, 0, code, vout)
	require.Contains(t, vout, "OK: space cli, 4 events, head seq 4")

	// To stdout, the same log.
	out.Reset()
	errOut.Reset()
	require.Equal(t, 0, run(ctx, []string{"space", "export", "--space", "cli"}, dbEnv(src), nil, &out, &errOut), errOut.String())
	require.Equal(t, strings.Split(string(file), "\n")[1:5], strings.Split(out.String(), "\n")[1:5])
	require.Contains(t, errOut.String(), "exported: space cli")

	// The application role may not import; the owner may, once.
	errOut.Reset()
	require.Equal(t, 1, run(ctx, []string{"space", "import", "--space", "cli", path}, dbEnv(dst), nil, &out, &errOut))
	require.Contains(t, errOut.String(), "schema owner")
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"space", "import", "--space", "cli", path}, ownerEnv(dst), nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "imported: space cli, 4 events, head seq 4")
	for _, m := range []string{"go", "sql"} {
		out.Reset()
		require.Equal(t, 0, run(ctx, []string{"verify", "--space", "cli", "--method", m}, dbEnv(dst), nil, &out, &errOut), out.String())
	}
	// Projected from the imported log, the target's projections are the source's.
	checksum := func(db *testcontainers.Database) string {
		out.Reset()
		require.Equal(t, 0, run(ctx, []string{"rebuild", "--space", "cli", "--no-embed"}, dbEnv(db), nil, &out, &errOut), errOut.String())
		out.Reset()
		require.Equal(t, 0, run(ctx, []string{"projection", "checksum", "--space", "cli"}, dbEnv(db), nil, &out, &errOut), errOut.String())
		return out.String()
	}
	srcSum := checksum(src)
	require.NotContains(t, srcSum, " 0 items)")
	require.Equal(t, srcSum, checksum(dst))

	errOut.Reset()
	require.Equal(t, 1, run(ctx, []string{"space", "import", "--space", "cli", "-"}, ownerEnv(dst), bytes.NewReader(file), &out, &errOut))
	require.Contains(t, errOut.String(), "already has events")

	// A tampered file: the importer and the independent verifier name the seq.
	tampered := bytes.Replace(file, []byte(`third, with`), []byte(`THIRD, with`), 1)
	require.NoError(t, os.WriteFile(path, tampered, 0o600))
	errOut.Reset()
	require.Equal(t, 1, run(ctx, []string{"space", "import", "--space", "cli", "--check", path}, dbEnv(dst), nil, &out, &errOut))
	require.Contains(t, errOut.String(), "bad export at seq 3")
	code, vout = runVerifylog(t, path)
	require.Equal(t, 1, code, vout)
	require.Contains(t, vout, "BROKEN at seq 3")

	// A truncated file (the trailer cut off).
	lines := strings.SplitAfter(string(file), "\n")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines[:len(lines)-2], "")), 0o600))
	errOut.Reset()
	require.Equal(t, 1, run(ctx, []string{"space", "import", "--space", "cli", "--check", path}, dbEnv(dst), nil, &out, &errOut))
	require.Contains(t, errOut.String(), "bad export at seq 5")
	require.Contains(t, errOut.String(), "truncated")
	code, vout = runVerifylog(t, path)
	require.Equal(t, 1, code, vout)
	require.Contains(t, vout, "BROKEN at seq 5: the export is truncated")

	errOut.Reset()
	require.Equal(t, 2, run(ctx, []string{"space", "import", "--space", "cli", "--head-hash", "xyz", path}, dbEnv(dst), nil, &out, &errOut))
	require.Contains(t, errOut.String(), "--head-hash")
}
