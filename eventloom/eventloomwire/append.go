package eventloomwire

// AppendResult is what an append recorded.
type AppendResult struct {
	SpaceID string `json:"space_id"`
	// Receipts are in the order of the submitted events.
	Receipts []Receipt `json:"events"`
	// Replayed is true when an idempotent retry was answered from the original append.
	Replayed bool `json:"replayed"`
	// Redactions counts the secrets this append replaced with "[REDACTED:<kind>]" before
	// storing its events (docs/redaction.md); 0 when the space's redaction is off, and in a
	// replayed answer (it stored nothing).
	Redactions int `json:"redactions"`
}
