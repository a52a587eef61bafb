// Package api is Zaxy's HTTP JSON interface (chi). Handlers decode, validate, call the domain
// packages and return a value or an error (handlerFunc); one adapter (serve) writes the JSON
// response, and errors are mapped to status codes and the {"error":{code,message,details}}
// body in exactly one place (errors.go). Each route's scope is declared where it is registered
// (spaceRoutes). It holds no domain logic.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/checkout/lifecycle"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/internal/buildinfo"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/migrations"
	"github.com/zaxy/zaxy/policy"
	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/review"
)

// Config holds the HTTP limits; the services the API serves with are Services.
type Config struct {
	// MaxBodyBytes caps a request body. Defaults to 1 MiB.
	MaxBodyBytes int64
	// MaxBatch caps the events of one append. Defaults to 1000.
	MaxBatch int
	// RequestTimeout is each request's deadline. Defaults to 30s.
	RequestTimeout time.Duration
	// MaxInFlight is how many requests one caller (a token; with auth off, a space) may have in
	// flight under /v1/spaces/{space}; more get 429. Defaults to DefaultMaxInFlight (32).
	MaxInFlight int
	// MaxAnalyticsInFlight is how many of those may be analytics requests. Defaults to
	// DefaultMaxAnalyticsInFlight (4).
	MaxAnalyticsInFlight int
	// MaxResponseBytes caps the answer of a read under /v1/spaces/{space} (routes of read
	// scope; those that change the log are not capped): pages that can continue stop before it
	// with a cursor, anything else gets 413. Defaults to DefaultMaxResponseBytes (4 MiB).
	MaxResponseBytes int64
	// ListenAddr is the address the server listens on (host:port, as given to net.Listen). With
	// Services.Auth nil, a request's Host must be localhost, 127.0.0.1, [::1] or this host, with this
	// port (any port when it is empty or 0), against DNS rebinding.
	ListenAddr string
	// BodyIdleTimeout bounds the wait for each read of a request body: a client that stops
	// sending for this long gets 408 body_timeout. Defaults to 10s.
	BodyIdleTimeout time.Duration
}

// WithDefaults returns a copy with zero fields set to their defaults.
func (c Config) WithDefaults() Config {
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = 1 << 20
	}
	if c.MaxBatch == 0 {
		c.MaxBatch = 1000
	}
	if c.RequestTimeout == 0 {
		c.RequestTimeout = 30 * time.Second
	}
	if c.MaxInFlight == 0 {
		c.MaxInFlight = DefaultMaxInFlight
	}
	if c.MaxAnalyticsInFlight == 0 {
		c.MaxAnalyticsInFlight = DefaultMaxAnalyticsInFlight
	}
	if c.MaxResponseBytes == 0 {
		c.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if c.BodyIdleTimeout == 0 {
		c.BodyIdleTimeout = 10 * time.Second
	}
	return c
}

type server struct {
	cfg   Config
	store *eventloom.Store
	pool  *pgxpool.Pool
	// analytics is the pool of the analytics routes, and analyticsStore the log read through it
	// (verify).
	analytics      *pgxpool.Pool
	analyticsStore *eventloom.Store
	inFlight       *inFlight
	// hotGate and analyticsGate hold each caller to its fair share of pool's and analytics'
	// connections (one gate when they are the same pool).
	hotGate, analyticsGate *fairGate
	auth                   *auth.Store
	checkout               *checkout.Service
	lifecycle              *lifecycle.Service
	feeling                *metamemory.Service
	ingest                 *ingest.Ingester
	erasure                *erasure.Service
	policies               *policy.Service
	memoryActions          *memoryaction.Actions
	review                 *review.Decider
	metrics                *metrics
	logger                 *slog.Logger

	// shared, when set, holds the in-flight budgets and fair shares across every instance.
	shared *SharedBudgets
	// replicas routes reads to standbys (nil: none); standbys are the services each serves with.
	replicas *replica.Set
	standbys map[*replica.Standby]StandbyServices
}

// NewHandler returns the HTTP handler for the whole API: a chi router (so chi.Walk can list
// its routes), with the operations on a space registered from spaceRoutes, served by svc's
// services. It builds no service: one that svc lacks is an error naming it.
func NewHandler(cfg Config, svc Services, logger *slog.Logger) (http.Handler, error) {
	if err := svc.validate(); err != nil {
		return nil, err
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	logger = redactingLogger(logger)
	s := &server{cfg: cfg.WithDefaults(), store: svc.Store, pool: svc.Pool, analytics: svc.Analytics, analyticsStore: svc.AnalyticsStore,
		inFlight: newInFlight(), auth: svc.Auth, checkout: svc.Checkout, lifecycle: svc.Lifecycle, feeling: svc.FeelingOfKnowing, ingest: svc.Ingest,
		erasure: svc.Erasure, policies: svc.Policies, memoryActions: svc.MemoryActions, review: svc.Review, logger: logger}
	s.hotGate = newFairGate(poolConns(svc.Pool))
	s.analyticsGate = s.hotGate
	if svc.Analytics != svc.Pool {
		s.analyticsGate = newFairGate(poolConns(svc.Analytics))
		s.analyticsGate.name = "analytics"
	}
	s.shared = svc.SharedBudgets
	s.replicas, s.standbys = svc.Replicas, svc.Standbys
	s.metrics = newMetrics(s.pool, s.replicas)
	r := chi.NewRouter()
	r.Use(NoSniff, requestID, traceRequest, s.instrument, s.recoverer, s.checkHost, RefuseCrossSite(logger), s.bodyDeadline, s.deadline)
	r.NotFound(s.routeNotFound)
	r.MethodNotAllowed(s.methodNotAllowed)
	r.Method(http.MethodGet, "/healthz", s.serve(healthz, 0))
	r.Method(http.MethodGet, "/readyz", s.serve((*server).readyz, 0))
	r.Get("/v1/openapi.json", openAPIDocument) // no token: it describes the API, not a space
	r.With(s.authorize(auth.ScopeRead)).Method(http.MethodGet, "/v1/spaces", s.serve((*server).listSpaces, s.cfg.MaxResponseBytes))
	r.With(s.authorizeAllSpaces).Method(http.MethodGet, "/metrics", s.metrics.handler())
	r.Route(spacePrefix, s.mountSpaceRoutes)
	return r, nil
}

// poolConns is the most connections pool opens (0 for no pool, as in tests that only walk
// the routes).
func poolConns(pool *pgxpool.Pool) int {
	if pool == nil {
		return 0
	}
	return int(pool.Config().MaxConns)
}

// routeNotFound answers 404 route_not_found.
func (s *server) routeNotFound(w http.ResponseWriter, r *http.Request) {
	writeError(w, r, s.logger, &apiError{status: http.StatusNotFound, code: "route_not_found", message: "no such route: " + r.Method + " " + r.URL.Path})
}

// methodNotAllowed answers 405 method_not_allowed.
func (s *server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	writeError(w, r, s.logger, &apiError{status: http.StatusMethodNotAllowed, code: "method_not_allowed", message: r.Method + " is not allowed on " + r.URL.Path})
}

// validSpace is middleware answering 400 invalid_request (field space) to a request whose
// path names an invalid space id, so that no handler checks it again.
func (s *server) validSpace(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := eventloom.ValidateSpaceID(chi.URLParam(r, "space")); err != nil {
			writeError(w, r, s.logger, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *server) deadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func (s *server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.logger.ErrorContext(r.Context(), "panic", "request_id", middleware.GetReqID(r.Context()), "panic", v, "path", r.URL.Path)
				writeError(w, r, s.logger, &apiError{status: http.StatusInternalServerError, code: "internal", message: "internal error"})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// health is the body of GET /healthz: the process is up, and which build it runs.
type health struct {
	Status string `json:"status"`
	buildinfo.Info
}

// healthz serves GET /healthz: the process is up, with its version, VCS revision and Go
// version (the same as `zaxy version` and the zaxy_build_info metric).
func healthz(*server, *http.Request) (any, error) {
	return health{Status: "ok", Info: buildinfo.Get()}, nil
}

// readyz serves GET /readyz: the database answers and the schema is current.
func (s *server) readyz(r *http.Request) (any, error) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.pool.Ping(ctx); err != nil {
		return nil, &apiError{status: http.StatusServiceUnavailable, code: "database_unreachable", message: err.Error()}
	}
	if err := migrations.Check(ctx, s.pool); err != nil {
		return nil, &apiError{status: http.StatusServiceUnavailable, code: "schema_out_of_date", message: err.Error()}
	}
	return map[string]string{"status": "ready"}, nil
}
