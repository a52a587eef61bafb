package disclosure

import (
	"github.com/zaxy/zaxy/disclosure/disclosurewire"
)

// The types that cross HTTP live in the leaf package disclosurewire (no database code), so a
// client can use them without linking pgx; these aliases keep their names here.
type (
	// Citation names an event by its seq and hash (disclosurewire.Citation).
	Citation = disclosurewire.Citation
	// EntityItem is an entity with its newest facts and the newest events that mention it
	// (disclosurewire.EntityItem).
	EntityItem = disclosurewire.EntityItem
	// EventItem is an event as recorded, with what the projections made of it
	// (disclosurewire.EventItem).
	EventItem = disclosurewire.EventItem
	// EventLine is an event summarized to one line (disclosurewire.EventLine).
	EventLine = disclosurewire.EventLine
	// FactItem is one fact version with every version of its (subject, predicate) pair
	// (disclosurewire.FactItem).
	FactItem = disclosurewire.FactItem
	// IndexCounts counts a space's contents (disclosurewire.IndexCounts).
	IndexCounts = disclosurewire.IndexCounts
	// IndexEntry is one topic of the index (disclosurewire.IndexEntry).
	IndexEntry = disclosurewire.IndexEntry
	// IndexView says what a space holds (disclosurewire.IndexView).
	IndexView = disclosurewire.IndexView
	// Invalidation says a later memory.invalidated event marked an event (or entity) wrong
	// (disclosurewire.Invalidation).
	Invalidation = disclosurewire.Invalidation
	// ItemView is one item in full (disclosurewire.ItemView).
	ItemView = disclosurewire.ItemView
	// ListItem is a listing the index refers to (disclosurewire.ListItem).
	ListItem = disclosurewire.ListItem
	// Mention is an entity named in an event's text at bytes [Start, End) (disclosurewire.Mention).
	Mention = disclosurewire.Mention
	// TimelineView is a space's recent actions and decisions, newest first, each summarized to one
	// line citing its event, packed into the budget (disclosurewire.TimelineView).
	TimelineView = disclosurewire.TimelineView
)
