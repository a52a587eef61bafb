package checkoutwire

import (
	"time"
)

// Salience is how an item's salience was composed (docs/checkout.md, Salience):
// Value = Base × Reinforcement × Decay, raised to Floor when the item is exempt.
type Salience struct {
	// Value is the item's salience; below Floor the item is attenuated unless Exempt.
	Value float64 `json:"value"`
	// Multiplier is what multiplied the item's fused relevance: Value^SalienceWeight of the
	// policy's mechanism record (Mechanism.SalienceWeight).
	Multiplier float64 `json:"multiplier"`
	// Base is the multiplier of what the item is (event, or fact by authority).
	Base float64 `json:"base"`
	// Reinforcement is the multiplier of its history of use and feedback.
	Reinforcement float64 `json:"reinforcement"`
	// Decay is 0.5^(whole days since LastUseAt / HalfLifeDays), 1 while the space's memory
	// has never been used.
	Decay float64 `json:"decay"`
	// LastUseAt is the item's last use (a recall, helpful feedback or a pin), else when it
	// occurred.
	LastUseAt *time.Time `json:"last_use_at,omitempty"`
	// LastUseSeq and LastUseSignal name the event of the last use, if any: the log's record of
	// why the item is (again) salient.
	LastUseSeq    *int64 `json:"last_use_seq,omitempty"`
	LastUseSignal string `json:"last_use_signal,omitempty"`
	// Floor is the space's floor; below it an item is attenuated unless Exempt.
	Floor        float64 `json:"floor"`
	HalfLifeDays float64 `json:"half_life_days"`
	// Exempt says why the floor does not apply: "pinned" or "asserted".
	Exempt string `json:"exempt,omitempty"`
}

// SalienceStats are a packet's or query's salience diagnostics.
type SalienceStats struct {
	// Attenuated counts the candidates left out for being below the floor.
	Attenuated int `json:"attenuated"`
	// Redundant counts the candidates left out for repeating a ranked item (the encoding gate).
	Redundant int `json:"redundant,omitempty"`
	// IncludeAttenuated echoes the request: attenuated items were kept, labelled, and the
	// ranking was relevance alone.
	IncludeAttenuated bool `json:"include_attenuated,omitempty"`
}
