package eventloom

import "github.com/zaxy/zaxy/eventloom/eventloomwire"

// The types that cross HTTP live in the leaf package eventloomwire (no database code), so a
// client can use them without linking pgx; these aliases keep their names here.
type (
	// NewEvent is an event as a client submits it (eventloomwire.NewEvent).
	NewEvent = eventloomwire.NewEvent
	// Event is an event as recorded in the log (eventloomwire.Event).
	Event = eventloomwire.Event
	// Receipt is what an append returns for each event (eventloomwire.Receipt).
	Receipt = eventloomwire.Receipt
	// AppendResult is what an append recorded (eventloomwire.AppendResult).
	AppendResult = eventloomwire.AppendResult
	// ReplayPage is one page of events (eventloomwire.ReplayPage).
	ReplayPage = eventloomwire.ReplayPage
	// VerifyResult reports whether a space's chain is intact and, if not, the first broken
	// seq (eventloomwire.VerifyResult).
	VerifyResult = eventloomwire.VerifyResult
	// Erasure is the record of one erasure (eventloomwire.Erasure).
	Erasure = eventloomwire.Erasure
	// Hash is a SHA-256 digest (eventloomwire.Hash).
	Hash = eventloomwire.Hash
	// HexBytes is a byte string written as lowercase hex in JSON, an event's salt
	// (eventloomwire.HexBytes).
	HexBytes = eventloomwire.HexBytes
)
