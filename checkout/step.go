package checkout

import (
	"context"
	"errors"

	"github.com/zaxy/zaxy/eventloom"
)

// Budgets of a weave request and of a prospective pass.
const (
	// DefaultWeaveTokens is a weave request's budget when it names none.
	DefaultWeaveTokens = 1000
	// DefaultProspectiveTokens is a prospective pass's budget when it names none; the weave
	// gets half of it, the priors the rest.
	DefaultProspectiveTokens = 1500
)

// StepRequest asks for a weave (the weave_memory action) or a prospective pass: the step an
// agent is about to take.
type StepRequest struct {
	// SpaceID is the space to read. Required.
	SpaceID string `json:"-"`
	// Goal is what the step is for, in words. Required; it is the query the lanes rank with.
	Goal string `json:"goal"`
	// ReasoningPhase is orient, plan, act or reflect. Default: the purpose's phase.
	ReasoningPhase string `json:"reasoning_phase,omitempty"`
	// Purpose is one of Purposes; empty means inferred from the goal.
	Purpose string `json:"purpose,omitempty"`
	// MaxTokens is the budget (weave: DefaultWeaveTokens; prospective: DefaultProspectiveTokens).
	MaxTokens int `json:"max_tokens,omitempty"`
	// SessionID is the agent's session; the surfacing is recorded in it.
	SessionID string `json:"session_id,omitempty"`
	// Cues describe what the agent is doing (cues.go).
	Cues Cues `json:"cues,omitempty"`
	// NoRecord skips appending the checkout.surfaced event that records the weave.
	NoRecord bool `json:"no_record,omitempty"`
	// Actor is the record's actor (Request.Actor); never read from a body.
	Actor string `json:"-"`
}

// request is the checkout request whose ranking the step's weave starts from.
func (r *StepRequest) request(defaultTokens int) (*Request, error) {
	if r.MaxTokens == 0 {
		r.MaxTokens = defaultTokens
	}
	req := &Request{SpaceID: r.SpaceID, Query: r.Goal, Purpose: r.Purpose, MaxTokens: r.MaxTokens, SessionID: r.SessionID,
		Cues: r.Cues, ReasoningPhase: r.ReasoningPhase, Weave: true, NoRecord: r.NoRecord, Actor: r.Actor}
	if err := req.validate(); err != nil {
		var ve *eventloom.ValidationError
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
	req, err := r.request(DefaultWeaveTokens)
	if err != nil {
		return nil, err
	}
	w, _, err := s.stepWeave(ctx, req, req.MaxTokens)
	if err != nil {
		return nil, err
	}
	if !req.NoRecord {
		if w.SurfacedSeq, err = s.recordSurfaced(ctx, req, &Packet{Purpose: w.Purpose, Tiers: []Tier{}, Budget: Budget{Used: w.Budget.Used}, Weave: w}); err != nil {
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
