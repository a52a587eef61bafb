package metamemorywire

import "time"

// SalienceHistogram is how a space's memory items spread over salience, as the salience_decay
// job last materialised it (salience_decayed), read when the space's sketch is built: Buckets[i]
// counts the items whose salience falls in the i-th of SalienceBuckets equal steps of [0, 1];
// Attenuated counts the items out of default ranking. It is a signal for callers and for a
// later fit; the probability does not use it yet (no development set has salience to fit on).
type SalienceHistogram struct {
	Buckets    []int64 `json:"buckets"`
	Attenuated int64   `json:"attenuated"`
}

// SalienceHistory is one memory item's salience as it happened, from its reinforcement ledger
// (GET /v1/spaces/{space}/items/{id}/salience; docs/checkout.md, Salience): what it is
// (Base by authority), its space's floor and half-life, each reinforcing event in seq order
// with the salience it left, and its salience now.
type SalienceHistory struct {
	ItemID string `json:"item_id"`
	// InMemory is false when the id is no memory item of the space (not projected yet,
	// bookkeeping, erased, or no such item): it has no salience, and the rest is empty.
	InMemory bool `json:"in_memory"`
	// OccurredAt is when the item occurred: its last use until it is used.
	OccurredAt *time.Time `json:"occurred_at,omitempty"`
	// Authority is "log" for an event, a fact version's authority otherwise; Base its multiplier.
	Authority    string  `json:"authority"`
	Base         float64 `json:"base"`
	Floor        float64 `json:"floor"`
	HalfLifeDays float64 `json:"half_life_days"`
	// Steps are the latest rows of the item's ledger (at most MaxSalienceSteps), oldest first;
	// Total counts them all.
	Steps []SalienceStep `json:"steps"`
	Total int64          `json:"total"`
	// Now is the item's salience now (decayed to the present), as checkout ranks it.
	Now SalienceStep `json:"now"`
}

// MaxSalienceSteps is how many of an item's latest ledger rows SalienceHistory lists.
const MaxSalienceSteps = 500

// SalienceStep is an item's salience after one reinforcing event (or now): the event's seq
// and signal (surfaced, recalled, helpful, unhelpful, wrong, outdated, invalidated, pinned,
// unpinned, repeated; none for now), when it happened, and what the item's salience was then:
// Value = Base × Reinforcement × Decay, raised to the floor when Pinned or asserted;
// Attenuated when it is below the floor all the same.
type SalienceStep struct {
	Seq           int64     `json:"seq,omitempty"`
	Signal        string    `json:"signal,omitempty"`
	At            time.Time `json:"at"`
	Reinforcement float64   `json:"reinforcement"`
	Decay         float64   `json:"decay"`
	Value         float64   `json:"value"`
	Pinned        bool      `json:"pinned"`
	LastUseAt     time.Time `json:"last_use_at"`
	Attenuated    bool      `json:"attenuated"`
}
