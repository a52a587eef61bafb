package main

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/checkout/lifecycle"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/mcp"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/policy"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/review"
)

// serviceDeps are what the services are built on: the pools and the store the command opened,
// the embedding provider it chose (nil when embedding is off) and whether tokens are checked.
type serviceDeps struct {
	// pool serves the hot reads and store (on pool) the appends; analytics the analytics
	// routes (pool when the command opens no pool of its own for them).
	pool, analytics *pgxpool.Pool
	store           *eventloom.Store
	provider        embedding.Embedder
	withAuth        bool
	// authPool is where the tokens are checked: the home cluster's pool with ZAXY_CLUSTERS;
	// nil checks them on pool.
	authPool *pgxpool.Pool
	// sharedBudgets, when set, keeps the API's in-flight budgets and fair pool shares in the
	// database, shared with every instance (ZAXY_SHARED_BUDGETS); nil counts them per process.
	sharedBudgets *api.SharedBudgets
	// replicas routes reads to standbys; nil without ZAXY_REPLICA_URLS.
	replicas *replica.Set
}

// services are everything zaxy serves with, each built once by buildServices and shared by
// every request.
type services struct {
	// api are the HTTP API's services.
	api api.Services
	// handler is the HTTP API (api.NewHandler on api).
	handler http.Handler
	// mcp are the MCP server's services: handler, and api's token store.
	mcp mcp.Services
}

// buildServices is zaxy's composition root: it builds every service the HTTP API and the MCP
// server serve with, once, from the parsed configuration (httpCfg configures the API's
// handler). zaxy serve, zaxy mcp and zaxy bench append serve through it, so that every reader
// of what the projector wrote (checkout, the feeling of knowing, the projector behind erasure)
// uses its text search configuration (ZAXY_TEXT_SEARCH_CONFIG), and ingest's transcript
// batches follow the API's MaxBatch (ZAXY_MAX_BATCH).
func buildServices(ctx context.Context, cfg *config, httpCfg api.Config, d serviceDeps, logger *slog.Logger) (*services, error) {
	svc, err := buildAPIServices(ctx, cfg, d, logger)
	if err != nil {
		return nil, err
	}
	h, err := api.NewHandler(httpCfg, svc, logger)
	if err != nil {
		return nil, err
	}
	return &services{api: svc, handler: h, mcp: mcp.Services{API: h, Auth: svc.Auth}}, nil
}

// buildAPIServices builds every service the HTTP API serves with.
func buildAPIServices(ctx context.Context, cfg *config, d serviceDeps, logger *slog.Logger) (api.Services, error) {
	mem := cfg.memory
	svc := api.Services{Pool: d.pool, Store: d.store, Analytics: d.analytics, AnalyticsStore: d.store, SharedBudgets: d.sharedBudgets, Replicas: d.replicas}
	if d.analytics != d.pool {
		svc.AnalyticsStore = eventloom.NewStore(d.analytics, nil, logger)
	}
	if d.withAuth {
		authPool := d.pool
		if d.authPool != nil {
			authPool = d.authPool
		}
		svc.Auth = auth.NewStore(authPool)
	}
	svc.Checkout = checkout.New(d.pool, d.store, checkout.Config{TextSearchConfig: mem.textSearchConfig, Embedder: d.provider, Logger: logger, Tokenizer: mem.counter()})
	svc.Lifecycle = lifecycle.New(d.pool, d.store, svc.Checkout)
	svc.FeelingOfKnowing = metamemory.New(d.pool, metamemory.Config{TextSearchConfig: mem.textSearchConfig, Logger: logger})
	in, err := ingest.New(d.pool, d.store, ingest.Config{TranscriptBatch: cfg.http.WithDefaults().MaxBatch})
	if err != nil {
		return api.Services{}, err
	}
	svc.Ingest = in
	pcfg, err := mem.projection(logger)
	if err != nil {
		return api.Services{}, err
	}
	proj, err := projection.New(ctx, d.pool, pcfg)
	if err != nil {
		return api.Services{}, err
	}
	svc.Erasure = erasure.New(d.pool, d.store, proj, logger)
	svc.Policies = policy.New(d.pool, d.store)
	svc.MemoryActions = memoryaction.New(d.pool, d.store)
	svc.Review = review.NewDecider(d.pool, d.store)
	svc.Standbys = api.StandbyServicesOf(d.replicas, svc, logger)
	return svc, nil
}
