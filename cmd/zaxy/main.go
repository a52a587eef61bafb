// Command zaxy is Zaxy's command line: it migrates the schema, serves the HTTP API and the MCP
// server, works background jobs and reads and writes memory. main only wires the process to
// run; every command is a row of commands, run by one runner (command.go) that reads the
// environment once through the options table (options.go).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/zaxy/zaxy/review"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// commands are every zaxy command, in the order `zaxy --help` lists them.
var commands = []command{
	{name: "serve", synopsis: "[--migrate] [--profile core|compact|full]", db: dbURL, new: func() runner { return &serveCmd{} },
		help: "HTTP API, the MCP endpoint /mcp (streamable HTTP) and River workers\nin-process (refuses an out-of-date schema)"},
	{name: "mcp", synopsis: "[--profile core|compact|full] [--workers]", db: dbURL, new: func() runner { return &mcpCmd{} },
		help: "MCP server over stdio for agents (docs/mcp.md); --workers also projects here"},
	{name: "worker", db: dbURL, new: func() runner { return &workerCmd{} },
		help: "River workers only (no HTTP)"},
	{name: "append", synopsis: "--space S", db: dbStore, new: func() runner { return &appendCmd{} },
		help: "append one event (--type, --content, --session, --actor, --data, --cues,\n--occurred-at, --idempotency-key) or, without --type, JSON lines from stdin in batches, with a\nsummary (--batch N, --idempotency-prefix P: a re-run appends nothing, --receipts, --json);\n--wait-projected returns once the projection has applied them"},
	{name: "verify", synopsis: "--space S", db: dbStore, new: func() runner { return &verifyCmd{} },
		help: "verify a space's hash chain (--method go|sql, --json); exit 1 when broken"},
	{name: "replay", synopsis: "--space S", db: dbStore, new: func() runner { return &replayCmd{} },
		help: "print a space's events as JSON lines (--session, --after-seq, --until-seq, --recorded-before)"},
	{name: "space export", synopsis: "--space S [--out FILE]", db: dbPool, new: func() runner { return &spaceExportCmd{} },
		help: "write a space's whole log, hashes, idempotency records and secret as JSON lines\n(docs/scaling.md); to stdout unless --out (--json)"},
	{name: "space import", synopsis: "--space S [FILE|-]", db: dbTry, interspersed: true, new: func() runner { return &spaceImportCmd{} },
		help: "import an export into the empty space S in one transaction, verifying every line;\na bad file is refused naming the first bad seq (--head-hash HEX, --check, --json;\nruns as the schema owner)"},
	{name: "space move", synopsis: "--space S --to NAME | --finish | --abandon", db: dbURL, new: func() runner { return &spaceMoveCmd{} },
		help: "move a space to another cluster of ZAXY_CLUSTERS by its log: appends pause (503),\nthe log is copied and verified, projections rebuilt and compared, the directory\nflips; --finish drops the read-only copy left behind, --abandon gives up a move\nthat did not flip (--json; runs as the schema owner)"},
	{name: "erase", synopsis: "--space S --seq N --reason R", db: dbStore, new: func() runner { return &eraseCmd{} },
		help: "replace one event's content and data with a tombstone, record the erasure\nin the log and purge everything derived from it (--actor A, --json)"},
	{name: "ingest docs", synopsis: "PATH...", db: dbStore, interspersed: true, new: func() runner { return &ingestDocsCmd{} },
		help: "chunk documents (files, or directories walked for " + textExtList + ")\ninto document.chunk events, secrets redacted; dot-directories, dot-files and binary\nfiles are skipped; unchanged files append nothing (--space S default $ZAXY_SPACE, --json,\n--max-bytes N)"},
	{name: "ingest transcript", synopsis: "FILE.jsonl|-", db: dbStore, interspersed: true, new: func() runner { return &ingestTranscriptCmd{} },
		help: "import conversation turns (JSON lines {\"role\",\"content\",\"session_id\"?,\"actor\"?,\n\"occurred_at\"?,\"name\"?}) as message events, secrets redacted, all or nothing per\n1000-turn batch; a repeated import appends nothing (--space S default $ZAXY_SPACE,\n--session ID, --json)"},
	{name: "bench append", db: dbNone, new: func() runner { return &benchAppendCmd{} },
		help: "append throughput and latency (HTTP 1 and 8 clients, Go batches, unchained\ntable, verify) in a scratch database; needs a role with CREATEDB (--events N, --runs N,\n--pool N, --synchronous-commit-off, --only TEXT, --cpuprofile FILE, --json)"},
	{name: "bench checkout", db: dbNone, new: func() runner { return &benchCheckoutCmd{} },
		help: "checkout latency on a space of --memories N (default 100000) in a scratch\ndatabase (--queries N, --corpus F, --json; --keep leaves the database and\nprints its URL, --reuse URL times the queries on it again; --items FILE writes\neach query's ranked item ids, --cpuprofile FILE, --ef-search N, --ppr-weight W,\n--weave asks every checkout for a memory weave, --cues sends task, repo, tool\nand phase cues with each)"},
	{name: "bench replica", db: dbNone, new: func() runner { return &benchReplicaCmd{} },
		help: "reads on a streaming standby of ZAXY_DATABASE_URL's cluster, in scratch databases:\ncheckout p50/p95 ranked on the standby vs the primary, the share of reads the standby\nserves under a steady writer, the consistency check's cost, and a space copied by\nits log (spacelog export+import); --replica-url URL (default ZAXY_REPLICA_URLS'\nfirst), --memories N (10000), --queries N, --write-rate N/s, --readers N,\n--duration D, --copy-events N, --wait D, --out FILE, --json"},
	{name: "bench move", db: dbNone, new: func() runner { return &benchMoveCmd{} },
		help: "zaxy space move on spaces of --events N,... (10000,100000) in scratch databases:\nhow long appends pause and what each step takes (freeze, catch-up, copy and verify,\nrebuild and compare, flip) and --finish; --target-url URL (a second cluster;\ndefault a second database of ZAXY_DATABASE_URL's), --out FILE, --json"},
	{name: "bench forgetting", db: dbNone, new: func() runner { return &benchForgettingCmd{} },
		help: "forgetting lane: a scripted agent works a generated task family over simulated\nweeks with feedback; packet precision and evidence with salience on and off, and\nexplicit recall of attenuated items, in a scratch database (--services N, --weeks N,\n--queries-per-day N, --max-tokens N, --seed N, --json)"},
	{name: "bench cues", db: dbNone, new: func() runner { return &benchCuesCmd{} },
		help: "what checkout's cues do to ranking, on a generated space in a scratch database:\nhit@1, hit@3 and MRR without cues, with the right, a misleading and an unknown\nrepository cue (--json)"},
	{name: "bench gate", db: dbNone, new: func() runner { return &benchGateCmd{} },
		help: "gate lane: precision of the encoding gate's redundant on labelled duplicate pairs\nbuilt from a benchmark file's turns, projected with the gate on in a scratch database\n(--file F, --dataset longmemeval|locomo, --pairs N per category, --seed N, --json)"},
	{name: "bench latent-attribution", db: dbNone, new: func() runner { return &benchLatentAttributionCmd{} },
		help: "attribution lane of the retrospective pass: scripted agent traces with known\ncauses judged by the retrospective_credit rules; macro-F1 and per-cause scores\n(--traces N, --seed N, --confounded F, --json)"},
	{name: "bench latent-priors", db: dbNone, new: func() runner { return &benchLatentPriorsCmd{} },
		help: "procedure and failure prior lane: scripted task families mined by the latent\nproducers; top-1 prior accuracy (--families N, --sessions N, --noise F, --spaces N,\n--seed N, --json)"},
	{name: "bench latent-policy", synopsis: "--locomo F --longmemeval F", db: dbTry, new: func() runner { return &benchLatentPolicyCmd{} },
		help: "the retrieval policy lane: a policy fitted to judged checkouts of half the\ndev cases against the default built-in policy, on them and the held-out half, and the dev gate's\nverdict (--cases N, --questions N, --json; appends bench spaces here)"},
	{name: "bench fok-fit", synopsis: "--lme ranked.jsonl --locomo ranked.jsonl", db: dbNone, new: func() runner { return &benchFoKFitCmd{} },
		help: "feeling of knowing calibration: refits its logistic mapping on the two dev sets'\nranked.jsonl (in sample, next to the shipped coefficients) and cross-validates it:\nper set, out-of-fold Brier against the out-of-fold base rate (--folds K, --seed N,\n--repeats R, --penalty L, --json; no database)"},
	{name: "bench longmemeval", synopsis: "--file F --out ranked.jsonl", db: dbTry, new: func() runner { return &benchDatasetCmd{dataset: "longmemeval"} },
		help: "retrieval benchmark on a LongMemEval file; flags and output as for bench locomo"},
	{name: "bench locomo", synopsis: "--file F --out ranked.jsonl", db: dbTry, new: func() runner { return &benchDatasetCmd{dataset: "locomo"} },
		help: "retrieval benchmarks: per-question ranked events, packet citations and a\nsummary of recall, NDCG and evidence-in-packet (docs/benchmarks.md); --limit N,\n--parallel P, --k K, --packet-tokens T; --disable-lanes L,L switches checkout lanes\noff (ablations), --embedder NAME overrides ZAXY_EMBEDDER for the run, --reuse-run RUN\nasks an earlier run's spaces again, --ppr-weight W runs the PageRank lane (off by default)"},
	{name: "bench storage", db: dbTry, new: func() runner { return &benchStorageCmd{} },
		help: "bytes on disk per table (heap, indexes, TOAST), rows and bytes per event against\nthe events table, of ZAXY_DATABASE_URL's database; --file F first loads a LongMemEval\nfile's sessions into fresh spaces there (projected, embedded, latent built; --limit N),\n--out FILE, --json"},
	{name: "bench latent", db: dbTry, new: func() runner { return &benchLatentCmd{} },
		help: "latent-layer lanes (docs/benchmarks.md): citation fidelity of weaves and priors,\nstale rejection on scripted traces, and token reduction (evidence in a packet with a\nweave at --weave-tokens 1000 against plain checkout at --plain-tokens 2000) on the dev\nsets (--sections fidelity,stale,tokens, --longmemeval F, --locomo F, --limit N,\n--families N, --json)"},
	{name: "rebuild", synopsis: "--space S | --all", db: dbPool, new: func() runner { return &rebuildCmd{} },
		help: "discard and replay projections (--no-embed, --json)"},
	{name: "projection status", synopsis: "[--space S]", db: dbPool, new: func() runner { return &projectionStatusCmd{} },
		help: "projection lag per space (--json)"},
	{name: "projection checksum", synopsis: "--space S", db: dbPool, new: func() runner { return &projectionChecksumCmd{} },
		help: "deterministic digest of a space's projected state (--json)"},
	{name: "facts", synopsis: "--space S", db: dbPool, new: func() runner { return &factsCmd{} },
		help: "facts now (--entity E; --at T for valid at T; --as-of-seq N for what\nmemory said then; --limit N; --json)"},
	{name: "index", synopsis: "--space S", db: dbPool, new: func() runner { return &indexCmd{} },
		help: "what topics the space holds (entities, predicates, event types, sessions),\neach with the token cost of its detail (--max-tokens N, default 100; --json)"},
	{name: "timeline", synopsis: "--space S", db: dbPool, new: func() runner { return &timelineCmd{} },
		help: "recent actions and decisions, newest first, cited by seq and hash\n(--session X, --max-tokens N default 500, --before-seq N, --json)"},
	{name: "show", synopsis: "--space S ID", db: dbPool, interspersed: true, new: func() runner { return &showCmd{} },
		help: "one item in full with its token cost: ev:<seq>, fact:<id>, an entity id,\nsession:<id>, type:<event type> or predicate:<name> (--json)"},
	{name: "checkout", synopsis: "--space S --query Q", db: dbStore, new: func() runner { return &checkoutCmd{} },
		help: "a cited, token-budgeted context packet (--purpose, --max-tokens, --session,\n--as-of, --disable-lanes, --cues, --no-record, --json)"},
	{name: "hook", synopsis: "pre-compact|session-start|stop|subagent-stop --space S", db: dbNone, interspersed: true, new: func() runner { return &hookCmd{} },
		help: "a harness hook (Claude Code's PreCompact, SessionStart, Stop, SubagentStop):\nreads the hook's JSON on stdin and records the handoff, prints the recovery\npacket, records the turn or cleans up the subagent, over ZAXY_URL; never\nblocks: a failure is one line on stderr, exit 0 (--json, --timeout D;\nzaxy hook doctor PATH checks a harness's configuration)"},
	{name: "review list", synopsis: "--space S", db: dbPool, new: func() runner { return &reviewListCmd{} },
		help: "proposals under review (--status pending|accepted|rejected|deferred|open|all,\ndefault open; --after-seq N, --limit N, --json)"},
	{name: "review accept", synopsis: "--space S SEQ", db: dbStore, interspersed: true, new: func() runner { return &reviewDecideCmd{decision: review.DecisionAccept} },
		help: "accept a proposal: appends proposal.accepted and, for a belief_update, the\nfact it proposes, citing it (--reason R, --actor A, --json)"},
	{name: "review reject", synopsis: "--space S SEQ", db: dbStore, interspersed: true, new: func() runner { return &reviewDecideCmd{decision: review.DecisionReject} },
		help: "reject a proposal: appends proposal.rejected (--reason R, --actor A, --json)"},
	{name: "review defer", synopsis: "--space S SEQ", db: dbStore, interspersed: true, new: func() runner { return &reviewDecideCmd{decision: review.DecisionDefer} },
		help: "defer a proposal: appends proposal.deferred; it stays open (--reason R,\n--actor A, --json)"},
	{name: "retrospective", synopsis: "--space S --session ID", db: dbStore, new: func() runner { return &retrospectiveCmd{} },
		help: "judge a session's outcomes now, as the retrospective_credit job does: appends the\nfeedback, confidence revisions and proposals they call for; a re-run appends\nnothing (--from-seq N, --json)"},
	{name: "policy list", synopsis: "--space S", db: dbStore, new: func() runner { return &policyListCmd{} },
		help: "the space's retrieval policies (the built-in ones and every fitted version), which\nis current and what a rollback restores (--json)"},
	{name: "policy fit", synopsis: "--space S", db: dbStore, new: func() runner { return &policyFitCmd{} },
		help: "fit lane weights offline to the space's judged checkouts and propose them\n(policy.proposed; --actor A, --json)"},
	{name: "policy promote", synopsis: "--space S VERSION", db: dbStore, interspersed: true, new: func() runner { return &policyPromoteCmd{} },
		help: "make a version current if it passes the regression gate: replay on the\nspace's history, and dev recall with --dev-locomo F / --dev-longmemeval F\n(--dev-limit N, --actor A, --json)"},
	{name: "policy rollback", synopsis: "--space S", db: dbStore, new: func() runner { return &policyRollbackCmd{} },
		help: "restore the policy the last promotion replaced (--reason R, --actor A, --json)"},
	{name: "token create", synopsis: "--space S --scope read|write|admin [--label L]", db: dbPool, new: func() runner { return &tokenCreateCmd{} },
		help: "issue an API bearer token, printed once (--space repeats; * for all; --json)"},
	{name: "token revoke", synopsis: "ID", db: dbPool, new: func() runner { return &tokenRevokeCmd{} },
		help: "revoke a token"},
	{name: "token list", db: dbPool, new: func() runner { return &tokenListCmd{} },
		help: "every token, live or revoked (--json)"},
	{name: "doctor", db: dbProbe, new: func() runner { return &doctorCmd{} },
		help: "check the database, schema, extensions (AGE on or off), chains (the recent\ntail; --full for every event), projection lag, embeddings and River jobs;\none line per problem with its remedy; exit 1 on failure (--json, --no-probe)"},
	{name: "version", synopsis: "[--json]", db: dbNone, new: func() runner { return &versionCmd{} },
		help: "this binary's module version, VCS revision and Go version (also zaxy --version)"},
	{name: "migrate", synopsis: "[--json]", db: dbURL, new: func() runner { return &migrateCmd{} },
		help: "apply the embedded schema migrations (River's tables included)"},
}
