package api

import (
	"fmt"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/validation"
)

// factsResponse is the body of GET /v1/spaces/{space}/facts.
type factsResponse struct {
	View  graph.View   `json:"view"`
	Facts []graph.Fact `json:"facts"`
	// Inferred holds the LLM-assisted extractor's statements when include_inferred=true;
	// they are labelled inferred and never authoritative.
	Inferred []graph.InferredFact `json:"inferred,omitempty"`
}

// listFacts serves GET /v1/spaces/{space}/facts (FactsQuery).
func (s *server) listFacts(r *http.Request) (any, error) {
	space := chi.URLParam(r, "space")
	var q FactsQuery
	if err := decodeQuery(r.URL.Query(), &q); err != nil {
		return nil, err
	}
	p := graph.FactsParams{SpaceID: space, Entity: q.Entity, View: graph.ViewCurrent}
	if q.At != nil && q.AsOfSeq != nil {
		return nil, &validation.Error{Field: "at", Message: "give at most one of at and as_of_seq"}
	}
	if q.At != nil {
		p.View, p.At = graph.ViewAt, *q.At
	}
	if q.AsOfSeq != nil {
		if *q.AsOfSeq < 0 {
			return nil, &validation.Error{Field: "as_of_seq", Message: "must be a non-negative integer"}
		}
		p.View, p.AsOfSeq = graph.ViewAsOf, *q.AsOfSeq
	}
	if q.Limit != nil {
		if *q.Limit < 1 || *q.Limit > 10000 {
			return nil, &validation.Error{Field: "limit", Message: "must be an integer between 1 and 10000"}
		}
		p.Limit = int(*q.Limit)
	}
	db := budgeted(r.Context(), readPool(r, s.analytics), "limit")
	facts, err := graph.Facts(r.Context(), db, p)
	if err != nil {
		return nil, err
	}
	if facts == nil {
		facts = []graph.Fact{}
	}
	resp := factsResponse{View: p.View, Facts: facts}
	if q.IncludeInferred {
		if resp.Inferred, err = graph.InferredFacts(r.Context(), db, space, p.Entity, p.Limit); err != nil {
			return nil, err
		}
		if resp.Inferred == nil {
			resp.Inferred = []graph.InferredFact{}
		}
	}
	return resp, nil
}

// entityResponse is the body of GET /v1/spaces/{space}/entities/{entity}.
type entityResponse struct {
	Entity *graph.Entity `json:"entity"`
	Facts  []graph.Fact  `json:"facts"`
}

// getEntity serves GET /v1/spaces/{space}/entities/{entity}: the entity (by id or name) and
// its current facts.
func (s *server) getEntity(r *http.Request) (any, error) {
	space := chi.URLParam(r, "space")
	entity, err := pathParam(r, "entity", "entity")
	if err != nil {
		return nil, err
	}
	e, err := graph.ResolveEntity(r.Context(), readPool(r, s.analytics), space, entity)
	if err != nil {
		return nil, err
	}
	facts, err := graph.Facts(r.Context(), budgeted(r.Context(), readPool(r, s.analytics), ""), graph.FactsParams{SpaceID: space, Entity: e.ID})
	if err != nil {
		return nil, err
	}
	if facts == nil {
		facts = []graph.Fact{}
	}
	return entityResponse{Entity: e, Facts: facts}, nil
}

// projectionStatus serves GET /v1/spaces/{space}/projection: the space's projection lag.
func (s *server) projectionStatus(r *http.Request) (any, error) {
	st, err := projection.Lag(r.Context(), readPool(r, s.pool), chi.URLParam(r, "space"))
	if err != nil {
		return nil, err
	}
	if len(st) == 0 {
		return emptyProjection(chi.URLParam(r, "space")), nil // a space with no events
	}
	return st[0], nil
}

// cypher serves POST /v1/spaces/{space}/cypher: a read-only Cypher query on the space's AGE
// graph (graph.Cypher: filtered, sandboxed, rolled back), with a statement timeout (default
// 5 s, at most 30 s), a row cap and a byte cap.
func (s *server) cypher(r *http.Request) (any, error) {
	var req CypherBody
	if err := readJSON(r, &req); err != nil {
		return nil, err
	}
	// Checked as a count of milliseconds before it becomes a Duration, which would overflow.
	if req.TimeoutMS < 0 || int64(req.TimeoutMS) > graph.MaxCypherTimeout.Milliseconds() {
		return nil, &validation.Error{Field: "timeout_ms", Message: fmt.Sprintf("must be between 1 and %d", graph.MaxCypherTimeout.Milliseconds())}
	}
	timeout := time.Duration(req.TimeoutMS) * time.Millisecond
	if req.Limit < 0 || req.Limit > 10000 {
		return nil, &validation.Error{Field: "limit", Message: "must be between 1 and 10000"}
	}
	// The values' text may grow when encoded (a vertex's text form becomes a JSON string with
	// its quotes escaped), so the result stops at half the response cap and is marked
	// truncated; the response cap stays the backstop.
	res, err := graph.Cypher(r.Context(), readPool(r, s.analytics), graph.CypherParams{
		SpaceID: chi.URLParam(r, "space"), Query: req.Query, Columns: req.Columns, Timeout: timeout, Limit: req.Limit,
		MaxBytes: s.cfg.MaxResponseBytes / 2,
	})
	if s.noEvents(r, err) {
		return emptyCypher(), nil
	}
	return res, err
}
