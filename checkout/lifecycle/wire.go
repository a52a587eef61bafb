package lifecycle

import "github.com/zaxy/zaxy/checkout/lifecycle/lifecyclewire"

// The types that cross HTTP live in the leaf package lifecyclewire (no database code), so a
// client can use them without linking pgx; these aliases keep their names here.
type (
	// AfterTurnResult is the receipts of the appended turn and the next context
	// (lifecyclewire.AfterTurnResult).
	AfterTurnResult = lifecyclewire.AfterTurnResult
	// AssembleRequest asks for the context of an agent's next step (lifecyclewire.AssembleRequest).
	AssembleRequest = lifecyclewire.AssembleRequest
	// Assembled is assembled context (lifecyclewire.Assembled).
	Assembled = lifecyclewire.Assembled
	// ChainStatus is the space's hash chain as verified for a handoff (lifecyclewire.ChainStatus).
	ChainStatus = lifecyclewire.ChainStatus
	// Cleanup is the cleanup event's receipt and a handoff bundle of the subagent's session
	// (lifecyclewire.Cleanup).
	Cleanup = lifecyclewire.Cleanup
	// CleanupRequest records that a subagent finished (lifecyclewire.CleanupRequest).
	CleanupRequest = lifecyclewire.CleanupRequest
	// Handoff is a portable bundle (lifecyclewire.Handoff).
	Handoff = lifecyclewire.Handoff
	// HandoffRequest asks for a bundle another agent can resume a session from
	// (lifecyclewire.HandoffRequest).
	HandoffRequest = lifecyclewire.HandoffRequest
	// Recovery is what an agent needs after its context was compacted, read from the log alone
	// (lifecyclewire.Recovery).
	Recovery = lifecyclewire.Recovery
	// RecoveryItem is one entry of a recovery packet, cited from the log
	// (lifecyclewire.RecoveryItem).
	RecoveryItem = lifecyclewire.RecoveryItem
	// SessionSummary is a deterministic summary of a session (lifecyclewire.SessionSummary).
	SessionSummary = lifecyclewire.SessionSummary
	// TailEvent is an event of a replay tail, with its citation (lifecyclewire.TailEvent).
	TailEvent = lifecyclewire.TailEvent
)
