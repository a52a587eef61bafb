package lifecyclewire

import (
	"github.com/zaxy/zaxy/checkout/checkoutwire"
)

// RecoveryItem is one entry of a recovery packet, cited from the log.
type RecoveryItem struct {
	Text     string                `json:"text"`
	Citation checkoutwire.Citation `json:"citation"`
}

// Recovery is what an agent needs after its context was compacted, read from the log alone:
// open tasks, accepted findings, recent decisions and known unknowns.
type Recovery struct {
	OpenTasks     []RecoveryItem `json:"open_tasks"`
	Findings      []RecoveryItem `json:"accepted_findings"`
	Decisions     []RecoveryItem `json:"recent_decisions"`
	KnownUnknowns []RecoveryItem `json:"known_unknowns"`
	Text          string         `json:"text"`
	Tokens        int            `json:"tokens"`
	ResumedSeq    int64          `json:"resumed_seq,omitempty"`
	SessionID     string         `json:"session_id"`
}
