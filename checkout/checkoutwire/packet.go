package checkoutwire

import (
	"time"
)

// Tier is one section of a packet.
type Tier struct {
	Name  string  `json:"name"`
	Items []*Item `json:"items"`
}

// Warning flags something the agent should know about what it is given.
type Warning struct {
	Code      string     `json:"code"`
	Message   string     `json:"message"`
	ItemID    string     `json:"item_id,omitempty"`
	Citations []Citation `json:"citations,omitempty"`
}

// Elided is an item left out, and why.
type Elided struct {
	ItemID string `json:"item_id"`
	Tokens int    `json:"tokens"`
	Reason string `json:"reason"`
}

// Budget reports the packet's token accounting.
type Budget struct {
	Requested int      `json:"requested"`
	Used      int      `json:"used"`
	Elided    []Elided `json:"elided"`
}

// Diagnostics reports how the packet was made.
type Diagnostics struct {
	Lanes             map[string]LaneStat `json:"lanes"`
	ProjectionLag     int64               `json:"projection_lag"`
	StablePrefixBytes int                 `json:"stable_prefix_bytes"`
	TotalMS           float64             `json:"total_ms"`
	Candidates        int                 `json:"candidates"`
	// Salience reports the attenuated candidates left out (absent with the plain profile).
	Salience *SalienceStats `json:"salience,omitempty"`
	// PolicyVersion is the retrieval policy the packet was ranked with (docs/checkout.md);
	// every checkout sets it (BuiltinPolicyVersion when the space has no promoted policy).
	PolicyVersion string `json:"policy_version,omitempty"`
}

// Packet is a checkout's answer (docs/checkout.md, "Packet"; docs/design.md, "Contracts").
type Packet struct {
	SpaceID         string      `json:"space_id"`
	Query           string      `json:"query"`
	Purpose         string      `json:"purpose"`
	PurposeInferred bool        `json:"purpose_inferred"`
	AsOf            time.Time   `json:"as_of"`
	Tiers           []Tier      `json:"tiers"`
	Warnings        []Warning   `json:"warnings"`
	Budget          Budget      `json:"budget"`
	Text            string      `json:"text"`
	Diagnostics     Diagnostics `json:"diagnostics"`
	// SurfacedSeq is the checkout.surfaced event recording this packet (0 with NoRecord).
	SurfacedSeq int64 `json:"surfaced_seq,omitempty"`
	// Weave is the memory weave, when the request asked for one (absent otherwise).
	Weave *Weave `json:"weave,omitempty"`
}
