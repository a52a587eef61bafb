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
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/migrations"
)

// Config holds the HTTP limits.
type Config struct {
	// MaxBodyBytes caps a request body. Defaults to 1 MiB.
	MaxBodyBytes int64
	// MaxBatch caps the events of one append. Defaults to 1000.
	MaxBatch int
	// RequestTimeout is each request's deadline. Defaults to 30s.
	RequestTimeout time.Duration
	// Checkout answers /checkout and /query. Defaults to a checkout.Service with the built-in
	// offline embedder and the english text search configuration.
	Checkout *checkout.Service
	// FeelingOfKnowing answers /feeling-of-knowing. Defaults to a metamemory.Service with the
	// english text search configuration and default limits.
	FeelingOfKnowing *metamemory.Service
	// Auth checks bearer tokens on every /v1 route; nil serves without authentication (zaxy
	// serve sets it unless ZAXY_AUTH=off on a loopback address).
	Auth *auth.Store
	// AnalyticsPool serves the analytics routes (AnalyticsRoute: Cypher, facts, entities, the
	// disclosure views, verify), so that broad reads cannot take the connections appends,
	// checkout and token checks need. Nil uses the pool given to NewHandler.
	AnalyticsPool *pgxpool.Pool
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
	// Auth nil, a request's Host must be localhost, 127.0.0.1, [::1] or this host, with this
	// port (any port when it is empty or 0), against DNS rebinding.
	ListenAddr string
	// BodyIdleTimeout bounds the wait for each read of a request body: a client that stops
	// sending for this long gets 408 body_timeout. Defaults to 10s.
	BodyIdleTimeout time.Duration
	// Erasure serves POST /erasures; nil builds one on first use with a default projector
	// (zaxy serve passes one configured like its workers').
	Erasure *erasure.Service
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
	checkout               *checkout.Service
	feeling                *metamemory.Service
	metrics                *metrics
	logger                 *slog.Logger
	// ingest serves the ingest routes; ingestErr is its configuration error, if any, which
	// those routes answer with.
	ingest    *ingest.Ingester
	ingestErr error
	erasures  erasures
}

// NewHandler returns the HTTP handler for the whole API: a chi router (so chi.Walk can list
// its routes), with the operations on a space registered from spaceRoutes; pool serves its
// reads and readiness, store (built on the same pool) its appends.
func NewHandler(cfg Config, pool *pgxpool.Pool, store *eventloom.Store, logger *slog.Logger) http.Handler {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	logger = redactingLogger(logger)
	s := &server{cfg: cfg.WithDefaults(), store: store, pool: pool, checkout: cfg.Checkout, feeling: cfg.FeelingOfKnowing, logger: logger}
	s.analytics, s.analyticsStore, s.inFlight = s.pool, store, newInFlight()
	s.hotGate = newFairGate(poolConns(pool))
	s.analyticsGate = s.hotGate
	if cfg.AnalyticsPool != nil {
		s.analytics, s.analyticsStore = cfg.AnalyticsPool, eventloom.NewStore(cfg.AnalyticsPool, nil, logger)
		s.analyticsGate = newFairGate(poolConns(cfg.AnalyticsPool))
	}
	if s.checkout == nil {
		s.checkout = checkout.New(pool, store, checkout.Config{Embedder: embedding.NewOffline(), Logger: logger})
	}
	if s.feeling == nil {
		s.feeling = metamemory.New(pool, metamemory.Config{Logger: logger})
	}
	s.metrics = newMetrics(s.pool)
	s.ingest, s.ingestErr = ingest.New(pool, store, ingest.Config{TranscriptBatch: s.cfg.MaxBatch})
	r := chi.NewRouter()
	r.Use(NoSniff, requestID, traceRequest, s.instrument, s.recoverer, s.checkHost, RefuseCrossSite(logger), s.bodyDeadline, s.deadline)
	r.NotFound(s.routeNotFound)
	r.MethodNotAllowed(s.methodNotAllowed)
	r.Method(http.MethodGet, "/healthz", s.serve(healthz, 0))
	r.Method(http.MethodGet, "/readyz", s.serve((*server).readyz, 0))
	r.With(s.authorize(auth.ScopeRead)).Get("/v1/openapi.json", openAPIDocument)
	r.With(s.authorize(auth.ScopeRead)).Method(http.MethodGet, "/v1/spaces", s.serve((*server).listSpaces, s.cfg.MaxResponseBytes))
	r.With(s.authorizeAllSpaces).Method(http.MethodGet, "/metrics", s.metrics.handler())
	r.Route(spacePrefix, s.mountSpaceRoutes)
	return r
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

// healthz serves GET /healthz: the process is up.
func healthz(*server, *http.Request) (any, error) { return map[string]string{"status": "ok"}, nil }

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
