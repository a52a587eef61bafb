package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/mcp"
	"github.com/zaxy/zaxy/migrations"
)

// mcpCmd: zaxy mcp [--profile core|full] [--workers]. Serves the MCP tools over stdio (JSON-RPC
// lines on stdin and stdout; logs go to stderr) until the client closes stdin. Tool calls run
// through the HTTP API's handler in this process, without a listener. The process is trusted
// with its database credentials, as every zaxy command is; ZAXY_MCP_TOKEN narrows it to one
// token's spaces and scope. Appends enqueue projection jobs for the workers of a zaxy serve or
// zaxy worker; --workers runs ZAXY_WORKERS of them here instead.
func mcpCmd(ctx context.Context, args []string, getenv func(string) string, logger *slog.Logger, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	profile := fs.String("profile", getenv("ZAXY_MCP_PROFILE"), "tools to list: core (at most 8, default) or full (every operation)")
	withWorkers := fs.Bool("workers", false, "also run River workers in this process, as zaxy serve does")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "zaxy mcp: %v\n", err)
		return code
	}
	p, err := mcp.ParseProfile(*profile, "--profile")
	if err != nil {
		return fail(2, err)
	}
	cfg := serveConfig{databaseURL: databaseURL(getenv), shutdownTimeout: 10 * time.Second}
	if cfg.databaseURL == "" {
		return fail(2, errors.New("ZAXY_DATABASE_URL is not set (run 'make db' to get one)"))
	}
	if cfg.http, err = parseAPIConfig(getenv); err != nil {
		return fail(2, err)
	}
	if cfg.memory, err = parseMemoryConfig(getenv); err != nil {
		return fail(2, err)
	}
	n, err := envInt(getenv, "ZAXY_WORKERS", 10)
	if err != nil {
		return fail(2, err)
	}
	cfg.workers = int(n)
	provider, err := cfg.memory.embedProvider()
	if err != nil {
		return fail(2, err)
	}

	var store *eventloom.Store
	var pool *pgxpool.Pool
	var stop func()
	if *withWorkers {
		var client *river.Client[pgx.Tx]
		pool, client, err = startWorkers(ctx, cfg, logger)
		if err != nil {
			return fail(1, err)
		}
		store = eventloom.NewStore(pool, jobs.NewOutbox(client), logger)
		stop = func() {
			sctx, cancel := context.WithTimeout(context.Background(), cfg.shutdownTimeout)
			defer cancel()
			if err := client.Stop(sctx); err != nil {
				logger.Error("river stop", "error", err)
			}
			pool.Close()
		}
	} else {
		pool, err = openPool(ctx, cfg.databaseURL)
		if err != nil {
			return fail(1, err)
		}
		if err := migrations.Check(ctx, pool); err != nil {
			pool.Close()
			return fail(1, err)
		}
		client, err := jobs.NewInsertOnlyClient(pool, logger)
		if err != nil {
			pool.Close()
			return fail(1, err)
		}
		store, stop = eventloom.NewStore(pool, jobs.NewOutbox(client), logger), pool.Close
	}
	defer stop()

	token := getenv("ZAXY_MCP_TOKEN")
	if token != "" {
		cfg.http.Auth = auth.NewStore(pool)
		if _, err := cfg.http.Auth.Authorize(ctx, token, "", auth.ScopeRead); errors.Is(err, auth.ErrUnauthenticated) {
			return fail(2, errors.New("ZAXY_MCP_TOKEN is not a valid token (unknown or revoked; zaxy token list)"))
		} else if err != nil {
			return fail(1, err)
		}
	}
	cfg.http.Checkout = checkout.New(pool, store, checkout.Config{TextSearchConfig: cfg.memory.textSearchConfig, Embedder: provider, Logger: logger})
	err = mcp.ServeStdio(ctx, mcp.Config{API: api.NewHandler(cfg.http, pool, store, logger), Profile: p, Token: token, Logger: logger}, stdin, stdout)
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return fail(1, err)
	}
	return 0
}
