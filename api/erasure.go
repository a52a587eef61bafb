package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/eventloom"
)

// ErasureBody is the body of POST /erasures (admin scope): the event to erase and why. The
// reason is recorded in the log, so it must not repeat what is erased.
type ErasureBody struct {
	// Seq is the event whose content and data are replaced by the tombstone.
	Seq int64 `json:"seq"`
	// Reason says why (1 to 1000 characters), e.g. a ticket number.
	Reason string `json:"reason"`
	// Actor is who asked, recorded as the erasure event's actor; optional.
	Actor string `json:"actor,omitempty"`
}

// erase is POST /v1/spaces/{space}/erasures: erases one event (see package erasure) and
// answers 201 with the erasure record.
func (s *server) erase(r *http.Request) (any, error) {
	var body ErasureBody
	if err := readJSON(r, &body); err != nil {
		return nil, err
	}
	res, err := s.erasure.Erase(r.Context(), &eventloom.EraseParams{
		SpaceID: chi.URLParam(r, "space"), Seq: body.Seq, Reason: body.Reason, Actor: body.Actor,
	})
	if err != nil {
		return nil, err
	}
	return withStatus(http.StatusCreated, res), nil
}
