package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/internal/buildinfo"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/vocab"
)

// liveServer is `zaxy serve` run in this process on a fresh database, with tokens.
type liveServer struct {
	db  *testcontainers.Database
	url string
}

// startLiveServer runs `zaxy serve` (auth on, River workers in-process) through run and
// returns once it listens; the test's cleanup stops it and waits for it to return.
func startLiveServer(t *testing.T) *liveServer {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	env := map[string]string{"ZAXY_DATABASE_URL": db.AppURL, "ZAXY_ADDR": "127.0.0.1:0", "ZAXY_AUTH": "on",
		"ZAXY_MODEL_DIR": "/nonexistent/zaxy-models", "ZAXY_WORKERS": "2"}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve"}, func(k string) string { return env[k] }, nil, pw, &stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err, stderr.String())
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	_, url, ok := strings.Cut(strings.TrimSpace(line), "serving on ")
	require.True(t, ok, line)
	t.Cleanup(func() {
		cancel()
		require.Equal(t, 0, <-done, stderr.String())
	})
	return &liveServer{db: db, url: url}
}

// token creates a token through the database (zaxy token create) and returns it.
func (s *liveServer) token(t *testing.T, space, scope string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(t.Context(), []string{"token", "create", "--space", space, "--scope", scope}, dbEnv(s.db), nil, &out, &errOut), errOut.String())
	return strings.TrimSpace(out.String())
}

// cli runs zaxy commands with only ZAXY_URL and ZAXY_TOKEN set (and extra variables).
type cli struct {
	env map[string]string
}

func (s *liveServer) cli(token string, extra ...string) *cli {
	env := map[string]string{"ZAXY_URL": s.url, "ZAXY_TOKEN": token}
	for i := 0; i+1 < len(extra); i += 2 {
		env[extra[i]] = extra[i+1]
	}
	return &cli{env: env}
}

// run runs args with stdin and returns the exit status, stdout and stderr.
func (c *cli) run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(t.Context(), args, func(k string) string { return c.env[k] }, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// ok runs args and requires exit status 0; it returns stdout.
func (c *cli) ok(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	code, out, errOut := c.run(t, stdin, args...)
	require.Equal(t, 0, code, "%v: %s", args, errOut)
	return out
}

// TestRemote_CommandsGoThroughTheServer: with ZAXY_URL and ZAXY_TOKEN and no database (or a
// database that cannot be reached: ZAXY_URL wins), every memory and review command works over
// the HTTP API, a re-run of a bulk append with --idempotency-prefix appends nothing,
// --wait-projected returns once the facts are projected, and the server's refusals exit 2
// (bad input) or 1 (a token without the rights).
func TestRemote_CommandsGoThroughTheServer(t *testing.T) {
	t.Parallel()
	srv := startLiveServer(t)
	admin := srv.token(t, "*", "admin")
	zx := srv.cli(admin, "ZAXY_DATABASE_URL", "postgres://zaxy@127.0.0.1:1/unreachable") // ZAXY_URL wins

	require.Equal(t, "seq 1 hash ", zx.ok(t, "", "append", "--space", "demo", "--type", "message", "--content", "hello from the CLI",
		"--session", "s1", "--data", `{"role":"user"}`)[:len("seq 1 hash ")])
	lines := `{"type":"fact.asserted","occurred_at":"2024-01-01T00:00:00Z","data":{"subject":"Alice","predicate":"works at","object":"Acme"}}
{"type":"fact.asserted","occurred_at":"2024-06-01T00:00:00Z","data":{"subject":"Alice","predicate":"works at","object":"Globex"}}

{"type":"note","content":"Alice moved to Globex in June"}
`
	out := zx.ok(t, lines, "append", "--space", "demo", "--idempotency-prefix", "load-1", "--batch", "2", "--wait-projected")
	require.Equal(t, "appended 3, already present 0, seq 2-4 (2 batches)\n", out)
	// --wait-projected returned: the projection has applied seq 4, so the facts are there.
	require.Equal(t, "demo: head 4, projected 4, lag 0\n", zx.ok(t, "", "projection", "status", "--space", "demo"))
	out = zx.ok(t, "", "facts", "--space", "demo", "--entity", "alice")
	require.Contains(t, out, "Alice works at Globex")
	out = zx.ok(t, lines, "append", "--space", "demo", "--idempotency-prefix", "load-1", "--batch", "2", "--json")
	var sum bulkSummary
	require.NoError(t, json.Unmarshal([]byte(out), &sum))
	require.Equal(t, bulkSummary{AlreadyPresent: 3, Batches: 2, FirstSeq: 2, LastSeq: 4}, sum, "a re-run appends nothing")
	code, _, errOut := zx.run(t, lines, "append", "--space", "demo", "--idempotency-prefix", "load-1", "--batch", "3")
	require.Equal(t, 1, code, "the same prefix with other batches is refused, not appended twice")
	require.Contains(t, errOut, "lines 1-4: ")
	require.Contains(t, errOut, "HTTP 409 idempotency_conflict")
	out = zx.ok(t, lines, "append", "--space", "demo", "--receipts", "--batch", "2")
	require.Equal(t, 3, strings.Count(out, "seq "), "--receipts prints one line per event: %s", out)

	require.Contains(t, zx.ok(t, "", "verify", "--space", "demo"), "ok: space demo, 7 events, head seq 7")
	require.Contains(t, zx.ok(t, "", "verify", "--space", "demo", "--method", "sql"), "ok: space demo, 7 events")
	out = zx.ok(t, "", "replay", "--space", "demo", "--after-seq", "1", "--until-seq", "3")
	require.Equal(t, 2, strings.Count(out, "\n"), out)
	require.Contains(t, out, `"seq":2`)
	require.Contains(t, zx.ok(t, "", "facts", "--space", "demo", "--entity", "alice", "--at", "2024-03-01T00:00:00Z"), "Alice works at Acme")
	out = zx.ok(t, "", "checkout", "--space", "demo", "--query", "where does Alice work?", "--max-tokens", "500")
	require.Contains(t, out, "Globex")
	require.Contains(t, out, "tokens")
	require.Contains(t, zx.ok(t, "", "index", "--space", "demo", "--json"), `"tokens"`)
	require.Contains(t, zx.ok(t, "", "timeline", "--space", "demo"), "tokens)")
	require.Contains(t, zx.ok(t, "", "show", "ev:1", "--space", "demo"), "hello from the CLI")
	require.Contains(t, zx.ok(t, "", "projection", "status", "--space", "demo"), "demo: head ")
	require.Contains(t, zx.ok(t, "", "policy", "list", "--space", "demo"), "current")

	// Review: a proposal made through the API is listed and accepted by the CLI.
	api, err := client.New(srv.url, client.WithToken(admin))
	require.NoError(t, err)
	prop, err := api.ProposeMemoryUpdate(t.Context(), "demo", &client.ProposeRequest{Kind: "belief_update", Evidence: []int64{4},
		Fact: &vocab.FactAsserted{Subject: "Alice", Predicate: "lives in", Object: ptr("Berlin")}})
	require.NoError(t, err)
	pseq := fmt.Sprint(prop.Event.Seq)
	require.NoError(t, waitProjected(t.Context(), &env{api: api, stderr: io.Discard}, "demo", prop.Event.Seq))
	require.Contains(t, zx.ok(t, "", "review", "list", "--space", "demo"), pseq+"\tpending")
	require.Contains(t, zx.ok(t, "", "review", "accept", pseq, "--space", "demo", "--reason", "checked"), "proposal "+pseq+" accepted")

	// Ingest over HTTP: a document and a transcript, each appended once.
	dir := t.TempDir()
	doc := dir + "/notes.md"
	require.NoError(t, os.WriteFile(doc, []byte("# Notes\n\nAlice prefers tea.\n"), 0o644))
	require.Contains(t, zx.ok(t, "", "ingest", "docs", "--space", "demo", doc), "1 appended, 0 unchanged")
	require.Contains(t, zx.ok(t, "", "ingest", "docs", "--space", "demo", doc), "0 appended, 1 unchanged")
	chat := "{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"assistant\",\"content\":\"hello\"}\n"
	require.Contains(t, zx.ok(t, chat, "ingest", "transcript", "--space", "demo", "--session", "s2", "-"), "2 messages in 1 batches, appended")
	require.Contains(t, zx.ok(t, chat, "ingest", "transcript", "--space", "demo", "--session", "s2", "-"), "2 messages, unchanged")

	// Erase needs an admin token; a write token is refused (exit 1) and says why.
	writer := srv.cli(srv.token(t, "demo", "write"))
	code, _, errOut = writer.run(t, "", "erase", "--space", "demo", "--seq", "1", "--reason", "asked")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "HTTP 403")
	require.Contains(t, zx.ok(t, "", "erase", "--space", "demo", "--seq", "1", "--reason", "asked"), "erased: space demo seq 1")

	// The server's refusal of bad input exits 2; an unknown token exits 1 naming ZAXY_TOKEN.
	code, _, errOut = zx.run(t, "", "append", "--space", "demo", "--type", "BAD")
	require.Equal(t, 2, code, errOut)
	require.Contains(t, errOut, "HTTP 400 invalid_request")
	code, _, errOut = srv.cli("zx_nope").run(t, "", "verify", "--space", "demo")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "HTTP 401")
	require.Contains(t, errOut, "ZAXY_TOKEN")

	// The server reports the build zaxy version prints, in /healthz and /metrics.
	health, err := api.Health(t.Context())
	require.NoError(t, err)
	bi := buildinfo.Get()
	require.Equal(t, client.Status{Status: "ok", Version: bi.Version, Revision: bi.Revision, GoVersion: bi.GoVersion}, *health)
	metrics, err := api.Metrics(t.Context())
	require.NoError(t, err)
	require.Contains(t, metrics, fmt.Sprintf(`zaxy_build_info{goversion=%q,revision=%q,version=%q} 1`, bi.GoVersion, bi.Revision, bi.Version))

	// A space with no events: facts answers nothing and says so, without failing.
	code, out, errOut = zx.run(t, "", "facts", "--space", "typo")
	require.Equal(t, 0, code, errOut)
	require.Empty(t, out)
	require.Contains(t, errOut, `space "typo" has no events`)
}

// TestRemote_TranscriptReportsProgressPerPart: a transcript of more turns than one part is
// imported part by part, each reported as it lands; a repeat appends nothing.
func TestRemote_TranscriptReportsProgressPerPart(t *testing.T) {
	t.Parallel()
	srv := startLiveServer(t)
	zx := srv.cli(srv.token(t, "chat", "write"))
	var b strings.Builder
	for i := range transcriptPartTurns + 5 {
		fmt.Fprintf(&b, "{\"role\":\"user\",\"content\":\"turn %d\"}\n", i)
	}
	code, out, errOut := zx.run(t, b.String(), "ingest", "transcript", "--space", "chat", "--session", "s1", "-")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, errOut, fmt.Sprintf("turns 1-%d of %d appended (seq 1-%d)", transcriptPartTurns, transcriptPartTurns+5, transcriptPartTurns))
	require.Contains(t, errOut, fmt.Sprintf("turns %d-%d of %d appended", transcriptPartTurns+1, transcriptPartTurns+5, transcriptPartTurns+5))
	require.Contains(t, out, fmt.Sprintf("%d messages in 2 batches, appended", transcriptPartTurns+5))
	code, out, errOut = zx.run(t, b.String(), "ingest", "transcript", "--space", "chat", "--session", "s1", "-")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "unchanged")
	require.Contains(t, errOut, "unchanged")
}

func ptr[T any](v T) *T { return &v }
