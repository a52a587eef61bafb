package reviewwire

import (
	"encoding/json"
	"time"

	"github.com/zaxy/zaxy/eventloom/eventloomwire"
	"github.com/zaxy/zaxy/graph/graphwire"
	"github.com/zaxy/zaxy/vocab"
)

// Proposal is one proposal as the projection holds it.
type Proposal struct {
	// Seq and Hash are the proposal.created event's: the proposal's id and citation.
	Seq        int64              `json:"seq"`
	Hash       eventloomwire.Hash `json:"hash"`
	Kind       string             `json:"kind"`
	Status     string             `json:"status"`
	ProposedBy string             `json:"proposed_by"`
	ProposedAt time.Time          `json:"proposed_at"`
	Confidence *float32           `json:"confidence,omitempty"`
	// Evidence cites the events the proposal rests on.
	Evidence []graphwire.Evidence `json:"evidence"`
	// Fact is a belief_update's proposed fact (fact.asserted data).
	Fact json.RawMessage `json:"fact,omitempty"`
	// Contradicts is the id of the fact the proposal contests (interference detection).
	Contradicts *string `json:"contradicts,omitempty"`
	// Inference names the inferred statement the proposal comes from.
	Inference *vocab.InferenceRef `json:"inference,omitempty"`
	Rationale string              `json:"rationale,omitempty"`
	// DecidedSeq, DecidedBy, DecidedAt and Reason describe the last decision.
	DecidedSeq *int64     `json:"decided_seq,omitempty"`
	DecidedBy  *string    `json:"decided_by,omitempty"`
	DecidedAt  *time.Time `json:"decided_at,omitempty"`
	Reason     *string    `json:"reason,omitempty"`
	// FactID is the fact version accepting a belief_update asserted.
	FactID *string `json:"fact_id,omitempty"`
}

// Page is one page of proposals, in seq order.
type Page struct {
	Proposals []Proposal `json:"proposals"`
	// NextAfterSeq, when set, is the cursor of the next page.
	NextAfterSeq *int64 `json:"next_after_seq,omitempty"`
}
