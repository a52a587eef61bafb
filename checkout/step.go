package checkout

import (
	"context"
	"errors"

	"github.com/zaxy/zaxy/validation"
)

// Budgets of a weave request and of a prospective pass.
const (
	// DefaultWeaveTokens is a weave request's budget when it names none.
	DefaultWeaveTokens = 1000
	// DefaultProspectiveTokens is a prospective pass's budget when it names none; the weave
	// gets half of it, the priors the rest.
	DefaultProspectiveTokens = 1500
)

// stepRequest is the checkout request whose ranking the step's weave starts from.
func stepRequest(r *StepRequest, defaultTokens int) (*Request, error) {
	if r.MaxTokens == 0 {
		r.MaxTokens = defaultTokens
	}
	req := &Request{SpaceID: r.SpaceID, Query: r.Goal, Purpose: r.Purpose, MaxTokens: r.MaxTokens, SessionID: r.SessionID,
		Cues: r.Cues, ReasoningPhase: r.ReasoningPhase, Weave: true, NoRecord: r.NoRecord, Actor: r.Actor}
	if err := validateRequest(req); err != nil {
		var ve *validation.Error
		if errors.As(err, &ve) && ve.Field == "query" {
			ve.Field = "goal"
		}
		return nil, err
	}
	return req, nil
}

// WeaveMemory is the weave_memory memory action: the weave for one reasoning step, built from
// precomputed artifacts around what the lanes rank for the goal, recorded (unless NoRecord) as
// a checkout.surfaced event carrying the weave (no items: the weave reinforces nothing).
func (s *Service) WeaveMemory(ctx context.Context, r *StepRequest) (*Weave, error) {
	req, err := stepRequest(r, DefaultWeaveTokens)
	if err != nil {
		return nil, err
	}
	w, rk, err := s.stepWeave(ctx, req, req.MaxTokens)
	if err != nil {
		return nil, err
	}
	if !req.NoRecord && !rk.noSpace {
		if w.SurfacedSeq, err = s.recordSurfaced(ctx, req, &Packet{Purpose: w.Purpose, Tiers: []Tier{}, Budget: Budget{Used: w.Budget.Used}, Weave: w}, nil); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// stepWeave ranks for req and weaves within budget.
func (s *Service) stepWeave(ctx context.Context, req *Request, budget int) (*Weave, *ranking, error) {
	rk, err := s.rank(ctx, req, 100, false)
	if err != nil {
		return nil, nil, err
	}
	w, err := s.buildWeave(ctx, weaveParams{space: req.SpaceID, goal: req.Query, phase: weavePhase(req.ReasoningPhase, rk.usedPurpose()),
		purpose: rk.usedPurpose(), budget: budget, asOf: req.AsOf}, rk)
	return w, rk, err
}
