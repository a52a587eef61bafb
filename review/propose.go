package review

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/vocab"
)

// ProposeParams is a proposal put up for review by a caller (a memory action, an agent).
type ProposeParams struct {
	SpaceID string
	// Proposal is the proposal.created data: kind, evidence, and for a belief_update the fact.
	Proposal vocab.ProposalCreated
	// Actor proposes; SessionID, optional, is their session.
	Actor, SessionID string
	// IdempotencyKey, optional, makes a retry return the first append's receipt.
	IdempotencyKey string
}

// Propose appends one proposal.created event through store; the projector then lists it as
// pending. The data is validated as any append's (kind, evidence, the fact of a
// belief_update); that the evidence exists is the caller's to check.
func Propose(ctx context.Context, store *eventloom.Store, p ProposeParams) (*eventloom.AppendResult, error) {
	data, err := json.Marshal(p.Proposal)
	if err != nil {
		return nil, fmt.Errorf("propose: %w", err)
	}
	return store.Append(ctx, &eventloom.AppendParams{SpaceID: p.SpaceID, IdempotencyKey: p.IdempotencyKey,
		Events: []eventloom.NewEvent{{Type: vocab.TypeProposalCreated, SessionID: p.SessionID, Actor: p.Actor, Data: data}}})
}
