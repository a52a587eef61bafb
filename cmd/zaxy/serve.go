package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/console"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/tracing/otlp"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/mcp"
	"github.com/zaxy/zaxy/migrations"
	"github.com/zaxy/zaxy/placement"
	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/retrospective"
	"github.com/zaxy/zaxy/topic"
)

// serveCmd: zaxy serve [--migrate] [--profile core|compact|full].
type serveCmd struct {
	migrate bool
	profile string
}

func (c *serveCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.BoolVar(&c.migrate, "migrate", false, "apply the schema migrations first")
	fs.StringVar(&c.profile, "profile", cfg.mcpProfile, "tools /mcp lists by default: core, compact or full")
}

func (c *serveCmd) validate(args []string) error {
	var err error
	if c.profile, err = mcp.ParseProfile(c.profile, "--profile"); err != nil {
		return err
	}
	return noArgs(args)
}

func (c *serveCmd) run(ctx context.Context, env *env) error {
	cfg := *env.cfg
	cfg.mcpProfile = c.profile
	return serve(ctx, &cfg, c.migrate, env.logger, env.stdout)
}

// workerCmd: zaxy worker; River workers only (no HTTP).
type workerCmd struct{}

func (c *workerCmd) flags(*flag.FlagSet, *config) {}
func (c *workerCmd) validate(args []string) error { return noArgs(args) }

func (c *workerCmd) run(ctx context.Context, env *env) error {
	return work(ctx, env.cfg, env.logger, env.stdout)
}

// writeSlack is how long past the request deadline the server still writes an answer before it
// closes the connection: the deadline ends the work, and the slack is for a CPU-starved process
// to finish writing the 503 it decided on, never a connection closed without an answer.
const writeSlack = 30 * time.Second

// serve runs the HTTP API, with the MCP endpoint at /mcp and the web console at /console, and River workers in-process until
// ctx ends, then shuts down in order: HTTP server (finishing in-flight requests), River, pool.
// Once River has started, every return stops it before its pool closes. With ZAXY_CLUSTERS it
// runs all of that once per cluster and serves the API through api.NewClusterRouter.
func serve(ctx context.Context, cfg *config, migrate bool, logger *slog.Logger, stdout io.Writer) error {
	stopTracing, err := startTracing(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer stopTracing()
	clusters := servedClusters(cfg)
	if migrate {
		for _, cl := range clusters {
			if _, err := migrations.Up(ctx, cl.URL, time.Minute); err != nil {
				return fmt.Errorf("migrate cluster %s: %w", cl.Name, err)
			}
		}
	}
	provider, why, err := cfg.memory.embedProviderWhy()
	if err != nil {
		return err
	}
	if provider != nil {
		logger.InfoContext(ctx, "embedder", "model", provider.Model(), "dimensions", provider.Dimensions(), "why", why)
	}
	shared, err := openSharedBudgets(ctx, cfg, logger)
	if err != nil {
		return err
	}
	if shared != nil {
		defer shared.Close()
	}
	httpCfg := cfg.http
	httpCfg.ListenAddr = cfg.addr
	var home *clusterStack
	stacks := map[string]*clusterStack{}
	for _, cl := range clusters {
		st, err := openClusterStack(ctx, clusterConfig(cfg, cl), logger)
		if err != nil {
			return fmt.Errorf("cluster %s: %w", cl.Name, err)
		}
		defer st.close(cfg.shutdownTimeout)
		if home == nil {
			home = st
		}
		stacks[cl.Name] = st
	}
	handlers := map[string]http.Handler{}
	var svc *services
	for _, cl := range clusters {
		st := stacks[cl.Name]
		csvc, err := buildServices(ctx, cfg, httpCfg, serviceDeps{pool: st.pool, analytics: st.analytics, store: st.store, provider: provider,
			withAuth: !cfg.authOff, authPool: home.pool, sharedBudgets: shared, replicas: st.replicas}, logger)
		if err != nil {
			return err
		}
		handlers[cl.Name] = csvc.handler
		if st == home {
			svc = csvc
		}
	}
	if len(clusters) > 1 {
		dir := placement.NewDirectory(home.pool, clusters)
		for _, cl := range clusters {
			n, err := dir.Adopt(ctx, cl.Name, stacks[cl.Name].pool)
			if err != nil {
				return err
			}
			if n > 0 {
				logger.InfoContext(ctx, "spaces pinned where their log is", "cluster", cl.Name, "spaces", n)
			}
		}
		router, err := api.NewClusterRouter(api.Clusters{Directory: dir, Home: clusters[0].Name,
			Handlers: handlers, Auth: svc.api.Auth, Logger: logger})
		if err != nil {
			return err
		}
		svc.handler = router
		svc.mcp.API = router
		logger.InfoContext(ctx, "serving spaces across clusters", "clusters", len(clusters), "home", clusters[0].Name)
	}
	mcpHandler, err := mcp.NewHTTPHandler(mcp.HTTPConfig{Config: mcp.Config{Profile: cfg.mcpProfile}, MaxBodyBytes: httpCfg.MaxBodyBytes}, svc.mcp, logger)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           api.NoSniff(console.Mount(mcp.Mount(svc.handler, mcpHandler))),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       httpCfg.RequestTimeout,
		WriteTimeout:      httpCfg.RequestTimeout + writeSlack,
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

// clusterStack is what zaxy serve runs on one cluster: River's workers, the hot and analytics
// pools, the store that appends (enqueueing on this cluster's River) and the standbys.
type clusterStack struct {
	workers         *workers
	pool, analytics *pgxpool.Pool
	store           *eventloom.Store
	replicas        *replica.Set
	closeReplicas   func()
}

// openClusterStack starts River and opens the pools and standbys of cfg's database; on success
// the caller must call close.
func openClusterStack(ctx context.Context, cfg *config, logger *slog.Logger) (st *clusterStack, err error) {
	st = &clusterStack{closeReplicas: func() {}}
	defer func() {
		if err != nil {
			st.close(cfg.shutdownTimeout)
		}
	}()
	if st.workers, err = startWorkers(ctx, cfg, logger); err != nil {
		return nil, err
	}
	if st.pool, err = newPoolSized(ctx, cfg.databaseURL, cfg.pools.hot, "zaxy-hot"); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if st.analytics, err = newPoolSized(ctx, cfg.databaseURL, cfg.pools.analytics, "zaxy-analytics"); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	st.store = eventloom.NewStore(st.pool, jobs.NewOutbox(st.workers.client), logger)
	if st.replicas, st.closeReplicas, err = openReplicas(ctx, cfg, st.pool, logger); err != nil {
		return nil, err
	}
	return st, nil
}

// close closes what openClusterStack opened, in order: standbys, pools, then River (waiting at
// most timeout for its jobs) and its pool.
func (st *clusterStack) close(timeout time.Duration) {
	st.closeReplicas()
	if st.analytics != nil {
		st.analytics.Close()
	}
	if st.pool != nil {
		st.pool.Close()
	}
	if st.workers != nil {
		_ = st.workers.stop(timeout)
	}
}

// work runs River workers only (no HTTP) until ctx ends, then stops River and the pool; with
// ZAXY_CLUSTERS it runs them on every cluster.
func work(ctx context.Context, cfg *config, logger *slog.Logger, stdout io.Writer) error {
	stopTracing, err := startTracing(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer stopTracing()
	clusters := servedClusters(cfg)
	started := make([]*workers, 0, len(clusters))
	defer func() {
		for _, w := range started {
			_ = w.stop(cfg.shutdownTimeout)
		}
	}()
	for _, cl := range clusters {
		w, err := startWorkers(ctx, clusterConfig(cfg, cl), logger)
		if err != nil {
			if len(cfg.clusters) > 0 {
				return fmt.Errorf("cluster %s: %w", cl.Name, err)
			}
			return err
		}
		started = append(started, w)
	}
	if len(cfg.clusters) > 0 {
		fmt.Fprintf(stdout, "zaxy worker running %d workers on each of %d clusters\n", cfg.workers, len(clusters))
	} else {
		fmt.Fprintf(stdout, "zaxy worker running %d workers\n", cfg.workers)
	}
	<-ctx.Done()
	var errs []error
	for _, w := range started {
		errs = append(errs, w.stop(cfg.shutdownTimeout))
	}
	started = nil
	return errors.Join(errs...)
}

// workers are River's started client and the worker pool it runs on.
type workers struct {
	pool   *pgxpool.Pool
	client *river.Client[pgx.Tx]
	logger *slog.Logger
}

// stop stops River, waiting at most timeout for running jobs, and then closes its pool (a
// pool closed under a running River would wait for River's connections forever). It logs
// and returns River's stop error.
func (w *workers) stop(timeout time.Duration) error {
	defer w.pool.Close()
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := w.client.Stop(sctx)
	if err != nil {
		w.logger.Error("river stop", "error", err)
	}
	return err
}

// startTracing installs the OTLP span exporter when the OTEL_* variables turn tracing on
// (cfg.tracing), and returns the function that flushes and stops it at shutdown (a no-op
// when tracing is off).
func startTracing(ctx context.Context, cfg *config, logger *slog.Logger) (func(), error) {
	shutdown, err := otlp.Start(ctx, cfg.tracing)
	if err != nil {
		return nil, err
	}
	if cfg.tracing.On() {
		logger.InfoContext(ctx, "tracing on: exporting spans over OTLP/HTTP")
	}
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := shutdown(sctx); err != nil {
			logger.Error("tracing shutdown", "error", err)
		}
	}, nil
}

// startWorkers opens the worker pool (River and its jobs), refuses an out-of-date schema and
// starts River's workers. On success the caller must call stop.
func startWorkers(ctx context.Context, cfg *config, logger *slog.Logger) (*workers, error) {
	pool, err := newPoolSized(ctx, cfg.databaseURL, cfg.pools.worker, "zaxy-worker")
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := migrations.Check(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	proj, embedder, err := openMemory(ctx, pool, cfg.memory, logger)
	if err != nil {
		pool.Close()
		return nil, err
	}
	inferrer, err := cfg.memory.inferrer(pool)
	if err != nil {
		pool.Close()
		return nil, err
	}
	summaries, err := cfg.memory.summaries(pool)
	if err != nil {
		pool.Close()
		return nil, err
	}
	builder, err := latent.NewBuilder(ctx, pool, eventloom.NewStore(pool, nil, logger), latent.Config{Logger: logger})
	if err != nil {
		pool.Close()
		return nil, err
	}
	client, err := jobs.NewClient(pool, jobs.Config{Workers: cfg.workers, Logger: logger, Projector: proj, Embedder: embedder, Inferrer: inferrer,
		Topic: topic.NewRefresher(pool, topic.DefaultParams), Latent: builder, Summaries: summaries,
		Retrospective: retrospective.NewAssigner(pool, eventloom.NewStore(pool, nil, logger), logger), JobTimeout: cfg.jobTimeout, RescueStuckJobsAfter: cfg.rescueAfter,
		ReindexInterval: cfg.reindex.interval, Reindex: cfg.reindex.thresholds})
	if err == nil {
		err = client.Start(ctx)
	}
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("start workers: %w", err)
	}
	return &workers{pool: pool, client: client, logger: logger}, nil
}
