package checkout

import (
	"context"
	"time"

	"github.com/zaxy/zaxy/internal/tracing"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/vocab"
)

// Tier names, in the order a packet serializes them: what rarely changes first, so repeated
// checkouts share a byte-identical prefix (provider prompt caches hit).
const (
	TierStable  = "stable"
	TierSession = "session"
	TierQuery   = "query"
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

// Packet is a checkout's answer (DESIGN.md §3).
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

	// priors are the prospective pass's priors, as its checkout.surfaced records them.
	priors []vocab.SurfacedArtifact
}

// Validate checks r and fills its defaults as Checkout does; errors name the field. A caller
// that must reject a bad request before it writes (the session lifecycle's after-turn) checks
// with it first.
func (r *Request) Validate() error { return r.validate() }

// Checkout builds a cited, token-budgeted packet for r and records what it surfaced.
func (s *Service) Checkout(ctx context.Context, r *Request) (*Packet, error) {
	start := time.Now()
	if err := r.validate(); err != nil {
		return nil, err
	}
	rk, err := s.rank(ctx, r, 100, true)
	if err != nil {
		return nil, err
	}
	p := &Packet{
		SpaceID: r.SpaceID, Query: r.Query, Purpose: rk.purpose, PurposeInferred: rk.purposeInferred, AsOf: rk.asOf,
		Warnings: []Warning{}, Budget: Budget{Requested: r.MaxTokens, Elided: []Elided{}},
		Diagnostics: Diagnostics{Lanes: rk.lanes, ProjectionLag: rk.lag, Candidates: len(rk.fused), Salience: rk.salience,
			PolicyVersion: rk.policy.Version},
	}
	m := rk.policy.Mechanism()
	pack := startPack(ctx, r.SpaceID)
	used := map[string]bool{}
	tokens := 0
	// budget is what the tiers may spend: all of it, or what the weave left.
	budget := r.MaxTokens
	if r.weaveOn() {
		w, err := s.buildWeave(ctx, weaveParams{space: r.SpaceID, goal: r.Query, phase: weavePhase(r.ReasoningPhase, rk.purpose),
			purpose: rk.purpose, budget: int(float64(r.MaxTokens) * m.WeaveShare), asOf: r.AsOf, whoWhen: r.WhoWhen}, rk)
		if err != nil {
			return nil, err
		}
		p.Weave = w
		budget -= w.Budget.Used
		for _, ev := range w.Evidence {
			if id := memoryitem.EventID(ev.Citation.Seq); rk.items[id] != nil {
				used[id] = true // shown in the weave; not again in a tier
			}
		}
	}
	// Each tier gets its share of what is left; the header lines count against the budget too.
	byID := map[string]*scored{}
	for _, c := range rk.fused {
		byID[c.itemID] = c
	}
	stable := packTier(rk, used, &tokens, budget, p, r.WhoWhen, TierStable, rk.stable, byID, int(float64(budget)*m.StableShare))
	recent := make([]string, len(rk.recent))
	for i, id := range rk.recent {
		recent[len(rk.recent)-1-i] = id // oldest first: the session reads in order
	}
	session := packTier(rk, used, &tokens, budget, p, r.WhoWhen, TierSession, recent, byID, int(float64(budget)*m.SessionShare))
	query := packQuery(rk, used, &tokens, budget, p, r.WhoWhen)
	p.Tiers = []Tier{stable, session, query}
	p.Warnings = append(p.Warnings, warnings(rk, used)...)
	ref := renderTiers(p, r.WhoWhen)
	p.Budget.Used = EstimateTokens(p.Text)
	pack.SetAttributes(tracing.CountKey.Int(ref))
	pack.End()
	if !r.NoRecord {
		seq, err := s.recordSurfaced(ctx, r, p)
		if err != nil {
			return nil, err
		}
		p.SurfacedSeq = seq
	}
	p.Diagnostics.TotalMS = float64(time.Since(start).Microseconds()) / 1000
	return p, nil
}
