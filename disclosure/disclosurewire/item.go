package disclosurewire

import (
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
	"github.com/zaxy/zaxy/graph/graphwire"
)

// ItemView is one item in full: exactly one of Event, Fact, Entity and List is set.
type ItemView struct {
	SpaceID string `json:"space_id"`
	// ID is the item's canonical id (e.g. "fact:f…" for a bare fact id).
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Labels of the item itself: "invalidated", "superseded", "retracted", "inferred",
	// "conflicted" (a fact contested by an open proposal), "not_projected" (an event the
	// projections have not reached yet).
	Labels []string    `json:"labels"`
	Event  *EventItem  `json:"event,omitempty"`
	Fact   *FactItem   `json:"fact,omitempty"`
	Entity *EntityItem `json:"entity,omitempty"`
	List   *ListItem   `json:"list,omitempty"`
	// Citations are every event the text cites, by seq.
	Citations []Citation `json:"citations"`
	// Tokens is EstimateTokens(Text).
	Tokens int `json:"tokens"`
	// Text is the prompt-ready rendering, citing events as #seq@<12 hex of the hash>.
	Text string `json:"text"`
}

// EventItem is an event as recorded, with what the projections made of it.
type EventItem struct {
	eventloomwire.Event
	// Projected says whether the projections have applied the event yet (when not, Facts
	// and Mentions are still empty).
	Projected bool `json:"projected"`
	// Invalidations are the memory.invalidated events that target it.
	Invalidations []Invalidation `json:"invalidations"`
	// Facts are the fact versions it recorded, with their status now.
	Facts []graphwire.Fact `json:"facts"`
	// Mentions are the entities its text names, by byte range.
	Mentions []Mention `json:"mentions"`
}

// Mention is an entity named in an event's text at bytes [Start, End).
type Mention struct {
	EntityID string `json:"entity_id"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Start    int32  `json:"start"`
	End      int32  `json:"end"`
}

// FactItem is one fact version with every version of its (subject, predicate) pair.
type FactItem struct {
	graphwire.Fact
	// Statement is the fact as a sentence: "subject predicate object".
	Statement string `json:"statement"`
	// Versions lists every version of the pair, oldest first.
	Versions []graphwire.Fact `json:"versions"`
}

// EntityItem is an entity with its newest facts and the newest events that mention it.
type EntityItem struct {
	graphwire.Entity
	Invalidated *Invalidation `json:"invalidated,omitempty"`
	// Facts are the newest fact versions (at most 50) with it as subject or object;
	// FactsTotal counts them all.
	Facts      []graphwire.Fact `json:"facts"`
	FactsTotal int64            `json:"facts_total"`
	// MentionedIn are the newest events (at most 20) that mention it; MentionedInTotal
	// counts them all.
	MentionedIn      []EventLine `json:"mentioned_in"`
	MentionedInTotal int64       `json:"mentioned_in_total"`
}

// ListItem is a listing the index refers to: a session's or an event type's newest events,
// or a predicate's newest fact versions (at most 20 each), with totals.
type ListItem struct {
	Name string `json:"name"`
	// Total counts the events (session, event type) or fact versions (predicate).
	Total int64 `json:"total"`
	// Current counts a predicate's current facts.
	Current  int64            `json:"current,omitempty"`
	FirstSeq int64            `json:"first_seq"`
	LastSeq  int64            `json:"last_seq"`
	Events   []EventLine      `json:"events,omitempty"`
	Facts    []graphwire.Fact `json:"facts,omitempty"`
}
