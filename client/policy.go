package client

import (
	"context"
	"net/http"

	"github.com/zaxy/zaxy/policy/policywire"
)

// PolicyRequest is the body of FitPolicy, PromotePolicy and RollbackPolicy; every field is
// optional.
type PolicyRequest struct {
	// Actor is who acts (default "admin"), the policy event's actor.
	Actor string `json:"actor,omitempty"`
	// Reason is recorded with a rollback.
	Reason string `json:"reason,omitempty"`
}

// Policies lists space's retrieval policies: the built-in ones and every fitted version, which is
// current and what a rollback restores (operation listPolicies, scope read).
func (c *Client) Policies(ctx context.Context, space string, opts ...CallOption) (*policywire.Listing, error) {
	var res policywire.Listing
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "policies"), safe: true}, &res, opts)
	return result(&res, err)
}

// FitPolicy fits lane weights to space's judged checkouts and proposes them (operation
// fitPolicy, scope admin). An *Error with code nothing_to_learn says there was nothing to fit.
func (c *Client) FitPolicy(ctx context.Context, space string, r *PolicyRequest, opts ...CallOption) (*policywire.FitResult, error) {
	var res policywire.FitResult
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "policies", "fit"), body: orEmpty(r)}, &res, opts)
	return result(&res, err)
}

// PromotePolicy makes version space's current retrieval policy if it passes the regression
// gate (operation promotePolicy, scope admin). A refusal is an *Error with code
// policy_gate_failed and the gate's numbers in its details.
func (c *Client) PromotePolicy(ctx context.Context, space, version string, r *PolicyRequest, opts ...CallOption) (*policywire.Promotion, error) {
	var res policywire.Promotion
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "policies", version, "promote"), body: orEmpty(r)}, &res, opts)
	return result(&res, err)
}

// RollbackPolicy restores the policy the last promotion replaced (operation rollbackPolicy,
// scope admin).
func (c *Client) RollbackPolicy(ctx context.Context, space string, r *PolicyRequest, opts ...CallOption) (*policywire.Rollback, error) {
	var res policywire.Rollback
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "policies", "rollback"), body: orEmpty(r)}, &res, opts)
	return result(&res, err)
}

// orEmpty is r, or an empty request.
func orEmpty(r *PolicyRequest) *PolicyRequest {
	if r == nil {
		return &PolicyRequest{}
	}
	return r
}
