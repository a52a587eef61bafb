package checkoutwire

import (
	"time"

	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// Citation points at the event a claim comes from. Start and End, when set, are the
// character range of the event's content an excerpt took.
type Citation struct {
	Seq   int64              `json:"seq"`
	Hash  eventloomwire.Hash `json:"hash"`
	Start *int               `json:"start,omitempty"`
	End   *int               `json:"end,omitempty"`
}

// Labels say how far an item can be trusted and whether memory has moved on from it.
type Labels struct {
	// Authority is "log" for events, or a fact's authority (asserted, extracted, inferred).
	Authority    string `json:"authority"`
	ReviewStatus string `json:"review_status,omitempty"`
	Inferred     bool   `json:"inferred,omitempty"`
	// Stale: the item is not in the projections yet (found in the raw log) or its validity
	// window has ended.
	Stale bool `json:"stale,omitempty"`
	// Attenuated: memory marked it (invalidated, closed), or its salience fell below the
	// space's floor (AttenuatedBy "salience"); it left default ranking.
	Attenuated bool `json:"attenuated,omitempty"`
	// AttenuatedBy is "salience" when the item is attenuated for its salience (disuse or
	// negative feedback), "redundant" when the encoding gate found it repeats RedundantOf;
	// invalidated and closed items keep their own labels.
	AttenuatedBy string `json:"attenuated_by,omitempty"`
	// RedundantOf is the ranked item this one repeats (docs/projections.md, "Encoding gate"):
	// it leaves default ranking, and the item it repeats was reinforced instead.
	RedundantOf string `json:"redundant_of,omitempty"`
	Superseded  bool   `json:"superseded,omitempty"`
	Invalidated string `json:"invalidated,omitempty"`
	// Conflicted: a statement of another authority contradicts this one and a proposal
	// awaits review (a fact whose review_status is conflicted, or an event a model inferred
	// the contradicting statement from). docs/projections.md, "Interference".
	Conflicted bool `json:"conflicted,omitempty"`
}

// Item is one memory in a packet or a query result.
type Item struct {
	// Ref is the citation marker in the rendered text ([Ref]).
	Ref    int    `json:"ref,omitempty"`
	ItemID string `json:"item_id"`
	// Kind is the event type, or "fact".
	Kind       string               `json:"kind"`
	Text       string               `json:"text"`
	Tokens     int                  `json:"tokens"`
	Score      float64              `json:"score"`
	Components map[string]Component `json:"components,omitempty"`
	Labels     Labels               `json:"labels"`
	Citations  []Citation           `json:"citations"`
	SessionID  string               `json:"session_id,omitempty"`
	OccurredAt *time.Time           `json:"occurred_at,omitempty"`
	// Salience is how the item's salience multiplied its score (absent with the plain profile).
	Salience *Salience `json:"salience,omitempty"`
	// Repeats counts the later events the encoding gate found repeating this item (up to the
	// checkout's as_of, none invalidated); the last of them is the item's last citation.
	// Absent with the plain profile, which ranks every copy as itself (docs/checkout.md,
	// "Redundant items").
	Repeats int `json:"repeats,omitempty"`
}
