package client

import (
	"context"
	"net/http"
	"strconv"

	"github.com/zaxy/zaxy/checkout/checkoutwire"
	"github.com/zaxy/zaxy/checkout/lifecycle/lifecyclewire"
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
	"github.com/zaxy/zaxy/metamemory/metamemorywire"
)

// Checkout asks for a cited, token-budgeted packet of space's memory for r.Query (operation
// checkout, scope read). r.SpaceID is ignored: space names the space. A checkout records what
// it surfaced (a checkout.surfaced event), so it is retried only with r.NoRecord.
func (c *Client) Checkout(ctx context.Context, space string, r *checkoutwire.Request, opts ...CallOption) (*checkoutwire.Packet, error) {
	var res checkoutwire.Packet
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "checkout"), body: r, safe: r.NoRecord}, &res, opts)
	return result(&res, err)
}

// Query returns the raw ranked items of a checkout with their score components, without
// packing or recording (operation query, scope read).
func (c *Client) Query(ctx context.Context, space string, r *checkoutwire.Request, opts ...CallOption) (*checkoutwire.QueryResult, error) {
	var res checkoutwire.QueryResult
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "query"), body: r, safe: true}, &res, opts)
	return result(&res, err)
}

// RecordedCheckout returns the checkout recorded by the checkout.surfaced event seq (a packet's
// SurfacedSeq) with its packet's text re-rendered from the log and whether it matches the text
// handed out (operation getRecordedCheckout, scope read).
func (c *Client) RecordedCheckout(ctx context.Context, space string, seq int64, opts ...CallOption) (*checkoutwire.RecordedPacket, error) {
	var res checkoutwire.RecordedPacket
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "checkouts", strconv.FormatInt(seq, 10)), safe: true}, &res, opts)
	return result(&res, err)
}

// ItemSalience returns memory item id's salience history: each reinforcing event with the
// salience it left, and its salience now (operation getItemSalience, scope read).
func (c *Client) ItemSalience(ctx context.Context, space, id string, opts ...CallOption) (*metamemorywire.SalienceHistory, error) {
	var res metamemorywire.SalienceHistory
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "items", id, "salience"), safe: true}, &res, opts)
	return result(&res, err)
}

// AssembleContext assembles the next context: recent session replay, ranked memory and the
// caller's working set within the budget (operation assembleContext, scope read). Like
// Checkout it records what it surfaced, and is retried only with r.NoRecord.
func (c *Client) AssembleContext(ctx context.Context, space string, r *lifecyclewire.AssembleRequest, opts ...CallOption) (*lifecyclewire.Assembled, error) {
	var res lifecyclewire.Assembled
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "context", "assemble"), body: r, safe: r.NoRecord}, &res, opts)
	return result(&res, err)
}

// AfterTurnRequest is the body of AfterTurn: the finished turn's events and the request for
// the next context.
type AfterTurnRequest struct {
	lifecyclewire.AssembleRequest
	// Events are the turn's events, appended all or nothing.
	Events []eventloomwire.NewEvent `json:"events"`
}

// AfterTurn appends a finished turn's events and returns the next context (operation
// afterTurn, scope write). With WithIdempotencyKey a repeat appends nothing twice, and the
// call is retried.
func (c *Client) AfterTurn(ctx context.Context, space string, r *AfterTurnRequest, opts ...CallOption) (*lifecyclewire.AfterTurnResult, error) {
	var res lifecyclewire.AfterTurnResult
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "context", "after-turn"), body: r}, &res, opts)
	return result(&res, err)
}

// Handoff returns a bundle another agent can resume r.SessionID from (operation handoff,
// scope read); it records nothing.
func (c *Client) Handoff(ctx context.Context, space string, r *lifecyclewire.HandoffRequest, opts ...CallOption) (*lifecyclewire.Handoff, error) {
	var res lifecyclewire.Handoff
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "handoff"), body: r, safe: true}, &res, opts)
	return result(&res, err)
}

// CleanupSubagent records that subagent id finished (r.Outcome: success, failure or
// cancelled) and returns its handoff (operation cleanupSubagent, scope write). r.SubagentID
// is ignored: id names the subagent.
func (c *Client) CleanupSubagent(ctx context.Context, space, id string, r *lifecyclewire.CleanupRequest, opts ...CallOption) (*lifecyclewire.Cleanup, error) {
	var res lifecyclewire.Cleanup
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "subagents", id, "cleanup"), body: r}, &res, opts)
	return result(&res, err)
}

// ResumeSession appends session.resumed for session and returns the recovery packet
// (operation resumeSession, scope write).
func (c *Client) ResumeSession(ctx context.Context, space, session string, opts ...CallOption) (*lifecyclewire.Recovery, error) {
	var res lifecyclewire.Recovery
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "sessions", session, "resume")}, &res, opts)
	return result(&res, err)
}

// FeelingOfKnowing says whether space's memory is likely to hold something on r.Query (likely,
// possible or unlikely, with the probability and the signals), before anything is retrieved
// (operation feelingOfKnowing, scope read). It records nothing and is retried.
func (c *Client) FeelingOfKnowing(ctx context.Context, space string, r *metamemorywire.Request, opts ...CallOption) (*metamemorywire.Feeling, error) {
	var res metamemorywire.Feeling
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "feeling-of-knowing"), body: r, safe: true}, &res, opts)
	return result(&res, err)
}

// WeaveMemory is the weave_memory memory action: a memory weave for one reasoning step of
// space (operation weaveMemory, scope read): latent artifacts around what the lanes rank for
// r.Goal, each verified against the log, inferred context labelled suggestive. r.SpaceID is
// ignored. It records a checkout.surfaced event carrying the weave, so it is retried only with
// r.NoRecord.
func (c *Client) WeaveMemory(ctx context.Context, space string, r *checkoutwire.StepRequest, opts ...CallOption) (*checkoutwire.Weave, error) {
	var res checkoutwire.Weave
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "weave"), body: r, safe: r.NoRecord}, &res, opts)
	return result(&res, err)
}

// Prospective runs the prospective pass before a step (operation prospective, scope read): the
// weave plus procedure priors, failure priors, causal context and missing-evidence warnings,
// with a token estimate. r.SpaceID is ignored. It records the weave as WeaveMemory does, so it
// is retried only with r.NoRecord.
func (c *Client) Prospective(ctx context.Context, space string, r *checkoutwire.StepRequest, opts ...CallOption) (*checkoutwire.Prospective, error) {
	var res checkoutwire.Prospective
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "prospective"), body: r, safe: r.NoRecord}, &res, opts)
	return result(&res, err)
}
