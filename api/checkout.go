package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/checkout/lifecycle"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/validation"
)

func (b *CheckoutBody) base() *CheckoutBody { return b }

// request is the checkout request the body describes, for the space in the path.
func (b *CheckoutBody) request(r *http.Request) (*checkout.Request, error) {
	req := b.Request
	req.SpaceID = chi.URLParam(r, "space")
	var q RetrievalParams
	if err := decodeQuery(r.URL.Query(), &q); err != nil {
		return nil, err
	}
	if q.RetrievalProfile != "" {
		req.RetrievalProfile = q.RetrievalProfile
	}
	if q.IncludeAttenuated != nil {
		req.IncludeAttenuated = *q.IncludeAttenuated
	}
	if b.AsOf != "" {
		t, err := time.Parse(time.RFC3339Nano, b.AsOf)
		if err != nil {
			return nil, &validation.Error{Field: "as_of", Message: "must be an RFC 3339 timestamp such as 2024-05-01T12:00:00Z"}
		}
		req.AsOf = &t
	}
	return &req, nil
}

// checkoutBodies are the request bodies built on CheckoutBody.
type checkoutBodies interface {
	AssembleBody | AfterTurnBody | HandoffBody | CleanupBody | CheckoutBody
}

// recordActor is who the record of a read (checkout.surfaced, memory_action.surfaced) names
// as its actor: the bearer token, "token/<id>", which the route's authorization has verified
// (a token's id names it without its secret, as zaxy token list shows it). With auth off there
// is no identity: "", and the record keeps its default.
func (s *server) recordActor(r *http.Request) string {
	if s.auth == nil {
		return ""
	}
	id, _ := auth.TokenID(bearerToken(r.Header.Get("Authorization")))
	return "token/" + id
}

// serveCheckout decodes a body B, builds the checkout request for the space in the path (its
// record's actor the token, recordActor) and returns do's result with status.
func serveCheckout[B checkoutBodies, R any](s *server, r *http.Request, status int,
	base func(*B) *CheckoutBody, do func(ctx context.Context, b *B, req *checkout.Request) (R, error)) (any, error) {
	var body B
	if err := readJSON(r, &body); err != nil {
		return nil, err
	}
	req, err := base(&body).request(r)
	if err != nil {
		return nil, err
	}
	req.Actor = s.recordActor(r)
	res, err := do(r.Context(), &body, req)
	if err != nil {
		return nil, err
	}
	return withStatus(status, res), nil
}

// checkoutPacket serves POST /v1/spaces/{space}/checkout: a cited, token-budgeted packet.
func (s *server) checkoutPacket(r *http.Request) (any, error) {
	return serveCheckout(s, r, http.StatusOK, (*CheckoutBody).base,
		func(ctx context.Context, _ *CheckoutBody, req *checkout.Request) (*checkout.Packet, error) {
			p, err := s.checkoutFor(r).Checkout(ctx, req)
			if err == nil {
				s.metrics.observeCheckout(p)
			}
			return p, err
		})
}

// query serves POST /v1/spaces/{space}/query: the raw ranked items with score components.
func (s *server) query(r *http.Request) (any, error) {
	return serveCheckout(s, r, http.StatusOK, (*CheckoutBody).base,
		func(ctx context.Context, _ *CheckoutBody, req *checkout.Request) (*checkout.QueryResult, error) {
			return s.checkoutFor(r).Query(ctx, req)
		})
}

// assemble serves POST /v1/spaces/{space}/context/assemble.
func (s *server) assemble(r *http.Request) (any, error) {
	return serveCheckout(s, r, http.StatusOK, func(b *AssembleBody) *CheckoutBody { return &b.CheckoutBody },
		func(ctx context.Context, b *AssembleBody, req *checkout.Request) (*lifecycle.Assembled, error) {
			return s.lifecycleFor(r).Assemble(ctx, &lifecycle.AssembleRequest{Request: *req, WorkingSet: b.WorkingSet})
		})
}

// afterTurn serves POST /v1/spaces/{space}/context/after-turn: append the finished turn, get
// the next context. The Idempotency-Key header makes a retry append nothing twice.
func (s *server) afterTurn(r *http.Request) (any, error) {
	return serveCheckout(s, r, http.StatusCreated, func(b *AfterTurnBody) *CheckoutBody { return &b.CheckoutBody },
		func(ctx context.Context, b *AfterTurnBody, req *checkout.Request) (*lifecycle.AfterTurnResult, error) {
			if len(b.Events) > s.cfg.MaxBatch {
				return nil, &validation.Error{Field: "events", Message: fmt.Sprintf("may hold at most %d events", s.cfg.MaxBatch)}
			}
			events := make([]eventloom.NewEvent, len(b.Events))
			for i, raw := range b.Events {
				path := fmt.Sprintf("events[%d].", i)
				var err error
				if events[i], err = eventloom.DecodeEvent(raw, path); err == nil {
					err = eventloom.ValidateEvent(&events[i], path)
				}
				if err != nil {
					return nil, err
				}
			}
			return s.lifecycle.AfterTurn(ctx, &lifecycle.AfterTurnRequest{
				AssembleRequest: lifecycle.AssembleRequest{Request: *req, WorkingSet: b.WorkingSet},
				Events:          events, IdempotencyKey: r.Header.Get("Idempotency-Key"),
			})
		})
}

// handoff serves POST /v1/spaces/{space}/handoff: a bundle another agent can resume from.
func (s *server) handoff(r *http.Request) (any, error) {
	return serveCheckout(s, r, http.StatusOK, func(b *HandoffBody) *CheckoutBody { return &b.CheckoutBody },
		func(ctx context.Context, b *HandoffBody, req *checkout.Request) (*lifecycle.Handoff, error) {
			return s.lifecycleFor(r).HandoffBundle(ctx, &lifecycle.HandoffRequest{Request: *req, TailEvents: b.TailEvents})
		})
}

// cleanupSubagent serves POST /v1/spaces/{space}/subagents/{id}/cleanup.
func (s *server) cleanupSubagent(r *http.Request) (any, error) {
	return serveCheckout(s, r, http.StatusCreated, func(b *CleanupBody) *CheckoutBody { return &b.CheckoutBody },
		func(ctx context.Context, b *CleanupBody, req *checkout.Request) (*lifecycle.Cleanup, error) {
			id, err := pathParam(r, "id", "subagent_id")
			if err != nil {
				return nil, err
			}
			return s.lifecycle.CleanupSubagent(ctx, &lifecycle.CleanupRequest{
				Request: *req, SubagentID: id, Outcome: b.Outcome, Summary: b.Summary,
			})
		})
}

// resume serves POST /v1/spaces/{space}/sessions/{session}/resume: append session.resumed
// and return the recovery packet.
func (s *server) resume(r *http.Request) (any, error) {
	session, err := pathParam(r, "session", "session_id")
	if err != nil {
		return nil, err
	}
	rec, err := s.lifecycle.Resume(r.Context(), chi.URLParam(r, "space"), session)
	if err != nil {
		return nil, err
	}
	return withStatus(http.StatusCreated, rec), nil
}
