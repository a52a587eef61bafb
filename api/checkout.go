package api

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

// checkoutBody is a checkout or query request; as_of is parsed here so a bad one is named.
type checkoutBody struct {
	checkout.Request
	AsOf string `json:"as_of"`
}

func (s *server) readCheckout(w http.ResponseWriter, r *http.Request) (*checkout.Request, error) {
	var body checkoutBody
	if err := readJSON(w, r, s.cfg.MaxBodyBytes, &body); err != nil {
		return nil, err
	}
	req := body.Request
	req.SpaceID = chi.URLParam(r, "space")
	if body.AsOf != "" {
		t, err := time.Parse(time.RFC3339Nano, body.AsOf)
		if err != nil {
			return nil, &eventloom.ValidationError{Field: "as_of", Message: "must be an RFC 3339 timestamp such as 2024-05-01T12:00:00Z"}
		}
		req.AsOf = &t
	}
	return &req, nil
}

// checkoutPacket serves POST /v1/spaces/{space}/checkout: a cited, token-budgeted packet.
func (s *server) checkoutPacket(w http.ResponseWriter, r *http.Request) {
	req, err := s.readCheckout(w, r)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	p, err := s.checkout.Checkout(r.Context(), req)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// query serves POST /v1/spaces/{space}/query: the raw ranked items with score components.
func (s *server) query(w http.ResponseWriter, r *http.Request) {
	req, err := s.readCheckout(w, r)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	res, err := s.checkout.Query(r.Context(), req)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}
