package checkoutwire

import "time"

// The statuses of a RecordedPacket and of its items.
const (
	// RecordedMatches: the packet re-rendered from the log is the text handed out (its
	// SHA-256 is the recorded one); for an item, its line is the line handed out.
	RecordedMatches = "matches"
	// RecordedDiffers: the re-rendered text is not the text handed out; the items say which
	// line differs and why.
	RecordedDiffers = "differs"
	// RecordedNotRendered: the checkout was recorded without what re-renders its text (a
	// record older than that, or a weave or prospective pass with no tiers); its items are
	// listed without their lines.
	RecordedNotRendered = "not_recorded_as_rendered"
	// RecordedErased: the item's event, or the event its fact was recorded from, was erased;
	// its text is never shown.
	RecordedErased = "erased"
	// RecordedMissing: the item is no longer in memory (a fact version no longer projected).
	RecordedMissing = "missing"
)

// RecordedPacket is a recorded checkout (a checkout.surfaced event) with its packet's text
// re-rendered from the log as of that checkout, and whether it is the text handed out
// (GET /v1/spaces/{space}/checkouts/{seq}).
type RecordedPacket struct {
	// Seq is the checkout.surfaced event.
	Seq        int64     `json:"seq"`
	SessionID  string    `json:"session_id,omitempty"`
	Actor      string    `json:"actor"`
	OccurredAt time.Time `json:"occurred_at"`
	Purpose    string    `json:"purpose"`
	// PolicyVersion is the retrieval policy the packet was ranked with.
	PolicyVersion string `json:"policy_version,omitempty"`
	MaxTokens     int    `json:"max_tokens"`
	UsedTokens    int    `json:"used_tokens"`
	// Tokenizer is what MaxTokens and UsedTokens count in (absent on older records).
	Tokenizer string `json:"tokenizer,omitempty"`
	// Status is RecordedMatches, RecordedDiffers or RecordedNotRendered.
	Status string `json:"status"`
	// RecordedSHA256 is the SHA-256 of the text handed out, as the checkout recorded it
	// (of the tiers' part when the packet had a weave); RenderedSHA256 that of Text.
	RecordedSHA256 string `json:"recorded_sha256,omitempty"`
	RenderedSHA256 string `json:"rendered_sha256,omitempty"`
	// Text is the packet's text re-rendered from the log (without its weave); an erased or
	// missing item's line reads "[n] (erased by seq m)" or "[n] (no longer in memory)".
	// Empty with RecordedNotRendered.
	Text string `json:"text"`
	// WeaveNotRendered: the packet also held a memory weave, whose text is not re-rendered;
	// Status is about the text before it.
	WeaveNotRendered bool `json:"weave_not_rendered,omitempty"`
	// ErasedBySeq is the erasure of the checkout record itself (0: not erased); an erased
	// record lists no items.
	ErasedBySeq int64          `json:"erased_by_seq,omitempty"`
	Items       []RecordedItem `json:"items"`
}

// RecordedItem is one item of a recorded checkout, in packet order.
type RecordedItem struct {
	// Ref is the item's marker in the text ([Ref]).
	Ref    int     `json:"ref"`
	ItemID string  `json:"item_id"`
	Tier   string  `json:"tier"`
	Seqs   []int64 `json:"seqs"`
	// Line is the item's line re-rendered from the log (absent when erased, missing or not
	// recorded as rendered).
	Line string `json:"line,omitempty"`
	// Status is RecordedMatches, RecordedDiffers, RecordedErased, RecordedMissing or
	// RecordedNotRendered; Reason says why a line does not match.
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	// ErasedBySeq is the erasure that erased the item's event (RecordedErased).
	ErasedBySeq int64 `json:"erased_by_seq,omitempty"`
}
