package eventloomwire

import (
	"encoding/json"
	"time"
)

// NewEvent is an event as a client submits it. The database assigns seq, recorded_at,
// prev_hash and hash.
type NewEvent struct {
	// Type is dotted lowercase, e.g. "message" or "fact.asserted".
	Type string `json:"type"`
	// SessionID groups the events of one agent run or conversation; optional.
	SessionID string `json:"session_id,omitempty"`
	// Actor says who or what produced the event; optional.
	Actor string `json:"actor,omitempty"`
	// OccurredAt is when it happened; nil means "now" (the recorded_at).
	OccurredAt *time.Time `json:"occurred_at,omitempty"`
	// Content is the event's text.
	Content string `json:"content,omitempty"`
	// Data is a JSON object of structured fields; nil means {}.
	Data json.RawMessage `json:"data,omitempty"`
	// Cues is a JSON object of retrieval cues (task, repo, tool, phase, free keys); nil means {}.
	Cues json.RawMessage `json:"cues,omitempty"`
}

// Event is an event as recorded in the log.
type Event struct {
	SpaceID    string          `json:"space_id"`
	Seq        int64           `json:"seq"`
	Type       string          `json:"type"`
	SessionID  string          `json:"session_id,omitempty"`
	Actor      string          `json:"actor,omitempty"`
	OccurredAt time.Time       `json:"occurred_at"`
	RecordedAt time.Time       `json:"recorded_at"`
	Content    string          `json:"content,omitempty"`
	Data       json.RawMessage `json:"data"`
	Cues       json.RawMessage `json:"cues"`
	PrevHash   Hash            `json:"prev_hash"`
	Hash       Hash            `json:"hash"`
	// HashVersion is the canonical rule the hash follows (docs/eventloom.md): 2 for events
	// appended since migration 000011; 0 (absent in JSON) means version 1.
	HashVersion int `json:"hash_version,omitempty"`
	// Salt is a version 2 event's 16 random bytes, prefixed to its body digest; gone once the
	// event is erased.
	Salt HexBytes `json:"salt,omitempty"`
	// BodyDigest is a version 2 event's SHA-256(salt || field(content) || field(data)), which
	// the hash covers. Replay carries it only for erased events (it is recomputed otherwise).
	BodyDigest Hash `json:"body_sha256,omitempty"`
	// ErasedBySeq is the seq of the erasure.recorded event that replaced this event's content
	// and data with the tombstone ("" and {}); 0 when the event is not erased.
	ErasedBySeq int64 `json:"erased_by_seq,omitempty"`
}

// Receipt is what an append returns for each event.
type Receipt struct {
	Seq        int64     `json:"seq"`
	Hash       Hash      `json:"hash"`
	PrevHash   Hash      `json:"prev_hash"`
	RecordedAt time.Time `json:"recorded_at"`
	OccurredAt time.Time `json:"occurred_at"`
}

// Hash rule versions (events.hash_version).
const (
	// HashV1 hashes content and data inline; such events cannot be erased.
	HashV1 = 1
	// HashV2 hashes a salted digest of content and data (BodyDigest), so they can be erased.
	HashV2 = 2
)

// Version returns the event's hash rule version (HashV1 when HashVersion is unset).
func (e *Event) Version() int {
	if e.HashVersion == 0 {
		return HashV1
	}
	return e.HashVersion
}

// Erased reports whether the event's content and data were replaced by the tombstone.
func (e *Event) Erased() bool { return e.ErasedBySeq != 0 }
