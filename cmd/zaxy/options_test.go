package main

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/jobs"
)

var update = flag.Bool("update", false, "rewrite docs/operations.md's options table")

const (
	docBegin = "<!-- BEGIN options table (generated from cmd/zaxy/options.go; do not edit by hand) -->\n"
	docEnd   = "<!-- END options table -->\n"
)

// docs/operations.md's environment table is the options table, written by writeEnvMarkdown.
func TestOptions_OperationsDocIsCurrent(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "..", "docs", "operations.md")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	doc := string(b)
	begin, end := strings.Index(doc, docBegin), strings.Index(doc, docEnd)
	require.True(t, begin >= 0 && end > begin, "docs/operations.md lost its options table markers")
	var want bytes.Buffer
	writeEnvMarkdown(&want)
	got := doc[begin+len(docBegin) : end]
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(doc[:begin+len(docBegin)]+want.String()+doc[end:]), 0o644))
		return
	}
	require.Equal(t, want.String(), got,
		"docs/operations.md's environment table is out of date with cmd/zaxy/options.go: run go test ./cmd/zaxy -run TestOptions_OperationsDocIsCurrent -update")
}

// Every ZAXY_* name in the module's Go code (outside tests) is an option, and only cmd/, the
// test harness (testcontainers) and the Go client's NewFromEnv (client/env.go: ZAXY_URL and
// ZAXY_TOKEN, as the CLI reads them) read the environment.
func TestOptions_EveryVariableIsInTheTable(t *testing.T) {
	t.Parallel()
	names := regexp.MustCompile(`\bZAXY_[A-Z0-9_]*[A-Z0-9]\b`)
	reads := regexp.MustCompile(`\bos\.(Getenv|LookupEnv|Environ)\(`)
	seen := map[string]bool{}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		for _, n := range names.FindAllString(string(b), -1) {
			seen[n] = true
			require.NotPanics(t, func() { lookupOption(n) }, "%s names %s, which is not in cmd/zaxy/options.go", rel, n)
		}
		if !strings.HasPrefix(rel, "cmd/") && !strings.HasPrefix(rel, "testcontainers/") && rel != "client/env.go" {
			require.False(t, reads.Match(b), "%s reads the environment; parse it in cmd/ (STYLE.md habit 6)", rel)
		}
		return nil
	})
	require.NoError(t, err)
	require.True(t, seen["ZAXY_WORKERS"] && seen["ZAXY_TEST_DATABASE_URL"], "the walk found the sources")
}

// With nothing set every option takes the table's default, and the table's defaults are the
// ones the packages document.
func TestReadConfig_DefaultsComeFromTheTable(t *testing.T) {
	t.Parallel()
	c, err := readConfig(func(string) string { return "" })
	require.NoError(t, err)
	require.Equal(t, "", c.databaseURL)
	require.Equal(t, "127.0.0.1:8080", c.addr)
	require.Equal(t, 10, c.workers)
	require.Equal(t, "english", c.memory.textSearchConfig)
	require.Equal(t, "auto", c.memory.embedder)
	require.Equal(t, defaultModelDir, c.memory.modelDir)
	require.Equal(t, 30*time.Second, c.shutdownTimeout)
	require.Equal(t, api.Config{MaxBodyBytes: 1 << 20, MaxBatch: 1000, RequestTimeout: 30 * time.Second, MaxInFlight: api.DefaultMaxInFlight,
		MaxAnalyticsInFlight: api.DefaultMaxAnalyticsInFlight, MaxResponseBytes: api.DefaultMaxResponseBytes}, c.http)
	require.Equal(t, jobs.DefaultJobTimeout, c.jobTimeout)
	require.Equal(t, jobs.DefaultRescueStuckJobsAfter, c.rescueAfter)
	require.Equal(t, "core", c.mcpProfile)
	require.False(t, c.authOff)

	c, err = readConfig(func(k string) string {
		return map[string]string{"DATABASE_URL": "postgres://fallback", "ZAXY_JOB_TIMEOUT": "20m"}[k]
	})
	require.NoError(t, err)
	require.Equal(t, "postgres://fallback", c.databaseURL)
	require.Equal(t, 20*time.Minute, c.rescueAfter, "the rescue default follows a longer job timeout")

	for _, tc := range []struct{ name, value string }{
		{"ZAXY_WORKERS", "ten"}, {"ZAXY_SHUTDOWN_TIMEOUT", "-1s"}, {"ZAXY_EMBEDDING_DIMENSIONS", "0"},
		{"ZAXY_MCP_PROFILE", "most"}, {"ZAXY_MAX_BATCH", "0"}, {"ZAXY_REQUEST_TIMEOUT", "30"},
	} {
		_, err := readConfig(func(k string) string { return map[string]string{tc.name: tc.value}[k] })
		require.ErrorContains(t, err, tc.name, "%s=%s", tc.name, tc.value)
	}
	require.Panics(t, func() { envReader{getenv: os.Getenv}.str("ZAXY_NOT_AN_OPTION") })
}

// The runner prints every error one way, "zaxy <command>: <error>", and exits 2 for usage
// errors and bad input, 1 for failures.
func TestRun_ExitStatusAndErrors(t *testing.T) {
	t.Parallel()
	noDB := func(string) string { return "" }
	for _, tc := range []struct {
		args   []string
		env    map[string]string
		code   int
		stderr []string
	}{
		{args: []string{"frobnicate"}, code: 2, stderr: []string{`zaxy: unknown command "frobnicate" (zaxy --help lists the commands)` + "\n"}},
		{args: []string{"chekout"}, code: 2, stderr: []string{`zaxy: unknown command "chekout"; did you mean "checkout"? (zaxy --help lists the commands)` + "\n"}},
		{args: []string{"ingest"}, code: 2, stderr: []string{"zaxy ingest: want one of docs, transcript (zaxy ingest --help)\n"}},
		{args: []string{"token", "mint"}, code: 2, stderr: []string{`zaxy token: unknown command "mint" (want one of create, revoke, list)`}},
		{args: []string{"review", "lsit"}, code: 2, stderr: []string{`zaxy review: unknown command "lsit"; did you mean "list"?`}},
		{args: []string{"verify", "--space", "a"}, code: 2, stderr: []string{"zaxy verify: no server and no database: set ZAXY_URL (and ZAXY_TOKEN", "or ZAXY_DATABASE_URL"}},
		{args: []string{"verify", "--space", "a"}, env: map[string]string{"ZAXY_DATABASE_URL": "postgres://zaxy@127.0.0.1:1/none?connect_timeout=5"}, code: 1,
			stderr: []string{"zaxy verify: connect to database"}},
		{args: []string{"verify", "--space", "a"}, env: map[string]string{"ZAXY_URL": "http://127.0.0.1:1"}, code: 1,
			stderr: []string{"zaxy verify: cannot reach the server at http://127.0.0.1:1 (ZAXY_URL)"}},
		{args: []string{"--url", "http://127.0.0.1:1", "--token=t", "verify", "--space", "a"}, code: 1,
			stderr: []string{"zaxy verify: cannot reach the server at http://127.0.0.1:1 (ZAXY_URL)"}},
		{args: []string{"verify", "--space", "a", "--url", "ftp://x"}, code: 2, stderr: []string{"zaxy verify: ZAXY_URL (or --url): client: base URL must be http(s)"}},
		{args: []string{"serve"}, code: 2, stderr: []string{"zaxy serve: ZAXY_DATABASE_URL is not set"}},
		{args: []string{"migrate"}, code: 2, stderr: []string{"zaxy migrate: ZAXY_DATABASE_URL is not set"}},
		{args: []string{"rebuild", "--all"}, env: map[string]string{"ZAXY_URL": "http://127.0.0.1:1"}, code: 2,
			stderr: []string{"zaxy rebuild: ZAXY_DATABASE_URL is not set (run 'make db' to get one); ZAXY_URL is set, but zaxy rebuild has no HTTP route"}},
		{args: []string{"verify", "--spaces", "a"}, code: 2, stderr: []string{"flag provided but not defined: -spaces", "usage: zaxy verify --space S"}},
		{args: []string{"verify", "--space", "a", "extra"}, code: 2, stderr: []string{`zaxy verify: unexpected argument "extra"`}},
		{args: []string{"bench", "append", "--events", "10"}, code: 2, stderr: []string{"zaxy bench append: --events must be at least 800, got 10", "usage: zaxy bench append"}},
		{args: []string{"bench", "checkout", "--queries", "1"}, code: 2, stderr: []string{"zaxy bench checkout: --queries must be at least 10"}},
		{args: []string{"bench", "checkout", "--session-events", "0"}, code: 2, stderr: []string{"zaxy bench checkout: --session-events must be between 1 and --memories (100000), got 0"}},
		{args: []string{"bench", "append"}, code: 1, stderr: []string{"zaxy bench append: ZAXY_DATABASE_URL is not set"}},
		{args: []string{"facts", "--space", "a"}, env: map[string]string{"ZAXY_WORKERS": "many"}, code: 2,
			stderr: []string{`zaxy facts: ZAXY_WORKERS must be a positive integer, got "many"`}},
		{args: []string{"index"}, code: 2, stderr: []string{"zaxy index: --space is required", "usage: zaxy index --space S"}},
		{args: []string{"show", "--space", "a"}, code: 2, stderr: []string{"zaxy show: want exactly one ID"}},
		{args: []string{"token", "revoke"}, code: 2, stderr: []string{"zaxy token revoke: want exactly one token ID"}},
		{args: []string{"erase", "--space", "a", "--seq", "1"}, code: 2, stderr: []string{"zaxy erase: ", "reason"}},
	} {
		getenv := noDB
		if tc.env != nil {
			getenv = func(k string) string { return tc.env[k] }
		}
		var out, errOut bytes.Buffer
		require.Equal(t, tc.code, run(t.Context(), tc.args, getenv, nil, &out, &errOut), "%v: %s", tc.args, errOut.String())
		for _, s := range tc.stderr {
			require.Contains(t, errOut.String(), s, tc.args)
		}
		require.Empty(t, out.String(), tc.args)
	}

	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(t.Context(), []string{"help", "env"}, noDB, nil, &out, &errOut))
	require.Contains(t, out.String(), "ZAXY_WORKERS                  River workers in this process")
	require.NotContains(t, out.String(), "ZAXY_TEST_DATABASE_URL", "help lists what the service reads")
	out.Reset()
	require.Equal(t, 0, run(t.Context(), []string{"--help"}, noDB, nil, &out, &errOut))
	for _, c := range commands {
		if !strings.HasPrefix(c.name, "bench ") {
			require.Contains(t, out.String(), "\n  "+c.name, "zaxy --help lists %s", c.name)
		}
	}
	require.Contains(t, out.String(), "ZAXY_RESCUE_STUCK_JOBS_AFTER")
}

// TestHelp_GroupsCommandsAndFoldsBench: zaxy --help lists every command under a heading, bench
// as one line; zaxy bench --help lists the benchmarks; zaxy --version and zaxy version print
// the build.
func TestHelp_GroupsCommandsAndFoldsBench(t *testing.T) {
	t.Parallel()
	noDB := func(string) string { return "" }
	for i := range commands {
		require.NotNil(t, groupOf(&commands[i]), "%s has a heading in helpGroups", commands[i].name)
	}
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(t.Context(), []string{"--help"}, noDB, nil, &out, &errOut))
	help := out.String()
	for _, h := range []string{"\nServe:\n", "\nMemory (over ZAXY_URL, or the database):\n", "\nReview and policy:\n", "\nOperate (the database: ZAXY_DATABASE_URL):\n", "\nBench:\n  bench "} {
		require.Contains(t, help, h)
	}
	require.NotContains(t, help, "bench checkout", "bench's commands live under zaxy bench --help")
	require.Contains(t, help, "ZAXY_URL wins over ZAXY_DATABASE_URL")
	out.Reset()
	require.Equal(t, 0, run(t.Context(), []string{"bench", "--help"}, noDB, nil, &out, &errOut))
	for _, c := range commands {
		if strings.HasPrefix(c.name, "bench ") {
			require.Contains(t, out.String(), "\n  "+c.name, "zaxy bench --help lists %s", c.name)
		}
	}
	require.NotContains(t, out.String(), "zaxy serve")
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out.Reset()
		require.Equal(t, 0, run(t.Context(), args, noDB, nil, &out, &errOut))
		require.Regexp(t, `^zaxy \S+ \(.*go1\.\d+.*\)\n$`, out.String())
	}
	require.Empty(t, errOut.String())
}

// TestReadConfig_TracingFromTheStandardVariables: tracing is off without an endpoint, the
// traces endpoint wins over the general one, OTEL_SDK_DISABLED turns it off, and a bad value
// is named.
func TestReadConfig_TracingFromTheStandardVariables(t *testing.T) {
	t.Parallel()
	read := func(env map[string]string) (*config, error) {
		return readConfig(func(k string) string { return env[k] })
	}
	c, err := read(nil)
	require.NoError(t, err)
	require.False(t, c.tracing.On())
	require.Equal(t, "zaxy", c.tracing.ServiceName)
	c, err = read(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://traces:4318/v1/traces"})
	require.NoError(t, err)
	require.True(t, c.tracing.On())
	require.Equal(t, "http://traces:4318/v1/traces", c.tracing.Endpoint)
	c, err = read(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_SDK_DISABLED": "TRUE"})
	require.NoError(t, err)
	require.False(t, c.tracing.On())
	_, err = read(map[string]string{"OTEL_SDK_DISABLED": "maybe"})
	require.ErrorContains(t, err, "OTEL_SDK_DISABLED")
}
