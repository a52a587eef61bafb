package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/disclosure"
)

// explicit maps an optional integer parameter to what the disclosure views expect: absent is
// 0, "the default"; a 0 given explicitly becomes -1 so that they reject it as out of range
// rather than silently taking the default.
func explicit(n *int64) int64 {
	switch {
	case n == nil:
		return 0
	case *n == 0:
		return -1
	}
	return *n
}

// index serves GET /v1/spaces/{space}/index?max_tokens=: what topics the space holds, each
// with the token cost of its detail.
func (s *server) index(r *http.Request) (any, error) {
	var q IndexQuery
	if err := decodeQuery(r.URL.Query(), &q); err != nil {
		return nil, err
	}
	return disclosure.Index(r.Context(), readPool(r, s.analytics), disclosure.IndexParams{
		SpaceID: chi.URLParam(r, "space"), MaxTokens: int(explicit(q.MaxTokens)),
	})
}

// timeline serves GET /v1/spaces/{space}/timeline?session_id=&max_tokens=&before_seq=: recent
// actions and decisions, newest first.
func (s *server) timeline(r *http.Request) (any, error) {
	var q TimelineQuery
	if err := decodeQuery(r.URL.Query(), &q); err != nil {
		return nil, err
	}
	return disclosure.Timeline(r.Context(), readPool(r, s.analytics), disclosure.TimelineParams{
		SpaceID: chi.URLParam(r, "space"), SessionID: q.SessionID,
		MaxTokens: int(explicit(q.MaxTokens)), BeforeSeq: explicit(q.BeforeSeq),
	})
}

// item serves GET /v1/spaces/{space}/items/{id}: an event (ev:<seq>), a fact (fact:<id>), an
// entity (its id) or a listing the index refers to, in full with its token cost.
func (s *server) item(r *http.Request) (any, error) {
	id, err := pathParam(r, "id", "id")
	if err != nil {
		return nil, err
	}
	return disclosure.Item(r.Context(), budgeted(r.Context(), readPool(r, s.analytics), ""), disclosure.ItemParams{SpaceID: chi.URLParam(r, "space"), ID: id})
}
