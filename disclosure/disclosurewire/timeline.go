package disclosurewire

// TimelineView is a space's recent actions and decisions, newest first, each summarized to
// one line citing its event, packed into the budget. It reads the log, so it includes events
// appended a moment ago; labels come from the projections.
type TimelineView struct {
	SpaceID   string `json:"space_id"`
	SessionID string `json:"session_id,omitempty"`
	BeforeSeq int64  `json:"before_seq,omitempty"`
	// Entries are newest first.
	Entries []EventLine `json:"entries"`
	// More says older entries exist; NextBeforeSeq continues below the last entry shown.
	More          bool  `json:"more"`
	NextBeforeSeq int64 `json:"next_before_seq,omitempty"`
	MaxTokens     int   `json:"max_tokens"`
	// Tokens is EstimateTokens(Text), never more than MaxTokens.
	Tokens int    `json:"tokens"`
	Text   string `json:"text"`
}
