package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/projection"
)

// factsResponse is the body of GET /v1/spaces/{space}/facts.
type factsResponse struct {
	View  graph.View   `json:"view"`
	Facts []graph.Fact `json:"facts"`
	// Inferred holds the LLM-assisted extractor's statements when include_inferred=true;
	// they are labelled inferred and never authoritative.
	Inferred []graph.InferredFact `json:"inferred,omitempty"`
}

// listFacts serves GET /v1/spaces/{space}/facts?entity=&at=&as_of_seq=&limit=&include_inferred=.
func (s *server) listFacts(w http.ResponseWriter, r *http.Request) {
	space := chi.URLParam(r, "space")
	if err := eventloom.ValidateSpaceID(space); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	q := r.URL.Query()
	p := graph.FactsParams{SpaceID: space, Entity: q.Get("entity"), View: graph.ViewCurrent}
	if q.Get("at") != "" && q.Get("as_of_seq") != "" {
		writeError(w, r, s.logger, &eventloom.ValidationError{Field: "at", Message: "give at most one of at and as_of_seq"})
		return
	}
	if v := q.Get("at"); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			writeError(w, r, s.logger, &eventloom.ValidationError{Field: "at", Message: "must be an RFC 3339 timestamp"})
			return
		}
		p.View, p.At = graph.ViewAt, t
	}
	if v := q.Get("as_of_seq"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			writeError(w, r, s.logger, &eventloom.ValidationError{Field: "as_of_seq", Message: "must be a non-negative integer"})
			return
		}
		p.View, p.AsOfSeq = graph.ViewAsOf, n
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			writeError(w, r, s.logger, &eventloom.ValidationError{Field: "limit", Message: "must be an integer between 1 and 10000"})
			return
		}
		p.Limit = n
	}
	facts, err := graph.Facts(r.Context(), s.pool, p)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	if facts == nil {
		facts = []graph.Fact{}
	}
	resp := factsResponse{View: p.View, Facts: facts}
	switch q.Get("include_inferred") {
	case "", "false":
	case "true":
		if resp.Inferred, err = graph.InferredFacts(r.Context(), s.pool, space, p.Entity, p.Limit); err != nil {
			writeError(w, r, s.logger, err)
			return
		}
		if resp.Inferred == nil {
			resp.Inferred = []graph.InferredFact{}
		}
	default:
		writeError(w, r, s.logger, &eventloom.ValidationError{Field: "include_inferred", Message: "must be true or false"})
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// entityResponse is the body of GET /v1/spaces/{space}/entities/{entity}.
type entityResponse struct {
	Entity *graph.Entity `json:"entity"`
	Facts  []graph.Fact  `json:"facts"`
}

// getEntity serves GET /v1/spaces/{space}/entities/{entity}: the entity (by id or name) and
// its current facts.
func (s *server) getEntity(w http.ResponseWriter, r *http.Request) {
	space := chi.URLParam(r, "space")
	if err := eventloom.ValidateSpaceID(space); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	e, err := graph.ResolveEntity(r.Context(), s.pool, space, chi.URLParam(r, "entity"))
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	facts, err := graph.Facts(r.Context(), s.pool, graph.FactsParams{SpaceID: space, Entity: e.ID})
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	if facts == nil {
		facts = []graph.Fact{}
	}
	writeJSON(w, http.StatusOK, entityResponse{Entity: e, Facts: facts})
}

// projectionStatus serves GET /v1/spaces/{space}/projection: the space's projection lag.
func (s *server) projectionStatus(w http.ResponseWriter, r *http.Request) {
	space := chi.URLParam(r, "space")
	if err := eventloom.ValidateSpaceID(space); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	st, err := projection.Lag(r.Context(), s.pool, space)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	if len(st) == 0 {
		writeError(w, r, s.logger, eventloom.ErrNotFound)
		return
	}
	writeJSON(w, http.StatusOK, st[0])
}

// cypherRequest is the body of POST /v1/spaces/{space}/cypher.
type cypherRequest struct {
	Query     string `json:"query"`
	Columns   int    `json:"columns"`
	TimeoutMS int    `json:"timeout_ms"`
	Limit     int    `json:"limit"`
}

// maxCypherTimeout caps the statement timeout a caller may ask for.
const maxCypherTimeout = 30 * time.Second

// cypher serves POST /v1/spaces/{space}/cypher: a read-only Cypher query on the space's AGE
// graph, with a statement timeout (default 5 s, at most 30 s).
func (s *server) cypher(w http.ResponseWriter, r *http.Request) {
	space := chi.URLParam(r, "space")
	if err := eventloom.ValidateSpaceID(space); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	var req cypherRequest
	if err := readJSON(w, r, s.cfg.MaxBodyBytes, &req); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	timeout := time.Duration(req.TimeoutMS) * time.Millisecond
	if req.TimeoutMS < 0 || timeout > maxCypherTimeout {
		writeError(w, r, s.logger, &eventloom.ValidationError{Field: "timeout_ms", Message: "must be between 1 and 30000"})
		return
	}
	if req.Limit < 0 || req.Limit > 10000 {
		writeError(w, r, s.logger, &eventloom.ValidationError{Field: "limit", Message: "must be between 1 and 10000"})
		return
	}
	res, err := graph.Cypher(r.Context(), s.pool, graph.CypherParams{
		SpaceID: space, Query: req.Query, Columns: req.Columns, Timeout: timeout, Limit: req.Limit,
	})
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}
