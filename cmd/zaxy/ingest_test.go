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

func TestIngestCommand_DocsAndTranscripts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	env := map[string]string{"ZAXY_DATABASE_URL": db.AppURL, "ZAXY_SPACE": "cli"}
	getenv := func(k string) string { return env[k] }
	count := func() int {
		var n int
		require.NoError(t, db.AdminPool(t).QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&n))
		return n
	}
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	write("README.md", "# Title\n\nIntro.\n\n## Part\n\nBody with password=hunter22 in it.\n")
	write("sub/notes.txt", "plain notes")
	write("sub/deep/guide.rst", "Guide\n=====\n\ntext")
	write(".git/config.md", "# hidden: never ingested")
	write("sub/.draft.md", "dot-file: never ingested")
	write("image.png", "\x89PNG\x00\x00")
	write("sub/blob.txt", "binary\x00data")
	var out, errOut bytes.Buffer

	require.Equal(t, 0, run(ctx, []string{"ingest", "docs", dir}, getenv, nil, &out, &errOut), errOut.String())
	text := out.String()
	require.Contains(t, text, "README.md: 1 chunks, appended (seq 1-1), 1 secrets redacted")
	require.Contains(t, text, "sub/notes.txt: 1 chunks, appended")
	require.Contains(t, text, "sub/deep/guide.rst: 1 chunks, appended")
	require.Contains(t, text, "sub/blob.txt: skipped (binary or not UTF-8)")
	require.Contains(t, text, "3 appended, 0 unchanged, 1 skipped, 0 failed")
	require.NotContains(t, text, "config.md")
	require.NotContains(t, text, "draft")
	require.NotContains(t, text, "image.png")
	require.Equal(t, 3, count())

	// Unchanged: nothing appended. --json, flags after the path, one file changed.
	write("sub/notes.txt", "plain notes, edited")
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"ingest", "docs", dir, "--json"}, getenv, nil, &out, &errOut), errOut.String())
	reports := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &r), line)
		reports[filepath.Base(r["path"].(string))] = r
	}
	require.Equal(t, false, reports["README.md"]["appended"])
	require.Equal(t, true, reports["notes.txt"]["appended"])
	require.EqualValues(t, 4, reports["notes.txt"]["first_seq"])
	require.Equal(t, "binary or not UTF-8", reports["blob.txt"]["skipped"])
	require.Equal(t, 4, count())

	// The log holds the redacted text.
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"replay", "--space", "cli"}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "password=[REDACTED:password]")
	require.NotContains(t, out.String(), "hunter22")

	// A missing path fails the command (exit 1) without stopping the others.
	out.Reset()
	require.Equal(t, 1, run(ctx, []string{"ingest", "docs", filepath.Join(dir, "nope.md"), filepath.Join(dir, "README.md")}, getenv, nil, &out, &errOut))
	require.Contains(t, out.String(), "nope.md: FAILED")
	require.Contains(t, out.String(), "README.md: 1 chunks, unchanged")

	// Transcripts from stdin: a bad line appends nothing; a good file appends once.
	bad := "{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"robot\",\"content\":\"x\"}\n"
	errOut.Reset()
	require.Equal(t, 2, run(ctx, []string{"ingest", "transcript", "--session", "s1", "-"}, getenv, strings.NewReader(bad), &out, &errOut))
	require.Contains(t, errOut.String(), "line 2: role: must be one of user, assistant, system, tool")
	require.Contains(t, errOut.String(), "nothing was appended")
	require.Equal(t, 4, count())

	write("chat.jsonl", "{\"role\":\"user\",\"content\":\"my token is ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789\"}\n{\"role\":\"assistant\",\"content\":\"Revoke it.\"}\n")
	out.Reset()
	args := []string{"ingest", "transcript", "--space", "chat", "--session", "s1", filepath.Join(dir, "chat.jsonl")}
	require.Equal(t, 0, run(ctx, args, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "2 messages in 1 batches, appended (seq 1-2), 1 secrets redacted")
	out.Reset()
	require.Equal(t, 0, run(ctx, args, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "unchanged (imported before as seq 1-2)")
	require.Equal(t, 6, count())
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"replay", "--space", "chat", "--session", "s1"}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "my token is [REDACTED:github_token]")

	// --space is required when ZAXY_SPACE is not set.
	delete(env, "ZAXY_SPACE")
	errOut.Reset()
	require.Equal(t, 2, run(ctx, []string{"ingest", "docs", dir}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "--space is required")
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"--help"}, getenv, nil, &out, &errOut))
	require.Contains(t, out.String(), "ingest transcript")
	require.Contains(t, out.String(), "ZAXY_SPACE")
}
