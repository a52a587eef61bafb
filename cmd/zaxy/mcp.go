package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/mcp"
	"github.com/zaxy/zaxy/migrations"
)

// mcpShutdownTimeout bounds how long zaxy mcp --workers waits for River's running jobs when
// stdin closes.
const mcpShutdownTimeout = 10 * time.Second

// mcpCmd: zaxy mcp [--profile core|compact|full] [--workers]. Serves the MCP tools over stdio (JSON-RPC
// lines on stdin and stdout; logs go to stderr) until the client closes stdin. Tool calls run
// through the HTTP API's handler in this process, without a listener. The process is trusted
// with its database credentials, as every zaxy command is; ZAXY_MCP_TOKEN narrows it to one
// token's spaces and scope. Appends enqueue projection jobs for the workers of a zaxy serve or
// zaxy worker; --workers runs ZAXY_WORKERS of them here instead, on the worker pool
// (ZAXY_DB_WORKER_CONNS) with River's job timing (ZAXY_JOB_TIMEOUT,
// ZAXY_RESCUE_STUCK_JOBS_AFTER), as zaxy worker does.
type mcpCmd struct {
	profile     string
	withWorkers bool
}

func (c *mcpCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.profile, "profile", cfg.mcpProfile, "tools to list: core (at most 8, default), compact (5, the rest through memory_manage) or full (every operation)")
	fs.BoolVar(&c.withWorkers, "workers", false, "also run River workers in this process, as zaxy serve does")
}

func (c *mcpCmd) validate(args []string) error {
	var err error
	if c.profile, err = mcp.ParseProfile(c.profile, "--profile"); err != nil {
		return err
	}
	return noArgs(args)
}

func (c *mcpCmd) run(ctx context.Context, env *env) error {
	cfg, logger := env.cfg, env.logger
	if len(cfg.clusters) > 0 {
		return invalid(errors.New("zaxy mcp serves one database; with ZAXY_CLUSTERS point the MCP client at zaxy serve's /mcp endpoint (docs/mcp.md), which routes each space to its cluster"))
	}
	provider, err := cfg.memory.embedProvider()
	if err != nil {
		return invalid(err)
	}
	stopTracing, err := startTracing(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer stopTracing()
	var store *eventloom.Store
	var pool *pgxpool.Pool
	if c.withWorkers {
		w, err := startWorkers(ctx, cfg, logger)
		if err != nil {
			return err
		}
		defer w.stop(mcpShutdownTimeout) //nolint:errcheck // stop logs it
		pool = w.pool
		store = eventloom.NewStore(pool, jobs.NewOutbox(w.client), logger)
	} else {
		if pool, err = openPool(ctx, cfg.databaseURL); err != nil {
			return err
		}
		defer pool.Close()
		if err := migrations.Check(ctx, pool); err != nil {
			return err
		}
		client, err := jobs.NewInsertOnlyClient(pool, logger)
		if err != nil {
			return err
		}
		store = eventloom.NewStore(pool, jobs.NewOutbox(client), logger)
	}
	svc, err := buildServices(ctx, cfg, cfg.http, serviceDeps{pool: pool, analytics: pool, store: store, provider: provider, withAuth: cfg.mcpToken != ""}, logger)
	if err != nil {
		return err
	}
	if svc.api.Auth != nil {
		if _, err := svc.api.Auth.Authorize(ctx, cfg.mcpToken, "", auth.ScopeRead); errors.Is(err, auth.ErrUnauthenticated) {
			return invalid(errors.New("ZAXY_MCP_TOKEN is not a valid token (unknown or revoked; zaxy token list)"))
		} else if err != nil {
			return err
		}
	}
	err = mcp.ServeStdio(ctx, mcp.Config{Profile: c.profile, Token: cfg.mcpToken}, svc.mcp, logger, env.stdin, env.stdout)
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}
