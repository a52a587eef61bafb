package eventloomwire

// ReplayPage is one page of events.
type ReplayPage struct {
	Events []Event `json:"events"`
	// NextAfterSeq is the cursor for the next page; 0 when this page is the last.
	NextAfterSeq int64 `json:"next_after_seq,omitempty"`
}
