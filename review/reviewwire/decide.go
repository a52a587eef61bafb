package reviewwire

import (
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// Decision is what a decision appended.
type Decision struct {
	ProposalSeq int64 `json:"proposal_seq"`
	// Status is the proposal's status now: accepted, rejected or deferred.
	Status string `json:"status"`
	// Events are the receipts of the appended events: the decision, and for an accepted
	// belief_update the fact.asserted after it.
	Events []eventloomwire.Receipt `json:"events"`
}
