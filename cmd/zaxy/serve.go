package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/mcp"
	"github.com/zaxy/zaxy/migrations"
	"github.com/zaxy/zaxy/projection"
)

// serveConfig is parsed from the environment.
type serveConfig struct {
	databaseURL     string
	addr            string
	http            api.Config
	shutdownTimeout time.Duration
	workers         int
	memory          memoryConfig
	// authOff serves without bearer tokens (ZAXY_AUTH=off, loopback addresses only).
	authOff bool
	// mcpProfile is the tools /mcp lists by default (ZAXY_MCP_PROFILE or --profile).
	mcpProfile string
	// pools are the sizes of the hot-path, analytics and worker pools.
	pools poolSizes
	// jobTimeout and rescueAfter are River's JobTimeout and RescueStuckJobsAfter
	// (ZAXY_JOB_TIMEOUT, ZAXY_RESCUE_STUCK_JOBS_AFTER).
	jobTimeout, rescueAfter time.Duration
}

func parseServeConfig(getenv func(string) string) (serveConfig, error) {
	c := serveConfig{databaseURL: databaseURL(getenv), addr: envOr(getenv, "ZAXY_ADDR", "127.0.0.1:8080")}
	if c.databaseURL == "" {
		return c, errors.New("ZAXY_DATABASE_URL is not set (run 'make db' to get one)")
	}
	var err error
	if c.http, err = parseAPIConfig(getenv); err != nil {
		return c, err
	}
	var n int64
	if n, err = envInt(getenv, "ZAXY_WORKERS", 10); err != nil {
		return c, err
	}
	c.workers = int(n)
	if err = c.parseWorkerLimits(getenv); err != nil {
		return c, err
	}
	if c.shutdownTimeout, err = envDuration(getenv, "ZAXY_SHUTDOWN_TIMEOUT", 30*time.Second); err != nil {
		return c, err
	}
	if c.memory, err = parseMemoryConfig(getenv); err != nil {
		return c, err
	}
	if c.mcpProfile, err = mcp.ParseProfile(getenv("ZAXY_MCP_PROFILE"), "ZAXY_MCP_PROFILE"); err != nil {
		return c, err
	}
	switch v := envOr(getenv, "ZAXY_AUTH", "on"); v {
	case "on":
	case "off":
		if !loopback(c.addr) {
			return c, fmt.Errorf("ZAXY_AUTH=off is only allowed on a loopback address, not %s; create tokens with 'zaxy token create' instead", c.addr)
		}
		c.authOff = true
	default:
		return c, fmt.Errorf("ZAXY_AUTH must be on or off, got %q", v)
	}
	return c, nil
}

// minResponseBytes is the least ZAXY_MAX_RESPONSE_BYTES may be: 1 MiB holds the largest
// checkout packet (32,000 tokens), so a checkout, which records what it surfaced, is never
// answered 413 after recording.
const minResponseBytes = 1 << 20

// parseAPIConfig reads the HTTP API's limits, which zaxy serve and zaxy mcp share.
func parseAPIConfig(getenv func(string) string) (api.Config, error) {
	var c api.Config
	var err error
	if c.MaxBodyBytes, err = envInt(getenv, "ZAXY_MAX_BODY_BYTES", 1<<20); err != nil {
		return c, err
	}
	n, err := envInt(getenv, "ZAXY_MAX_BATCH", 1000)
	if err != nil {
		return c, err
	}
	c.MaxBatch = int(n)
	if c.RequestTimeout, err = envDuration(getenv, "ZAXY_REQUEST_TIMEOUT", 30*time.Second); err != nil {
		return c, err
	}
	if n, err = envInt(getenv, "ZAXY_MAX_IN_FLIGHT", api.DefaultMaxInFlight); err != nil {
		return c, err
	}
	c.MaxInFlight = int(n)
	if n, err = envInt(getenv, "ZAXY_MAX_ANALYTICS_IN_FLIGHT", api.DefaultMaxAnalyticsInFlight); err != nil {
		return c, err
	}
	c.MaxAnalyticsInFlight = int(n)
	if c.MaxAnalyticsInFlight > c.MaxInFlight {
		return c, fmt.Errorf("ZAXY_MAX_ANALYTICS_IN_FLIGHT (%d) must be at most ZAXY_MAX_IN_FLIGHT (%d)", c.MaxAnalyticsInFlight, c.MaxInFlight)
	}
	if c.MaxResponseBytes, err = envInt(getenv, "ZAXY_MAX_RESPONSE_BYTES", api.DefaultMaxResponseBytes); err != nil {
		return c, err
	}
	if c.MaxResponseBytes < minResponseBytes {
		return c, fmt.Errorf("ZAXY_MAX_RESPONSE_BYTES must be at least %d, got %d", minResponseBytes, c.MaxResponseBytes)
	}
	return c, nil
}

// parseWorkerLimits reads the pool sizes and River's job timing.
func (c *serveConfig) parseWorkerLimits(getenv func(string) string) error {
	var err error
	if c.pools, err = parsePoolSizes(getenv, c.workers); err != nil {
		return err
	}
	if c.jobTimeout, err = envDuration(getenv, "ZAXY_JOB_TIMEOUT", jobs.DefaultJobTimeout); err != nil {
		return err
	}
	if c.rescueAfter, err = envDuration(getenv, "ZAXY_RESCUE_STUCK_JOBS_AFTER", max(jobs.DefaultRescueStuckJobsAfter, c.jobTimeout)); err != nil {
		return err
	}
	if c.rescueAfter < c.jobTimeout {
		return fmt.Errorf("ZAXY_RESCUE_STUCK_JOBS_AFTER (%s) must be at least ZAXY_JOB_TIMEOUT (%s)", c.rescueAfter, c.jobTimeout)
	}
	return nil
}

func envOr(getenv func(string) string, name, def string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return def
}

func envInt(getenv func(string) string, name string, def int64) (int64, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s must be a positive integer, got %q", name, v)
	}
	return n, nil
}

func envDuration(getenv func(string) string, name string, def time.Duration) (time.Duration, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s must be a positive duration such as 30s, got %q", name, v)
	}
	return d, nil
}

// serve runs the HTTP API, with the MCP endpoint at /mcp, and River workers in-process until
// ctx ends, then shuts down in order: HTTP server (finishing in-flight requests), River, pool.
func serve(ctx context.Context, cfg serveConfig, migrate bool, logger *slog.Logger, stdout io.Writer) error {
	if migrate {
		if _, err := migrations.Up(ctx, cfg.databaseURL, time.Minute); err != nil {
			return err
		}
	}
	workerPool, client, err := startWorkers(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer workerPool.Close()
	defer func() {
		// River stops before its pool closes, whichever way serve returns.
		sctx, cancel := context.WithTimeout(context.Background(), cfg.shutdownTimeout)
		defer cancel()
		if err := client.Stop(sctx); err != nil {
			logger.Error("river stop", "error", err)
		}
	}()
	pool, err := newPoolSized(ctx, cfg.databaseURL, cfg.pools.hot, "zaxy-hot")
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer pool.Close()
	if cfg.http.AnalyticsPool, err = newPoolSized(ctx, cfg.databaseURL, cfg.pools.analytics, "zaxy-analytics"); err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer cfg.http.AnalyticsPool.Close()
	store := eventloom.NewStore(pool, jobs.NewOutbox(client), logger)
	provider, why, err := cfg.memory.embedProviderWhy()
	if err != nil {
		return err
	}
	if provider != nil {
		logger.InfoContext(ctx, "embedder", "model", provider.Model(), "dimensions", provider.Dimensions(), "why", why)
	}
	cfg.http.Checkout = checkout.New(pool, store, checkout.Config{TextSearchConfig: cfg.memory.textSearchConfig, Embedder: provider, Logger: logger})
	if !cfg.authOff {
		cfg.http.Auth = auth.NewStore(pool)
	}
	cfg.http.ListenAddr = cfg.addr
	proj, err := projection.New(ctx, pool, projection.Config{TextSearchConfig: cfg.memory.textSearchConfig, Logger: logger})
	if err != nil {
		return err
	}
	cfg.http.Erasure = erasure.New(pool, store, proj, logger)
	apiHandler := api.NewHandler(cfg.http, pool, store, logger)
	mcpHandler, err := mcp.NewHTTPHandler(mcp.HTTPConfig{
		Config: mcp.Config{API: apiHandler, Profile: cfg.mcpProfile, Logger: logger},
		Auth:   cfg.http.Auth, MaxBodyBytes: cfg.http.MaxBodyBytes,
	})
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           mcp.Mount(apiHandler, mcpHandler),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       cfg.http.RequestTimeout,
		WriteTimeout:      cfg.http.RequestTimeout + 5*time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.addr, err)
	}
	fmt.Fprintf(stdout, "zaxy serving on http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), cfg.shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		logger.Error("http shutdown", "error", err)
	}
	return nil
}

// work runs River workers only (no HTTP) until ctx ends, then stops River and the pool.
func work(ctx context.Context, cfg serveConfig, logger *slog.Logger, stdout io.Writer) error {
	pool, client, err := startWorkers(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer pool.Close()
	fmt.Fprintf(stdout, "zaxy worker running %d workers\n", cfg.workers)
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), cfg.shutdownTimeout)
	defer cancel()
	return client.Stop(sctx)
}

// startWorkers opens the worker pool (River and its jobs), refuses an out-of-date schema and starts River's workers.
func startWorkers(ctx context.Context, cfg serveConfig, logger *slog.Logger) (*pgxpool.Pool, *river.Client[pgx.Tx], error) {
	pool, err := newPoolSized(ctx, cfg.databaseURL, cfg.pools.worker, "zaxy-worker")
	if err != nil {
		return nil, nil, fmt.Errorf("open database: %w", err)
	}
	if err := migrations.Check(ctx, pool); err != nil {
		pool.Close()
		return nil, nil, err
	}
	proj, embedder, err := openMemory(ctx, pool, cfg.memory, logger)
	if err != nil {
		pool.Close()
		return nil, nil, err
	}
	inferrer, err := cfg.memory.inferrer(pool)
	if err != nil {
		pool.Close()
		return nil, nil, err
	}
	client, err := jobs.NewClient(pool, jobs.Config{Workers: cfg.workers, Logger: logger, Projector: proj, Embedder: embedder, Inferrer: inferrer,
		Latent: latent.NewRefresher(pool, latent.DefaultParams), JobTimeout: cfg.jobTimeout, RescueStuckJobsAfter: cfg.rescueAfter})
	if err == nil {
		err = client.Start(ctx)
	}
	if err != nil {
		pool.Close()
		return nil, nil, fmt.Errorf("start workers: %w", err)
	}
	return pool, client, nil
}

// loopback reports whether a listen address only accepts local connections.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
