package client

import (
	"context"
	"net/http"
	"strconv"

	"github.com/zaxy/zaxy/review/reviewwire"
)

// ProposalsParams filters and pages ListProposals.
type ProposalsParams struct {
	// Status keeps proposals in that state (pending, accepted, rejected, deferred).
	Status string `json:"status,omitempty"`
	// AfterSeq is the cursor: only proposals after it.
	AfterSeq int64 `json:"after_seq,omitempty"`
	// Limit is the page size, 1–1000 (nil: the server's default).
	Limit *int64 `json:"limit,omitempty"`
}

// ListProposals lists space's review queue (operation listProposals, scope read).
func (c *Client) ListProposals(ctx context.Context, space string, p *ProposalsParams, opts ...CallOption) (*reviewwire.Page, error) {
	var res reviewwire.Page
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "proposals"), query: encodeQuery(p), safe: true}, &res, opts)
	return result(&res, err)
}

// GetProposal returns the proposal created by the event at seq (operation getProposal, scope
// read).
func (c *Client) GetProposal(ctx context.Context, space string, seq int64, opts ...CallOption) (*reviewwire.Proposal, error) {
	var res reviewwire.Proposal
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "proposals", strconv.FormatInt(seq, 10)), safe: true}, &res, opts)
	return result(&res, err)
}

// DecisionRequest is the body of AcceptProposal, RejectProposal and DeferProposal; every field
// is optional.
type DecisionRequest struct {
	// Actor is who decided (default "reviewer").
	Actor string `json:"actor,omitempty"`
	// SessionID is the reviewer's session.
	SessionID string `json:"session_id,omitempty"`
	// Reason is recorded with the decision.
	Reason string `json:"reason,omitempty"`
}

// AcceptProposal accepts the proposal at seq (operation acceptProposal, scope write):
// its material is appended as memory. Concurrent accepts append once.
func (c *Client) AcceptProposal(ctx context.Context, space string, seq int64, r *DecisionRequest, opts ...CallOption) (*reviewwire.Decision, error) {
	return c.decide(ctx, space, seq, "accept", r, opts)
}

// RejectProposal rejects the proposal at seq (operation rejectProposal, scope write).
func (c *Client) RejectProposal(ctx context.Context, space string, seq int64, r *DecisionRequest, opts ...CallOption) (*reviewwire.Decision, error) {
	return c.decide(ctx, space, seq, "reject", r, opts)
}

// DeferProposal defers the proposal at seq (operation deferProposal, scope write).
func (c *Client) DeferProposal(ctx context.Context, space string, seq int64, r *DecisionRequest, opts ...CallOption) (*reviewwire.Decision, error) {
	return c.decide(ctx, space, seq, "defer", r, opts)
}

// decide posts a decision on a proposal.
func (c *Client) decide(ctx context.Context, space string, seq int64, decision string, r *DecisionRequest, opts []CallOption) (*reviewwire.Decision, error) {
	if r == nil {
		r = &DecisionRequest{}
	}
	var res reviewwire.Decision
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "proposals", strconv.FormatInt(seq, 10), decision), body: r}, &res, opts)
	return result(&res, err)
}
