package api

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/validation"
)

// recordedCheckout serves GET /v1/spaces/{space}/checkouts/{seq}: the checkout recorded by
// the checkout.surfaced event seq, its packet re-rendered from the log as of then and
// compared with the recorded hash (checkout.Recorded).
func (s *server) recordedCheckout(r *http.Request) (any, error) {
	raw, err := pathParam(r, "seq", "seq")
	if err != nil {
		return nil, err
	}
	seq, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || seq < 1 {
		return nil, &validation.Error{Field: "seq", Message: "must be the positive seq of a checkout.surfaced event"}
	}
	return checkout.Recorded(r.Context(), readPool(r, s.pool), chi.URLParam(r, "space"), seq)
}

// itemSalience serves GET /v1/spaces/{space}/items/{id}/salience: the item's salience as it
// happened, from its reinforcement ledger, and now (metamemory.ItemSalienceHistory).
func (s *server) itemSalience(r *http.Request) (any, error) {
	id, err := pathParam(r, "id", "id")
	if err != nil {
		return nil, err
	}
	return metamemory.ItemSalienceHistory(r.Context(), readPool(r, s.pool), chi.URLParam(r, "space"), id)
}
