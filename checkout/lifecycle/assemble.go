package lifecycle

import (
	"context"
	"fmt"
	"strings"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/validation"
)

const workingSetHeader = "## Working set"

// maxWorkingSetItems caps the working set's entries.
const maxWorkingSetItems = 50

// Assemble builds the context for an agent's next step within r.MaxTokens.
func (s *Service) Assemble(ctx context.Context, r *AssembleRequest) (*Assembled, error) {
	if r.MaxTokens == 0 {
		r.MaxTokens = checkout.DefaultMaxTokens
	}
	if len(r.WorkingSet) > maxWorkingSetItems {
		return nil, &validation.Error{Field: "working_set", Message: fmt.Sprintf("may hold at most %d entries", maxWorkingSetItems)}
	}
	ws := ""
	if len(r.WorkingSet) > 0 {
		ws = workingSetHeader + "\n- " + strings.Join(r.WorkingSet, "\n- ") + "\n"
	}
	wsTokens := checkout.EstimateTokens(ws)
	if wsTokens > r.MaxTokens/2 {
		return nil, &validation.Error{Field: "working_set", Message: fmt.Sprintf("takes %d tokens, more than half of max_tokens (%d)", wsTokens, r.MaxTokens)}
	}
	req := r.Request
	req.MaxTokens = r.MaxTokens - wsTokens
	if req.MaxTokens < checkout.MinMaxTokens {
		return nil, &validation.Error{Field: "max_tokens", Message: fmt.Sprintf("leaves %d tokens for memory after the working set; at least %d are needed", req.MaxTokens, checkout.MinMaxTokens)}
	}
	a := &Assembled{WorkingSet: r.WorkingSet}
	if a.WorkingSet == nil {
		a.WorkingSet = []string{}
	}
	// The session's reads come before the checkout, whose record of what it surfaced is then
	// the last step: an assembly that fails before answering has recorded nothing, so running
	// it again (the API does, on the primary, when a standby fails it) records once. The
	// record is bookkeeping, which the session's tail skips, so the order changes no answer.
	if r.SessionID != "" {
		resumed, err := s.lastEventIs(ctx, r.SpaceID, r.SessionID, SessionResumedType)
		if err != nil {
			return nil, err
		}
		if resumed {
			if a.Recovery, err = s.Recover(ctx, r.SpaceID, r.SessionID); err != nil {
				return nil, err
			}
		}
	}
	p, err := s.checkout.Checkout(ctx, &req)
	if err != nil {
		return nil, err
	}
	a.Packet, a.Text = p, p.Text+ws
	a.Tokens = checkout.EstimateTokens(a.Text)
	return a, nil
}

// lastEventIs reports whether the session's latest non-bookkeeping event has type typ.
func (s *Service) lastEventIs(ctx context.Context, space, session, typ string) (bool, error) {
	tail, err := querySessionTail(ctx, s.pool, sessionTailArgs{SpaceID: space, SessionID: session, Limit: 1})
	if err != nil {
		return false, fmt.Errorf("read session: %w", err)
	}
	return len(tail) == 1 && tail[0].Type == typ, nil
}

// AfterTurnRequest records a finished turn and asks for the next one's context.
type AfterTurnRequest struct {
	AssembleRequest
	// Events are the finished turn (messages, tool calls, ...), appended all or nothing in
	// the request's session.
	Events []eventloom.NewEvent `json:"events"`
	// IdempotencyKey makes a retried after-turn append nothing twice.
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

// AfterTurn appends the finished turn, then assembles the context for the next one. With no
// query it uses the turn's last message as the query.
func (s *Service) AfterTurn(ctx context.Context, r *AfterTurnRequest) (*AfterTurnResult, error) {
	if len(r.Events) == 0 {
		return nil, &validation.Error{Field: "events", Message: "must hold the finished turn's events"}
	}
	if r.SessionID == "" {
		return nil, &validation.Error{Field: "session_id", Message: "is required"}
	}
	for i := range r.Events {
		if r.Events[i].SessionID == "" {
			r.Events[i].SessionID = r.SessionID
		}
	}
	if strings.TrimSpace(r.Query) == "" {
		for i := len(r.Events) - 1; i >= 0; i-- {
			if c := strings.TrimSpace(r.Events[i].Content); c != "" {
				r.Query = c
				break
			}
		}
	}
	if strings.TrimSpace(r.Query) == "" {
		r.Query = "continue the session"
	}
	// Validate the context request before appending, so a bad request appends nothing.
	probe := r.Request
	if err := checkout.ValidateRequest(&probe); err != nil {
		return nil, err
	}
	res, err := s.store.Append(ctx, &eventloom.AppendParams{SpaceID: r.SpaceID, Events: r.Events, IdempotencyKey: r.IdempotencyKey})
	if err != nil {
		return nil, err
	}
	a, err := s.Assemble(ctx, &r.AssembleRequest)
	if err != nil {
		return nil, err
	}
	return &AfterTurnResult{Receipts: res.Receipts, Redactions: res.Redactions, Context: a}, nil
}
