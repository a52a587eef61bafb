// Package apitest builds the API's services for tests, once per handler, the way zaxy's
// composition root (cmd/zaxy/services.go) builds them, with the default configuration. Tests
// that serve the API (api, mcp, client, console, erasure, bench) start their handler through
// NewHandler rather than wiring services themselves. It must never be imported outside tests.
package apitest

import (
	"log/slog"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/checkout/lifecycle"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/policy"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/review"
)

// Services returns svc with every service it leaves nil built over svc.Pool and svc.Store
// (Store defaults to a store on Pool without an outbox) with the default configuration: the
// english text search configuration, the offline embedder, a projector with projection's
// defaults behind erasure, and transcript batches of cfg's MaxBatch. Analytics defaults to
// Pool, and AnalyticsStore to a store on Analytics (Store when Analytics is Pool). Auth stays
// as given.
func Services(t testing.TB, cfg api.Config, svc api.Services, logger *slog.Logger) api.Services {
	t.Helper()
	pool := svc.Pool
	if svc.Store == nil {
		svc.Store = eventloom.NewStore(pool, nil, logger)
	}
	if svc.Analytics == nil {
		svc.Analytics = pool
	}
	if svc.AnalyticsStore == nil {
		svc.AnalyticsStore = svc.Store
		if svc.Analytics != pool {
			svc.AnalyticsStore = eventloom.NewStore(svc.Analytics, nil, logger)
		}
	}
	if svc.Checkout == nil {
		svc.Checkout = checkout.New(pool, svc.Store, checkout.Config{Embedder: embedding.NewOffline(), Logger: logger})
	}
	if svc.Lifecycle == nil {
		svc.Lifecycle = lifecycle.New(pool, svc.Store, svc.Checkout)
	}
	if svc.FeelingOfKnowing == nil {
		svc.FeelingOfKnowing = metamemory.New(pool, metamemory.Config{Logger: logger})
	}
	if svc.Ingest == nil {
		in, err := ingest.New(pool, svc.Store, ingest.Config{TranscriptBatch: cfg.WithDefaults().MaxBatch})
		require.NoError(t, err)
		svc.Ingest = in
	}
	if svc.Erasure == nil {
		proj, err := projection.New(t.Context(), pool, projection.Config{Logger: logger})
		require.NoError(t, err)
		svc.Erasure = erasure.New(pool, svc.Store, proj, logger)
	}
	if svc.Policies == nil {
		svc.Policies = policy.New(pool, svc.Store)
	}
	if svc.MemoryActions == nil {
		svc.MemoryActions = memoryaction.New(pool, svc.Store)
	}
	if svc.Review == nil {
		svc.Review = review.NewDecider(pool, svc.Store)
	}
	if svc.Standbys == nil {
		svc.Standbys = api.StandbyServicesOf(svc.Replicas, svc, logger)
	}
	return svc
}

// NewHandler is api.NewHandler(cfg, Services(t, cfg, svc, logger), logger), failing t if it
// fails.
func NewHandler(t testing.TB, cfg api.Config, svc api.Services, logger *slog.Logger) http.Handler {
	t.Helper()
	h, err := api.NewHandler(cfg, Services(t, cfg, svc, logger), logger)
	require.NoError(t, err)
	return h
}
