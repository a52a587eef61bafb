package disclosurewire

import (
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// IndexView says what a space holds: its most mentioned and connected entities, its fact
// predicates, event types and most recent sessions, each with the token cost of loading it
// (Item with the entry's Ref), packed into the budget.
type IndexView struct {
	SpaceID string `json:"space_id"`
	// HeadSeq and HeadHash are the log's head; ProjectedSeq is how far the projections
	// (entities, facts) have got. Event types and sessions are read from the log itself.
	HeadSeq      int64              `json:"head_seq"`
	HeadHash     eventloomwire.Hash `json:"head_hash"`
	ProjectedSeq int64              `json:"projected_seq"`
	// Totals counts everything in the space; Omitted counts what the budget left out.
	Totals  IndexCounts `json:"totals"`
	Omitted IndexCounts `json:"omitted"`
	// Entries per section, in rendered order.
	Entities   []IndexEntry `json:"entities"`
	Predicates []IndexEntry `json:"predicates"`
	EventTypes []IndexEntry `json:"event_types"`
	Sessions   []IndexEntry `json:"sessions"`
	MaxTokens  int          `json:"max_tokens"`
	// Tokens is EstimateTokens(Text), never more than MaxTokens.
	Tokens int    `json:"tokens"`
	Text   string `json:"text"`
}

// IndexCounts counts a space's contents. Facts are current facts; Events leaves bookkeeping
// events out.
type IndexCounts struct {
	Events     int64 `json:"events"`
	Entities   int64 `json:"entities"`
	Facts      int64 `json:"facts"`
	Predicates int64 `json:"predicates"`
	EventTypes int64 `json:"event_types"`
	Sessions   int64 `json:"sessions"`
}

// IndexEntry is one topic of the index.
type IndexEntry struct {
	// Kind is entity, predicate, event_type or session.
	Kind string `json:"kind"`
	// Ref is the id to pass to Item (GET .../items/{ref}) for the detail.
	Ref  string `json:"ref"`
	Name string `json:"name"`
	// Count is the entity's mentions, the predicate's current facts, or the event type's
	// or session's events.
	Count int64 `json:"count"`
	// Facts counts an entity's current facts (as subject or object).
	Facts    int64    `json:"facts,omitempty"`
	FirstSeq int64    `json:"first_seq"`
	LastSeq  int64    `json:"last_seq"`
	Labels   []string `json:"labels,omitempty"`
	// DetailTokens is the Tokens of the entry's Item: what loading it costs.
	DetailTokens int `json:"detail_tokens"`
}
