package api

import (
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/disclosure"
	"github.com/zaxy/zaxy/eventloom"
)

// disclosureError gives the disclosure views' not-found errors their codes and the field
// they concern; everything else goes through toAPIError unchanged.
func disclosureError(err error) error {
	switch {
	case errors.Is(err, disclosure.ErrItemNotFound):
		return &apiError{status: http.StatusNotFound, code: "item_not_found", message: err.Error(), details: map[string]any{"field": "id"}}
	case errors.Is(err, eventloom.ErrNotFound):
		return &apiError{status: http.StatusNotFound, code: "space_not_found", message: err.Error(), details: map[string]any{"field": "space"}}
	}
	return err
}

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
func (s *server) index(w http.ResponseWriter, r *http.Request) {
	var q IndexQuery
	if err := decodeQuery(r.URL.Query(), &q); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	v, err := disclosure.Index(r.Context(), s.analytics, disclosure.IndexParams{
		SpaceID: chi.URLParam(r, "space"), MaxTokens: int(explicit(q.MaxTokens)),
	})
	if err != nil {
		writeError(w, r, s.logger, disclosureError(err))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// timeline serves GET /v1/spaces/{space}/timeline?session_id=&max_tokens=&before_seq=: recent
// actions and decisions, newest first.
func (s *server) timeline(w http.ResponseWriter, r *http.Request) {
	var q TimelineQuery
	if err := decodeQuery(r.URL.Query(), &q); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	v, err := disclosure.Timeline(r.Context(), s.analytics, disclosure.TimelineParams{
		SpaceID: chi.URLParam(r, "space"), SessionID: q.SessionID,
		MaxTokens: int(explicit(q.MaxTokens)), BeforeSeq: explicit(q.BeforeSeq),
	})
	if err != nil {
		writeError(w, r, s.logger, disclosureError(err))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// item serves GET /v1/spaces/{space}/items/{id}: an event (ev:<seq>), a fact (fact:<id>), an
// entity (its id) or a listing the index refers to, in full with its token cost.
func (s *server) item(w http.ResponseWriter, r *http.Request) {
	id, err := pathParam(r, "id", "id")
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	v, err := disclosure.Item(r.Context(), s.analytics, disclosure.ItemParams{SpaceID: chi.URLParam(r, "space"), ID: id})
	if err != nil {
		writeError(w, r, s.logger, disclosureError(err))
		return
	}
	writeJSON(w, http.StatusOK, v)
}
