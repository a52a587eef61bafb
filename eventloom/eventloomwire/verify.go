package eventloomwire

// VerifyResult reports whether a space's chain is intact and, if not, the first broken seq.
type VerifyResult struct {
	SpaceID string `json:"space_id"`
	OK      bool   `json:"ok"`
	// Events is the number of events present.
	Events int64 `json:"events"`
	// HeadSeq and HeadHash are those of the last event present.
	HeadSeq  int64 `json:"head_seq"`
	HeadHash Hash  `json:"head_hash"`
	// BrokenSeq is the first seq at which the chain is broken (0 when OK).
	BrokenSeq int64 `json:"broken_seq,omitempty"`
	// Reason says what is wrong at BrokenSeq.
	Reason string `json:"reason,omitempty"`
	// Method is "go" (eventloom.MethodGo) or "sql" (eventloom.MethodSQL).
	Method string `json:"method"`
}
