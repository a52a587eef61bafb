package ingestwire

import (
	"time"

	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// Turn is one conversation turn of a transcript.
type Turn struct {
	// Role is user, assistant, system or tool.
	Role string `json:"role"`
	// Content is the turn's text; it must not be blank.
	Content string `json:"content"`
	// SessionID, when empty, is TranscriptParams.SessionID.
	SessionID string `json:"session_id,omitempty"`
	// Actor says who produced the turn; optional.
	Actor string `json:"actor,omitempty"`
	// OccurredAt is when the turn happened; nil means when it is recorded.
	OccurredAt *time.Time `json:"occurred_at,omitempty"`
	// Name is the speaker's name; optional.
	Name string `json:"name,omitempty"`
}

// TranscriptParams is one transcript import into a space; its JSON form is the body of
// POST /v1/spaces/{space}/transcripts (ingest.DecodeTranscriptBody).
type TranscriptParams struct {
	// SpaceID is the space to append to.
	SpaceID string `json:"-"`
	// SessionID is the session of turns that do not name one; optional.
	SessionID string `json:"session_id,omitempty"`
	// Turns are appended in order as message events.
	Turns []Turn `json:"turns"`
}

// TranscriptResult reports a transcript import.
type TranscriptResult struct {
	SpaceID string `json:"space_id"`
	// Receipts are in the order of the turns.
	Receipts []eventloomwire.Receipt `json:"events"`
	// Replayed is true when every batch had been appended before (nothing new was appended).
	Replayed bool `json:"replayed"`
	// Batches is how many appends the import took; AppendedBatches how many of them were new.
	Batches         int `json:"batches"`
	AppendedBatches int `json:"appended_batches"`
	// Redactions counts the secrets replaced in the turns' content, actor and name (0 when
	// the space's redaction is off).
	Redactions int `json:"redactions"`
}
