package api

import (
	"net/http"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/checkout/lifecycle"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/policy"
	"github.com/zaxy/zaxy/review"
)

// routeHandler is a handler over services on a pool that never connects, for tests that only
// walk the routes or are answered before any handler reads the database (package apitest
// builds real ones, but imports this package).
func routeHandler(t *testing.T, tokens *auth.Store) http.Handler {
	t.Helper()
	pool, err := pgxpool.New(t.Context(), "postgres://nobody@127.0.0.1:1/none")
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	store := eventloom.NewStore(pool, nil, nil)
	in, err := ingest.New(pool, store, ingest.Config{})
	require.NoError(t, err)
	co := checkout.New(pool, store, checkout.Config{})
	h, err := NewHandler(Config{}, Services{Pool: pool, Store: store, Analytics: pool, AnalyticsStore: store, Auth: tokens,
		Checkout: co, Lifecycle: lifecycle.New(pool, store, co), FeelingOfKnowing: metamemory.New(pool, metamemory.Config{}),
		Ingest: in, Erasure: erasure.New(pool, store, nil, nil), Policies: policy.New(pool, store),
		MemoryActions: memoryaction.New(pool, store), Review: review.NewDecider(pool, store)}, nil)
	require.NoError(t, err)
	return h
}

// NewHandler builds no service: it refuses Services that lack one, naming each, rather than
// building a default of its own.
func TestNewHandler_NamesEveryMissingService(t *testing.T) {
	_, err := NewHandler(Config{}, Services{}, nil)
	require.Error(t, err)
	for _, name := range []string{"Pool", "Store", "Analytics", "AnalyticsStore", "Checkout", "Lifecycle", "FeelingOfKnowing", "Ingest",
		"Erasure", "Policies", "MemoryActions", "Review"} {
		require.ErrorContains(t, err, "api: Services."+name+" is required")
	}
	require.NotContains(t, err.Error(), "Services.Auth", "auth is optional: nil serves without tokens")
}
