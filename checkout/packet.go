package checkout

import (
	"context"
	"time"

	"github.com/zaxy/zaxy/internal/tracing"
	"github.com/zaxy/zaxy/memoryitem"
)

// Tier names, in the order a packet serializes them: what rarely changes first, so repeated
// checkouts share a byte-identical prefix (provider prompt caches hit).
const (
	TierStable  = "stable"
	TierSession = "session"
	TierQuery   = "query"
)

// ValidateRequest checks r and fills its defaults as Checkout does; errors name the field. A
// caller that must reject a bad request before it writes (the session lifecycle's after-turn)
// checks with it first.
func ValidateRequest(r *Request) error { return validateRequest(r) }

// Checkout builds a cited, token-budgeted packet for r and records what it surfaced.
func (s *Service) Checkout(ctx context.Context, r *Request) (*Packet, error) {
	start := time.Now()
	if err := validateRequest(r); err != nil {
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
	m := mechanismOf(rk.policy)
	pack := startPack(ctx, r.SpaceID)
	used := map[string]bool{}
	tokens := 0
	// budget is what the tiers may spend: all of it, or what the weave left.
	budget := r.MaxTokens
	if weaveOn(r) {
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
	ref := renderTiers(p, rk.items, r.WhoWhen)
	p.Budget.Used = EstimateTokens(p.Text)
	pack.SetAttributes(tracing.CountKey.Int(ref))
	pack.End()
	if !r.NoRecord && !rk.noSpace {
		seq, err := s.recordSurfaced(ctx, r, p, nil)
		if err != nil {
			return nil, err
		}
		p.SurfacedSeq = seq
	}
	p.Diagnostics.TotalMS = float64(time.Since(start).Microseconds()) / 1000
	return p, nil
}
