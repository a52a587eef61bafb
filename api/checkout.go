package api

import (
	"encoding/json"
	"fmt"
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
	return body.request(r)
}

// request is the checkout request the body describes, for the space in the path.
func (b *checkoutBody) request(r *http.Request) (*checkout.Request, error) {
	req := b.Request
	req.SpaceID = chi.URLParam(r, "space")
	if b.AsOf != "" {
		t, err := time.Parse(time.RFC3339Nano, b.AsOf)
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

// assembleBody is POST /context/assemble's body.
type assembleBody struct {
	checkoutBody
	WorkingSet []string `json:"working_set"`
}

// assemble serves POST /v1/spaces/{space}/context/assemble.
func (s *server) assemble(w http.ResponseWriter, r *http.Request) {
	var body assembleBody
	if err := readJSON(w, r, s.cfg.MaxBodyBytes, &body); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	req, err := body.checkoutBody.request(r)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	a, err := s.checkout.Assemble(r.Context(), &checkout.AssembleRequest{Request: *req, WorkingSet: body.WorkingSet})
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	writeJSON(w, http.StatusOK, a)
}

// afterTurnBody is POST /context/after-turn's body.
type afterTurnBody struct {
	assembleBody
	Events []json.RawMessage `json:"events"`
}

// afterTurn serves POST /v1/spaces/{space}/context/after-turn: append the finished turn, get
// the next context. The Idempotency-Key header makes a retry append nothing twice.
func (s *server) afterTurn(w http.ResponseWriter, r *http.Request) {
	var body afterTurnBody
	if err := readJSON(w, r, s.cfg.MaxBodyBytes, &body); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	req, err := body.checkoutBody.request(r)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	if len(body.Events) > s.cfg.MaxBatch {
		writeError(w, r, s.logger, &eventloom.ValidationError{Field: "events", Message: fmt.Sprintf("may hold at most %d events", s.cfg.MaxBatch)})
		return
	}
	events := make([]eventloom.NewEvent, len(body.Events))
	for i, raw := range body.Events {
		path := fmt.Sprintf("events[%d].", i)
		if events[i], err = eventloom.DecodeEvent(raw, path); err == nil {
			err = events[i].Validate(path)
		}
		if err != nil {
			writeError(w, r, s.logger, err)
			return
		}
	}
	res, err := s.checkout.AfterTurn(r.Context(), &checkout.AfterTurnRequest{
		AssembleRequest: checkout.AssembleRequest{Request: *req, WorkingSet: body.WorkingSet},
		Events:          events, IdempotencyKey: r.Header.Get("Idempotency-Key"),
	})
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	writeJSON(w, http.StatusCreated, res)
}

// handoffBody is POST /handoff's body.
type handoffBody struct {
	checkoutBody
	TailEvents int `json:"tail_events"`
}

// handoff serves POST /v1/spaces/{space}/handoff: a bundle another agent can resume from.
func (s *server) handoff(w http.ResponseWriter, r *http.Request) {
	var body handoffBody
	if err := readJSON(w, r, s.cfg.MaxBodyBytes, &body); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	req, err := body.checkoutBody.request(r)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	h, err := s.checkout.HandoffBundle(r.Context(), &checkout.HandoffRequest{Request: *req, TailEvents: body.TailEvents})
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	writeJSON(w, http.StatusOK, h)
}

// cleanupBody is POST /subagents/{id}/cleanup's body.
type cleanupBody struct {
	checkoutBody
	Outcome string `json:"outcome"`
	Summary string `json:"summary"`
}

// cleanupSubagent serves POST /v1/spaces/{space}/subagents/{id}/cleanup.
func (s *server) cleanupSubagent(w http.ResponseWriter, r *http.Request) {
	var body cleanupBody
	if err := readJSON(w, r, s.cfg.MaxBodyBytes, &body); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	req, err := body.checkoutBody.request(r)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	c, err := s.checkout.CleanupSubagent(r.Context(), &checkout.CleanupRequest{
		Request: *req, SubagentID: chi.URLParam(r, "id"), Outcome: body.Outcome, Summary: body.Summary,
	})
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	writeJSON(w, http.StatusCreated, c)
}

// resume serves POST /v1/spaces/{space}/sessions/{session}/resume: append session.resumed
// and return the recovery packet.
func (s *server) resume(w http.ResponseWriter, r *http.Request) {
	space := chi.URLParam(r, "space")
	if err := eventloom.ValidateSpaceID(space); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	rec, err := s.checkout.Resume(r.Context(), space, chi.URLParam(r, "session"))
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	writeJSON(w, http.StatusCreated, rec)
}
