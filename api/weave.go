package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/checkout"
)

// weaveMemory serves POST /v1/spaces/{space}/weave, the weave_memory memory action: a memory
// weave for one reasoning step (checkout.Service.WeaveMemory). A read that takes a body, as
// checkout is; like checkout it records what it surfaced.
func (s *server) weaveMemory(r *http.Request) (any, error) {
	var body checkout.StepRequest
	if err := readJSON(r, &body); err != nil {
		return nil, err
	}
	body.SpaceID, body.Actor = chi.URLParam(r, "space"), s.recordActor(r)
	return s.checkoutFor(r).WeaveMemory(r.Context(), &body)
}

// prospective serves POST /v1/spaces/{space}/prospective: the prospective pass before a step,
// the weave plus procedure and failure priors, causal context and missing-evidence warnings
// (checkout.Service.Prospective). A read that takes a body, as checkout is.
func (s *server) prospective(r *http.Request) (any, error) {
	var body checkout.StepRequest
	if err := readJSON(r, &body); err != nil {
		return nil, err
	}
	body.SpaceID, body.Actor = chi.URLParam(r, "space"), s.recordActor(r)
	return s.checkoutFor(r).Prospective(r.Context(), &body)
}
