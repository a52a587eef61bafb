package lifecyclewire

import (
	"github.com/zaxy/zaxy/checkout/checkoutwire"
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// CleanupRequest records that a subagent finished.
type CleanupRequest struct {
	checkoutwire.Request
	// SubagentID names the subagent; required.
	SubagentID string `json:"-"`
	// Outcome is how it ended: success, failure or cancelled.
	Outcome string `json:"outcome"`
	// Summary is the subagent's own account, kept in the cleanup event.
	Summary string `json:"summary,omitempty"`
}

// Cleanup is the cleanup event's receipt and a handoff bundle of the subagent's session.
type Cleanup struct {
	Receipt eventloomwire.Receipt `json:"receipt"`
	Handoff *Handoff              `json:"handoff"`
}
