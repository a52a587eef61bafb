package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/metamemory"
)

// FeelingBody is the body of POST /v1/spaces/{space}/feeling-of-knowing.
type FeelingBody struct {
	// Query is the question or task, at most 4000 characters. Required.
	Query string `json:"query"`
}

// feelingOfKnowing serves POST /v1/spaces/{space}/feeling-of-knowing: whether memory is likely
// to hold something on the query (likely, possible or unlikely), before anything is retrieved.
// A read that takes a body, as checkout is.
func (s *server) feelingOfKnowing(r *http.Request) (any, error) {
	var body FeelingBody
	if err := readJSON(r, &body); err != nil {
		return nil, err
	}
	return s.feelingFor(r).Feel(r.Context(), &metamemory.Request{SpaceID: chi.URLParam(r, "space"), Query: body.Query})
}
