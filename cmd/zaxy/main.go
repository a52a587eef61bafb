// Command zaxy is Zaxy's command line: it migrates the schema, serves the HTTP API and the MCP
// server, works background jobs and reads and writes memory. main only wires the process to
// run.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/zaxy/zaxy/mcp"
	"github.com/zaxy/zaxy/migrations"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const usage = `usage: zaxy <command>

Commands:
  serve [--migrate] [--profile core|full]
                     HTTP API, the MCP endpoint /mcp (streamable HTTP) and River workers
                     in-process (refuses an out-of-date schema)
  mcp [--profile core|full] [--workers]
                     MCP server over stdio for agents (docs/mcp.md); --workers also projects here
  worker             River workers only (no HTTP)
  append --space S   append one event (--type, --content, --session, --actor, --data, --cues,
                     --occurred-at, --idempotency-key) or, without --type, JSON lines from stdin
  verify --space S   verify a space's hash chain (--method go|sql, --json); exit 1 when broken
  replay --space S   print a space's events as JSON lines (--session, --after-seq, --until-seq, --recorded-before)
  erase --space S --seq N --reason R
                     replace one event's content and data with a tombstone, record the erasure
                     in the log and purge everything derived from it (--actor A, --json)
  ingest docs PATH...  chunk documents (files or directories of .md .txt .rst ...) into
                     document.chunk events, secrets redacted; unchanged files append nothing
                     (--space S, --json, --max-bytes N)
  ingest transcript FILE.jsonl|-
                     import conversation turns as message events, secrets redacted, all or
                     nothing per 1000-turn batch; a repeated import appends nothing (--space S,
                     --session ID, --json)
  bench append       append throughput and latency (HTTP 1 and 8 clients, Go batches, unchained
                     table, verify) in a scratch database; needs a role with CREATEDB
  rebuild            discard and replay projections: --space S or --all (--no-embed, --json)
  projection status  projection lag per space (--space S, --json)
  projection checksum --space S
                     deterministic digest of a space's projected state
  facts --space S    facts now (--entity E; --at T for valid at T; --as-of-seq N for what
                     memory said then; --json)
  index --space S    what topics the space holds (entities, predicates, event types, sessions),
                     each with the token cost of its detail (--max-tokens N, default 100; --json)
  timeline --space S recent actions and decisions, newest first, cited by seq and hash
                     (--session X, --max-tokens N default 500, --before-seq N, --json)
  show --space S ID  one item in full with its token cost: ev:<seq>, fact:<id>, an entity id,
                     session:<id>, type:<event type> or predicate:<name> (--json)
  checkout --space S --query Q
                     a cited, token-budgeted context packet (--purpose, --max-tokens, --session,
                     --as-of, --disable-lanes, --no-record, --json)
  token create --space S --scope read|write|admin [--label L]
                     issue an API bearer token (printed once); token revoke ID; token list
  doctor             check the database, schema, extensions (AGE on or off), chains (the recent
                     tail; --full for every event), projection lag, embeddings and River jobs;
                     one line per problem with its remedy; exit 1 on failure (--json, --no-probe)
  bench checkout     checkout latency on a space of --memories N (default 100000) in a scratch
                     database (--queries N, --corpus F, --json; --keep leaves the database and
                     prints its URL, --reuse URL times the queries on it again)
  bench longmemeval --file F --out ranked.jsonl
  bench locomo --file F --out ranked.jsonl
                     retrieval benchmarks: per-question ranked events, packet citations and a
                     summary of recall, NDCG and evidence-in-packet (docs/benchmarks.md);
                     --disable-lanes L,L switches checkout lanes off (ablations), --embedder
                     NAME overrides ZAXY_EMBEDDER for the run
  migrate [--json]   apply the embedded schema migrations (River's tables included)

Environment:
  ZAXY_DATABASE_URL      PostgreSQL URL (falls back to DATABASE_URL; no default)
  ZAXY_ADDR              HTTP listen address (default 127.0.0.1:8080)
  ZAXY_MAX_BODY_BYTES    request body limit in bytes (default 1048576)
  ZAXY_MAX_BATCH         events per append request (default 1000)
  ZAXY_REQUEST_TIMEOUT   per-request deadline (default 30s)
  ZAXY_SHUTDOWN_TIMEOUT  graceful shutdown limit (default 30s)
  ZAXY_WORKERS           River workers in this process (default 10)
  ZAXY_DB_POOL_CONNS     hot-path pool: appends, replay, checkout, token checks (default 16, or the URL's pool_max_conns)
  ZAXY_DB_ANALYTICS_CONNS  analytics pool: cypher, facts, entities, index, timeline, items, verify (default 4)
  ZAXY_DB_WORKER_CONNS   River and its jobs' pool (default ZAXY_WORKERS + 4)
  ZAXY_MAX_IN_FLIGHT     requests one token (auth off: one space) may have in flight; more get 429 (default 32)
  ZAXY_MAX_ANALYTICS_IN_FLIGHT  analytics requests one token (auth off: one space) may have in flight (default 4)
  ZAXY_MAX_RESPONSE_BYTES  response body cap under /v1/spaces: pages stop with a cursor, else 413 (default 4194304, at least 1048576)
  ZAXY_JOB_TIMEOUT       a River job's deadline (default 10m)
  ZAXY_RESCUE_STUCK_JOBS_AFTER  a job still running after this is rescued and retried (default 15m)
  ZAXY_AUTH              on (bearer tokens on every /v1 and /mcp route, default) or off (loopback addresses only)
  ZAXY_MCP_PROFILE       MCP tools listed: core (at most 8, default) or full (every API operation)
  ZAXY_MCP_TOKEN         zaxy mcp acts as this bearer token, reaching only its spaces and scope
                         (default: trusted with the process's database credentials)
  ZAXY_SPACE             default --space of zaxy ingest (no default)
  ZAXY_TEXT_SEARCH_CONFIG  Postgres text search configuration for memory text (default english)
  ZAXY_EMBEDDER          offline (built in, default), openai (any OpenAI-compatible /v1/embeddings) or off
  ZAXY_EMBEDDING_URL     base URL of the OpenAI-compatible API, e.g. http://localhost:11434/v1 (no default)
  ZAXY_EMBEDDING_MODEL   model name sent to the provider (no default)
  ZAXY_EMBEDDING_DIMENSIONS  vector length the model returns (no default)
  ZAXY_EMBEDDING_VERSION recorded as model@version (default 1)
  ZAXY_EMBEDDING_API_KEY bearer token for the provider (default none)
  ZAXY_LLM_URL           OpenAI-compatible chat API for the optional LLM-assisted extractor (default: off)
  ZAXY_LLM_MODEL         chat model name (no default; required with ZAXY_LLM_URL)
  ZAXY_LLM_VERSION       recorded as model@version with each inference (default 1)
  ZAXY_LLM_API_KEY       bearer token for the chat API (default none)
`

func databaseURL(getenv func(string) string) string {
	if v := getenv("ZAXY_DATABASE_URL"); v != "" {
		return v
	}
	return getenv("DATABASE_URL")
}

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "--help" || args[0] == "-h" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	dbURL := databaseURL(getenv)
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	switch args[0] {
	case "serve":
		cfg, err := parseServeConfig(getenv)
		if err != nil {
			fmt.Fprintf(stderr, "zaxy serve: %v\n", err)
			return 2
		}
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(stderr)
		migrate := fs.Bool("migrate", false, "apply the schema migrations first")
		profile := fs.String("profile", cfg.mcpProfile, "tools /mcp lists by default: core or full")
		if err := fs.Parse(args[1:]); err != nil {
			return 2
		}
		if cfg.mcpProfile, err = mcp.ParseProfile(*profile, "--profile"); err != nil {
			fmt.Fprintf(stderr, "zaxy serve: %v\n", err)
			return 2
		}
		if err := serve(ctx, cfg, *migrate, logger, stdout); err != nil {
			fmt.Fprintf(stderr, "zaxy serve: %v\n", err)
			return 1
		}
		return 0
	case "worker":
		cfg, err := parseServeConfig(getenv)
		if err != nil {
			fmt.Fprintf(stderr, "zaxy worker: %v\n", err)
			return 2
		}
		if err := work(ctx, cfg, logger, stdout); err != nil {
			fmt.Fprintf(stderr, "zaxy worker: %v\n", err)
			return 1
		}
		return 0
	case "mcp":
		return mcpCmd(ctx, args[1:], getenv, logger, stdin, stdout, stderr)
	case "append":
		return appendCmd(ctx, args[1:], dbURL, logger, stdin, stdout, stderr)
	case "ingest":
		return ingestCmd(ctx, args[1:], getenv, dbURL, logger, stdin, stdout, stderr)
	case "bench":
		return benchCmd(ctx, args[1:], dbURL, getenv, logger, stdout, stderr)
	case "verify":
		return verifyCmd(ctx, args[1:], dbURL, logger, stdout, stderr)
	case "erase":
		return eraseCmd(ctx, args[1:], dbURL, getenv, logger, stdout, stderr)
	case "replay":
		return replayCmd(ctx, args[1:], dbURL, logger, stdout, stderr)
	case "rebuild":
		return rebuildCmd(ctx, args[1:], dbURL, getenv, logger, stdout, stderr)
	case "projection":
		return projectionCmd(ctx, args[1:], dbURL, getenv, logger, stdout, stderr)
	case "facts":
		return factsCmd(ctx, args[1:], dbURL, stdout, stderr)
	case "index":
		return indexCmd(ctx, args[1:], dbURL, stdout, stderr)
	case "timeline":
		return timelineCmd(ctx, args[1:], dbURL, stdout, stderr)
	case "show":
		return showCmd(ctx, args[1:], dbURL, stdout, stderr)
	case "checkout":
		return checkoutCmd(ctx, args[1:], dbURL, getenv, logger, stdout, stderr)
	case "token":
		return tokenCmd(ctx, args[1:], dbURL, stdout, stderr)
	case "doctor":
		return doctorCmd(ctx, args[1:], dbURL, getenv, stdout, stderr)
	case "migrate":
		if dbURL == "" {
			fmt.Fprintln(stderr, "zaxy migrate: ZAXY_DATABASE_URL is not set (run 'make db' to get one)")
			return 2
		}
		v, err := migrations.Up(ctx, dbURL, time.Minute)
		if err != nil {
			fmt.Fprintf(stderr, "zaxy migrate: %v\n", err)
			return 1
		}
		if slices.Contains(args[1:], "--json") {
			fmt.Fprintf(stdout, "{\"version\":%d}\n", v)
		} else {
			fmt.Fprintf(stdout, "schema at version %d\n", v)
		}
		return 0
	default:
		fmt.Fprintf(stderr, "zaxy: unknown or not yet implemented command %q\n\n%s", args[0], usage)
		return 2
	}
}
