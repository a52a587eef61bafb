package lifecyclewire

import (
	"encoding/json"
	"time"

	"github.com/zaxy/zaxy/checkout/checkoutwire"
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// TailEvent is an event of a replay tail, with its citation.
type TailEvent struct {
	Seq        int64              `json:"seq"`
	Hash       eventloomwire.Hash `json:"hash"`
	Type       string             `json:"type"`
	Actor      string             `json:"actor,omitempty"`
	OccurredAt time.Time          `json:"occurred_at"`
	Content    string             `json:"content,omitempty"`
	Data       json.RawMessage    `json:"data"`
}

// ChainStatus is the space's hash chain as verified for a handoff.
type ChainStatus struct {
	OK        bool               `json:"ok"`
	HeadSeq   int64              `json:"head_seq"`
	HeadHash  eventloomwire.Hash `json:"head_hash"`
	BrokenSeq int64              `json:"broken_seq,omitempty"`
	Reason    string             `json:"reason,omitempty"`
}

// SessionSummary is a deterministic summary of a session: its events by type and span.
type SessionSummary struct {
	SessionID string         `json:"session_id"`
	Events    int64          `json:"events"`
	ByType    map[string]int `json:"by_type"`
	FirstSeq  int64          `json:"first_seq"`
	LastSeq   int64          `json:"last_seq"`
	Started   *time.Time     `json:"started,omitempty"`
	LastAt    *time.Time     `json:"last_at,omitempty"`
	Text      string         `json:"text"`
}

// HandoffRequest asks for a bundle another agent can resume a session from.
type HandoffRequest struct {
	checkoutwire.Request
	// TailEvents is how many of the session's last events the bundle replays (default 20, at
	// most 200).
	TailEvents int `json:"tail_events,omitempty"`
}

// Handoff is a portable bundle: summary, replay tail, chain status and retrieval.
type Handoff struct {
	SpaceID   string               `json:"space_id"`
	SessionID string               `json:"session_id"`
	Summary   SessionSummary       `json:"summary"`
	Tail      []TailEvent          `json:"replay_tail"`
	Chain     ChainStatus          `json:"chain"`
	Recovery  *Recovery            `json:"recovery"`
	Retrieval *checkoutwire.Packet `json:"retrieval"`
	CreatedAt time.Time            `json:"created_at"`
}
