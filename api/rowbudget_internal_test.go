package api

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// budgetFixture is a space whose facts, proposals and artifacts each pass a small response
// cap many times over.
const (
	budgetRows  = 60      // facts (all about Alice) and proposals
	budgetText  = 500     // characters of text in each (a fact object holds at most 512)
	budgetLimit = 8 << 10 // the row budget: about 10 of those rows
)

// TestRowBudget_ListReadsStopReadingRowsAtTheCap calls each list handler over a space whose
// answer passes the cap many times and checks that it read rows only up to the cap (counted by
// the request's row budget), not the whole result, and answered 413 naming what to ask less
// of. Without the budget every handler read all its rows (60 facts, 60 proposals, every
// artifact) before the response cap refused the encoded answer.
func TestRowBudget_ListReadsStopReadingRowsAtTheCap(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	big := strings.Repeat("x", budgetText)
	var evs []eventloom.NewEvent
	for i := range budgetRows {
		evs = append(evs, eventloom.NewEvent{Type: "fact.asserted",
			Data: json.RawMessage(fmt.Sprintf(`{"subject":"Alice","predicate":"note %d","object":"%d %s"}`, i, i, big))})
	}
	for i := range budgetRows {
		evs = append(evs, eventloom.NewEvent{Type: "proposal.created", Actor: "agent",
			Data: json.RawMessage(fmt.Sprintf(`{"kind":"skill","evidence":[1],"rationale":"%d %s"}`, i, big))})
	}
	// Sessions of many messages: each an episode artifact citing every message.
	for s := range 6 {
		for i := range 80 {
			evs = append(evs, eventloom.NewEvent{Type: "message", SessionID: fmt.Sprint("trip-", s),
				Content: fmt.Sprintf("Ana plans leg %d of trip %d to Lisbon with the team.", i, s), Data: json.RawMessage(`{"role":"user"}`)})
		}
	}
	fixture.Append(t, store, "big", evs...)
	fixture.Project(t, pool, "big")
	b, err := latent.NewBuilder(ctx, pool, store, latent.Config{})
	require.NoError(t, err)
	_, err = b.Build(ctx, "big")
	require.NoError(t, err)
	alice, err := graph.ResolveEntity(ctx, pool, "big", "Alice")
	require.NoError(t, err)
	var artifacts int64
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM latent_artifacts WHERE space_id = 'big'`).Scan(&artifacts))
	require.GreaterOrEqual(t, artifacts, int64(3), "the fixture builds several artifacts")

	s := &server{cfg: Config{}.WithDefaults(), pool: pool, analytics: pool, store: store, logger: slog.New(slog.DiscardHandler)}
	for _, tc := range []struct {
		name   string
		h      handlerFunc
		path   string
		params map[string]string
		field  string // the parameter the 413 names
		// total is how many rows the whole answer holds; rows read must stay far below it.
		total int64
	}{
		{"facts", (*server).listFacts, "/facts?limit=10000", nil, "limit", budgetRows},
		{"facts with inferred", (*server).listFacts, "/facts?limit=10000&include_inferred=true", nil, "limit", budgetRows},
		{"entity", (*server).getEntity, "/entities/Alice", map[string]string{"entity": "Alice"}, "", budgetRows},
		{"item", (*server).item, "/items/" + alice.ID, map[string]string{"id": alice.ID}, "", 50}, // an entity item lists 50 facts
		{"proposals", (*server).listProposals, "/proposals?limit=1000", nil, "limit", budgetRows},
		{"artifacts", (*server).listArtifacts, "/artifacts?limit=200", nil, "limit", artifacts},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/v1/spaces/big"+tc.path, nil)
			rc := chi.NewRouteContext()
			rc.URLParams.Add("space", "big")
			for k, v := range tc.params {
				rc.URLParams.Add(k, v)
			}
			ctx := withRowBudget(context.WithValue(r.Context(), chi.RouteCtxKey, rc), budgetLimit)
			budget := ctx.Value(rowBudgetKey{}).(*rowBudget)
			_, err := tc.h(s, r.WithContext(ctx))
			ae := toAPIError(err)
			require.Equal(t, http.StatusRequestEntityTooLarge, ae.status, "%v", err)
			require.Equal(t, "response_too_large", ae.code)
			if tc.field != "" {
				require.Equal(t, tc.field, ae.details["field"])
			}
			// It stopped at the first row past the cap: every row read but that one fits.
			rows, used := budget.rows.Load(), budget.used.Load()
			t.Logf("%s: read %d rows (%d bytes) of %d", tc.name, rows, used, tc.total)
			require.Greater(t, used, int64(budgetLimit))
			require.Less(t, rows, tc.total/2, "the handler read past the cap")
		})
	}

	// Under the cap, nothing changes.
	r := httptest.NewRequest(http.MethodGet, "/v1/spaces/big/facts?limit=3", nil)
	rc := chi.NewRouteContext()
	rc.URLParams.Add("space", "big")
	ctx = withRowBudget(context.WithValue(r.Context(), chi.RouteCtxKey, rc), budgetLimit)
	v, err := s.listFacts(r.WithContext(ctx))
	require.NoError(t, err)
	require.Len(t, v.(factsResponse).Facts, 3)
}
