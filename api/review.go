package api

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/review"
	"github.com/zaxy/zaxy/validation"
)

// ProposalsQuery is the query string of GET /proposals.
type ProposalsQuery struct {
	// Status keeps pending, accepted, rejected, deferred or open (pending and deferred).
	Status string `json:"status,omitempty"`
	// AfterSeq is the cursor: only proposals after it (a page's next_after_seq).
	AfterSeq int64 `json:"after_seq,omitempty"`
	// Limit is the page size, 1–1000 (default 100).
	Limit *int64 `json:"limit,omitempty"`
}

// DecisionBody is the body of POST /proposals/{seq}/accept, /reject and /defer.
type DecisionBody struct {
	// Actor is who decides (the decision event's actor); defaults to "reviewer".
	Actor string `json:"actor,omitempty"`
	// SessionID, optional, is the reviewer's session.
	SessionID string `json:"session_id,omitempty"`
	// Reason says why, optional.
	Reason string `json:"reason,omitempty"`
}

// listProposals serves GET /v1/spaces/{space}/proposals (ProposalsQuery).
func (s *server) listProposals(r *http.Request) (any, error) {
	var q ProposalsQuery
	if err := decodeQuery(r.URL.Query(), &q); err != nil {
		return nil, err
	}
	p := review.ListParams{SpaceID: chi.URLParam(r, "space"), Status: q.Status, AfterSeq: q.AfterSeq}
	if q.Limit != nil {
		if *q.Limit < 1 || *q.Limit > 1000 {
			return nil, &validation.Error{Field: "limit", Message: "must be an integer between 1 and 1000"}
		}
		p.Limit = int(*q.Limit)
	}
	return review.List(r.Context(), budgeted(r.Context(), readPool(r, s.pool), "limit"), p)
}

// proposalSeq reads the {seq} path parameter.
func proposalSeq(r *http.Request) (int64, error) {
	raw, err := pathParam(r, "seq", "seq")
	if err != nil {
		return 0, err
	}
	seq, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || seq < 1 {
		return 0, &validation.Error{Field: "seq", Message: "must be the positive seq of a proposal.created event"}
	}
	return seq, nil
}

// getProposal serves GET /v1/spaces/{space}/proposals/{seq}.
func (s *server) getProposal(r *http.Request) (any, error) {
	seq, err := proposalSeq(r)
	if err != nil {
		return nil, err
	}
	return review.Get(r.Context(), readPool(r, s.pool), chi.URLParam(r, "space"), seq)
}

// decide returns the handler of POST /proposals/{seq}/<decision>: it appends the decision
// (and, accepting a belief_update, the fact it proposes) and answers 201 with the receipts.
func decide(decision string) handlerFunc {
	return func(s *server, r *http.Request) (any, error) {
		seq, err := proposalSeq(r)
		if err != nil {
			return nil, err
		}
		var b DecisionBody
		if err := readJSON(r, &b); err != nil {
			return nil, err
		}
		if b.Actor == "" {
			b.Actor = "reviewer"
		}
		d, err := s.review.Decide(r.Context(), review.DecideParams{
			SpaceID: chi.URLParam(r, "space"), ProposalSeq: seq, Decision: decision,
			Actor: b.Actor, SessionID: b.SessionID, Reason: b.Reason,
		})
		if err != nil {
			return nil, err
		}
		return withStatus(http.StatusCreated, d), nil
	}
}
