package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/maintenance"
	"github.com/zaxy/zaxy/mcp"
	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/tokenize"
)

// option is one environment variable zaxy reads: the one place its name, default and meaning
// are written. readConfig parses through it (envReader refuses a name that is not here),
// `zaxy help env` and `zaxy --help` print it, and docs/operations.md's environment table is
// generated from it (TestOptions_OperationsDocIsCurrent fails when the doc is out of date).
type option struct {
	name string
	// def is the default as the parser reads it; "" means none, or one computed from other
	// options (defDoc says which).
	def string
	// defDoc is how the default reads in help and docs when def alone does not say it.
	defDoc string
	// doc says what the variable does, in plain text.
	doc string
	// test marks a variable only the test suite reads (package testcontainers).
	test bool
}

// options are every environment variable zaxy reads, in the order help and docs list them.
var options = []option{
	{name: "ZAXY_DATABASE_URL", doc: "PostgreSQL URL; `DATABASE_URL` when unset"},
	{name: "DATABASE_URL", doc: "PostgreSQL URL read when `ZAXY_DATABASE_URL` is unset"},
	{name: "ZAXY_URL",
		doc: "the CLI's server, e.g. `http://127.0.0.1:8080`: every command with an HTTP route (append, replay, verify, erase, ingest, facts, index, timeline, show, checkout, review, policy, projection status) talks to this `zaxy serve` instead of the database, and wins over `ZAXY_DATABASE_URL` for them (`--url` wins over both; docs/cli.md)"},
	{name: "ZAXY_TOKEN", doc: "bearer token the CLI sends to `ZAXY_URL` (`zaxy token create`; `--token` wins)"},
	{name: "ZAXY_ADDR", def: "127.0.0.1:8080", doc: "HTTP listen address"},
	{name: "ZAXY_MAX_BODY_BYTES", def: "1048576", doc: "request body limit in bytes"},
	{name: "ZAXY_MAX_BATCH", def: "1000", doc: "events per append request"},
	{name: "ZAXY_REQUEST_TIMEOUT", def: "30s", doc: "per-request deadline"},
	{name: "ZAXY_SHUTDOWN_TIMEOUT", def: "30s", doc: "graceful shutdown limit"},
	{name: "ZAXY_WORKERS", def: "10", doc: "River workers in this process (`zaxy serve`, `zaxy worker`, `zaxy mcp --workers`)"},
	{name: "ZAXY_DB_POOL_CONNS", defDoc: "16, or the URL's `pool_max_conns`",
		doc: "hot-path pool: appends, replay, checkout, token checks (at most 10000)"},
	{name: "ZAXY_DB_ANALYTICS_CONNS", def: strconv.Itoa(defaultAnalyticsConns),
		doc: "analytics pool: cypher, facts, entities, index, timeline, items, verify (at most 10000)"},
	{name: "ZAXY_DB_WORKER_CONNS", defDoc: "`ZAXY_WORKERS` + " + strconv.Itoa(workerConnsExtra),
		doc: "River and its jobs' pool (at least 2, at most 10000)"},
	{name: "ZAXY_REPLICA_URLS",
		doc: "comma-separated PostgreSQL URLs of streaming standbys of the primary: `zaxy serve` runs the reads that may run on a standby there, with read-your-writes (docs/scaling.md); each gets a pool of `ZAXY_DB_POOL_CONNS` + `ZAXY_DB_ANALYTICS_CONNS` connections"},
	{name: "ZAXY_CLUSTERS",
		doc: "comma-separated `name=url` of the Postgres primaries spaces are placed on (docs/scaling.md, \"Spaces across clusters\"); `ZAXY_DATABASE_URL` is the home cluster (the placement directory and the tokens), named `home` unless listed here under another name; each other cluster's standbys are `ZAXY_REPLICA_URLS_<NAME>` (the name upper-cased, `-` as `_`)"},
	{name: "ZAXY_CLUSTER_WEIGHTS",
		doc: "comma-separated `name=weight` of `ZAXY_CLUSTERS`: each cluster's share of new spaces (1 when not named; 0 takes no new space)"},
	{name: "ZAXY_REPLICA_WAIT", def: shortDuration(replica.DefaultWait),
		doc: "how long a read carrying a `Zaxy-Consistency` token waits for a standby to reach it before the primary serves it"},
	{name: "ZAXY_REPLICA_MAX_LAG", def: shortDuration(replica.DefaultMaxLag),
		doc: "a standby lagging the primary by more than this serves no reads until it catches up"},
	{name: "ZAXY_MAX_IN_FLIGHT", def: strconv.Itoa(api.DefaultMaxInFlight),
		doc: "requests one token (auth off: one space) may have in flight under `/v1/spaces`; more get 429"},
	{name: "ZAXY_MAX_ANALYTICS_IN_FLIGHT", def: strconv.Itoa(api.DefaultMaxAnalyticsInFlight),
		doc: "of those, analytics requests (at most `ZAXY_MAX_IN_FLIGHT`); more get 429"},
	{name: "ZAXY_MAX_RESPONSE_BYTES", def: strconv.Itoa(api.DefaultMaxResponseBytes),
		doc: "response body cap under `/v1/spaces`: replay pages stop before it with a cursor, other routes answer 413 (at least " + strconv.Itoa(minResponseBytes) + ", which holds the largest checkout packet)"},
	{name: "ZAXY_SHARED_BUDGETS", def: "off",
		doc: "`on`: the in-flight budgets and fair pool shares of each token are kept in the database and shared by every `zaxy serve` on it (set it on every instance when running more than one: docs/scaling.md); `off`: each process keeps its own"},
	{name: "ZAXY_JOB_TIMEOUT", def: shortDuration(jobs.DefaultJobTimeout), doc: "a River job's deadline"},
	{name: "ZAXY_RESCUE_STUCK_JOBS_AFTER", defDoc: shortDuration(jobs.DefaultRescueStuckJobsAfter) + ", or `ZAXY_JOB_TIMEOUT` when longer",
		doc: "a job still running after this is rescued and retried (at least `ZAXY_JOB_TIMEOUT`)"},
	{name: "ZAXY_REINDEX_INTERVAL", def: shortDuration(jobs.DefaultReindexInterval),
		doc: "how often the reindex job rebuilds the projection tables' half-empty btree indexes, one at a time with `REINDEX INDEX CONCURRENTLY` (docs/operations.md, Index maintenance); also once when the workers start; `0` turns it off"},
	{name: "ZAXY_REINDEX_MIN_BYTES", def: strconv.Itoa(maintenance.DefaultMinBytes),
		doc: "the reindex job leaves an index smaller than this alone (bytes)"},
	{name: "ZAXY_REINDEX_MIN_WASTE", def: strconv.Itoa(maintenance.DefaultMinWastePercent),
		doc: "the reindex job rebuilds an index when at least this share of it, in percent (1-99), is estimated to be waste: its size less a fresh build's"},
	{name: "ZAXY_AUTH", def: "on",
		doc: "`on`: every `/v1` and `/mcp` route needs `Authorization: Bearer <token>` from `zaxy token create`; `off`: no tokens, only on a loopback `ZAXY_ADDR` (`make run` sets `off`)"},
	{name: "ZAXY_MCP_PROFILE", def: mcp.ProfileCore,
		doc: "MCP tools listed by `zaxy mcp` and by `/mcp` without `?profile=`: `core` (at most 8), `compact` (checkout, append, feedback, capabilities and `memory_manage`, which runs every other tool by name) or `full` (every API operation); `--profile` wins"},
	{name: "ZAXY_MCP_TOKEN",
		doc: "`zaxy mcp` acts as this bearer token, reaching only its spaces and scope; unset, the process is trusted with its database credentials"},
	{name: "ZAXY_SPACE", doc: "default `--space` of `zaxy ingest`"},
	{name: "ZAXY_TEXT_SEARCH_CONFIG", def: "english",
		doc: "Postgres text search configuration for memory text (rebuild after changing it)"},
	{name: "ZAXY_TOKENIZER", def: tokenize.O200kBase,
		doc: "what a request's `max_tokens` counts in when it names no `tokenizer`: `o200k_base` (GPT-4o, GPT-4.1, GPT-5, o-series), `cl100k_base` (GPT-4, GPT-3.5) or `chars4` (ceil(characters/4), the estimate with no tables; docs/checkout.md, Token budgets)"},
	{name: "ZAXY_GATE", def: "on",
		doc: "write-time encoding gate of spaces that never recorded `gate.configured`: `on` tags items repeating an earlier one as redundant (docs/projections.md, Encoding gate) or `off` (rebuild after changing it)"},
	{name: "ZAXY_GATE_PARAPHRASE", def: "off",
		doc: "the encoding gate's paraphrase test: `off`, `wordvec` (also tags as redundant an item that rewords an earlier one in the same values, comparing word-vector embeddings the projector computes itself; fails without the weights of `make models`) or `offline` (the same with the hashing embedder); docs/projections.md, Encoding gate (rebuild after changing it)"},
	{name: "ZAXY_EMBEDDER", def: "auto",
		doc: "`auto` (word vectors when `make models` installed them, else `offline`: docs/embeddings.md), `wordvec` (fails without the weights), `use` (the Universal Sentence Encoder lite from `make models`, run in Go; slower, docs/embeddings.md; fails without it), `offline` (built-in hashing, deterministic, no downloads), `openai` (any OpenAI-compatible `/v1/embeddings`: OpenAI, Ollama, vLLM, TEI) or `off`"},
	{name: "ZAXY_MODEL_DIR", def: defaultModelDir, doc: "cache of pretrained weights that `make models` fills"},
	{name: "ZAXY_EMBEDDING_URL", doc: "base URL of the OpenAI-compatible API, e.g. `http://localhost:11434/v1` (required with `ZAXY_EMBEDDER=openai`)"},
	{name: "ZAXY_EMBEDDING_MODEL", doc: "model name sent to the provider (required with `ZAXY_EMBEDDER=openai`)"},
	{name: "ZAXY_EMBEDDING_DIMENSIONS", doc: "vector length the model returns (required with `ZAXY_EMBEDDER=openai`)"},
	{name: "ZAXY_EMBEDDING_VERSION", def: "1", doc: "recorded with each vector as `model@version`"},
	{name: "ZAXY_EMBEDDING_API_KEY", doc: "bearer token for the embedding provider"},
	{name: "ZAXY_LLM_URL", defDoc: "none: off",
		doc: "OpenAI-compatible chat API of the optional LLM-assisted methods: the extractor (its output is labelled inferred) and the episode summaries (labelled `llm-assisted`, docs/latent.md)"},
	{name: "ZAXY_LLM_MODEL", doc: "chat model name (required with `ZAXY_LLM_URL`)"},
	{name: "ZAXY_LLM_VERSION", def: "1", doc: "recorded with each inference and episode summary as `model@version`"},
	{name: "ZAXY_LLM_API_KEY", doc: "bearer token for the chat API"},
	{name: "OTEL_EXPORTER_OTLP_ENDPOINT", defDoc: "none: tracing off",
		doc: "OpenTelemetry: export spans over OTLP/HTTP to this base URL (`/v1/traces` is appended), e.g. `http://localhost:4318`, from `zaxy serve`, `zaxy worker` and `zaxy mcp`; the exporter reads the other standard `OTEL_EXPORTER_OTLP_*` variables (headers, timeout, compression, TLS) itself"},
	{name: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", defDoc: "none",
		doc: "full URL for spans only (wins over `OTEL_EXPORTER_OTLP_ENDPOINT`); setting it also turns tracing on"},
	{name: "OTEL_SDK_DISABLED", def: "false", doc: "`true` keeps tracing off even with an endpoint"},
	{name: "OTEL_SERVICE_NAME", def: "zaxy", doc: "the spans' `service.name` (`OTEL_RESOURCE_ATTRIBUTES` adds more)"},
	{name: "ZAXY_TEST_DATABASE_URL", defDoc: "provisioned by `testcontainers/postgres.sh`", test: true,
		doc: "tests only: superuser URL the tests create their databases with"},
	{name: "ZAXY_ADMIN_DATABASE_URL", defDoc: "printed by `make db`", test: true,
		doc: "tests only: read when `ZAXY_TEST_DATABASE_URL` is unset"},
	{name: "ZAXY_PG_PORT", def: "54329", test: true,
		doc: "`make db`: the local cluster's port (required on a named cluster's first start, then remembered)"},
	{name: "ZAXY_PG_INSTANCE", defDoc: "the default cluster", test: true,
		doc: "`make db`, `make db-replica`: a named local cluster of its own (docs/scaling.md, Local clusters)"},
	{name: "ZAXY_PG_REPLICA", defDoc: "`replica` (`<instance>-replica` beside `ZAXY_PG_INSTANCE`)", test: true,
		doc: "`make db-replica`: the local standby's name"},
	{name: "ZAXY_REPLICA_PORT", def: "25432", test: true,
		doc: "`make db-replica`: the local standby's port on its first start, then remembered"},
	{name: "ZAXY_REPLICA_APPLY_DELAY", defDoc: "none", test: true,
		doc: "`make db-replica`: the standby's `recovery_min_apply_delay` (e.g. `2s`; `0` clears it)"},
	{name: "ZAXY_REPLICA_URL", defDoc: "printed by `make db-replica`", test: true,
		doc: "the local standby's application-role URL, the last line `make db-replica` prints"},
	{name: "ZAXY_REPLICA_ADMIN_URL", defDoc: "printed by `make db-replica`", test: true,
		doc: "the local standby's superuser URL, printed before `ZAXY_REPLICA_URL`"},
	{name: "ZAXY_PG_CACHE", def: "/var/cache/zaxy/pg17-trixie", test: true,
		doc: "`make db`: where the PostgreSQL root filesystem is built once, outside any clone"},
	{name: "ZAXY_PG_OPTIONS", defDoc: "none", test: true,
		doc: "`make db`: server options added to this start of a local cluster"},
	{name: "ZAXY_PG_INITDB_OPTIONS", defDoc: "none", test: true,
		doc: "`make db`: options added to a new local cluster's initdb"},
	{name: "ZAXY_PG_BASEBACKUP_OPTIONS", defDoc: "none", test: true,
		doc: "`make db-replica`: options added to the standby's pg_basebackup"},
}

// lookupOption returns the option named name; a name missing from options is a programming
// error, so every variable zaxy reads is documented.
func lookupOption(name string) option {
	for _, o := range options {
		if o.name == name {
			return o
		}
	}
	panic("zaxy: environment variable " + name + " is not in the options table (cmd/zaxy/options.go)")
}

// defaultText is the option's default as help and docs show it.
func (o option) defaultText() string {
	switch {
	case o.defDoc != "":
		return o.defDoc
	case o.def != "":
		return o.def
	}
	return "none"
}

// shortDuration formats d as 10m or 30s rather than 10m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// envReader reads options from getenv, falling back to each option's default.
type envReader struct {
	getenv func(string) string
}

// set reports whether name is set (non-empty) in the environment.
func (r envReader) set(name string) bool {
	lookupOption(name)
	return r.getenv(name) != ""
}

// str is name's value, or its default.
func (r envReader) str(name string) string {
	o := lookupOption(name)
	if v := r.getenv(name); v != "" {
		return v
	}
	return o.def
}

// positive is name's value (or its default, or def when it has none) as a positive integer.
func (r envReader) positive(name string, def int64) (int64, error) {
	v := r.str(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s must be a positive integer, got %q", name, v)
	}
	return n, nil
}

// duration is name's value (or its default, or def when it has none) as a positive duration.
func (r envReader) duration(name string, def time.Duration) (time.Duration, error) {
	v := r.str(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s must be a positive duration such as 30s, got %q", name, v)
	}
	return d, nil
}

// writeEnvHelp prints the options as `zaxy help env` and the end of `zaxy --help` show them.
func writeEnvHelp(w io.Writer) {
	for _, o := range options {
		if o.test {
			continue
		}
		def := "default " + o.defaultText()
		if o.def == "" && o.defDoc == "" {
			def = "no default"
		}
		text := strings.ReplaceAll(o.doc+"; "+def, "`", "")
		fmt.Fprint(w, wrapIndented("  "+fmt.Sprintf("%-29s", o.name)+" ", text, 100))
	}
}

// writeEnvMarkdown writes the options as docs/operations.md's environment table (docs and
// computed defaults may carry Markdown code spans; help drops the backquotes).
func writeEnvMarkdown(w io.Writer) {
	fmt.Fprintln(w, "| variable | default | what |")
	fmt.Fprintln(w, "|---|---|---|")
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for _, o := range options {
		def := "(" + o.defaultText() + ")"
		if o.defDoc == "" && o.def != "" {
			def = "`" + o.def + "`"
		}
		fmt.Fprintf(w, "| `%s` | %s | %s |\n", o.name, esc(def), esc(o.doc))
	}
}

// wrapIndented writes text after head, wrapped at width columns, continuation lines indented
// to head's width.
func wrapIndented(head, text string, width int) string {
	var b strings.Builder
	indent := strings.Repeat(" ", len(head))
	line := head
	fresh := true
	for _, word := range strings.Fields(text) {
		if !fresh && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line, fresh = indent, true
		}
		if fresh {
			line += word
			fresh = false
		} else {
			line += " " + word
		}
	}
	b.WriteString(line + "\n")
	return b.String()
}
