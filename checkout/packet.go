package checkout

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/tracing"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/redact"
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

// tierHeader titles each tier in the rendered text.
var tierHeader = map[string]string{
	TierStable:  "## Stable facts",
	TierSession: "## This session",
	TierQuery:   "## Relevant memory",
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
	// Each tier gets its share; the header lines count against the budget too.
	fill := func(name string, ids []string, scores map[string]*scored, limit int) Tier {
		t := Tier{Name: name, Items: []*Item{}}
		spent := EstimateTokens(tierHeader[name] + "\n")
		for _, id := range ids {
			it := rk.items[id]
			if it == nil || used[id] {
				continue
			}
			line := renderLine(maxRef, it, r.WhoWhen)
			cost := EstimateTokens(line + "\n")
			if tokens+spent+cost > budget || spent+cost > limit {
				p.Budget.Elided = append(p.Budget.Elided, Elided{ItemID: id, Tokens: cost, Reason: "over the " + name + " tier's share of the budget"})
				continue
			}
			used[id] = true
			if c := scores[id]; c != nil {
				it.Score, it.Components = c.score, c.components
			}
			it.Tokens = cost
			spent += cost
			t.Items = append(t.Items, it)
		}
		if len(t.Items) > 0 {
			tokens += spent
		}
		return t
	}
	byID := map[string]*scored{}
	for _, c := range rk.fused {
		byID[c.itemID] = c
	}
	stable := fill(TierStable, rk.stable, byID, int(float64(budget)*m.StableShare))
	recent := make([]string, len(rk.recent))
	for i, id := range rk.recent {
		recent[len(rk.recent)-1-i] = id // oldest first: the session reads in order
	}
	session := fill(TierSession, recent, byID, int(float64(budget)*m.SessionShare))
	query := s.packQuery(rk, used, &tokens, budget, p, r.WhoWhen)
	p.Tiers = []Tier{stable, session, query}
	p.Warnings = append(p.Warnings, warnings(rk, used)...)

	// Number the items in tier order and render.
	var b strings.Builder
	ref := 0
	for _, t := range p.Tiers {
		if len(t.Items) == 0 {
			continue
		}
		b.WriteString(tierHeader[t.Name] + "\n")
		for _, it := range t.Items {
			ref++
			it.Ref = ref
			b.WriteString(renderLine(ref, it, r.WhoWhen) + "\n")
		}
		if t.Name == TierStable {
			p.Diagnostics.StablePrefixBytes = b.Len()
		}
	}
	if p.Weave != nil {
		b.WriteString(p.Weave.Text)
	}
	p.Text = b.String()
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

// packQuery fills the query tier from the policy's mechanism's QueryCandidates best fused
// items, greedily by value per token: the fused score divided by the item's tokens (at least
// MinValueTokens, so one-word items do not crowd out the best evidence), until the budget is
// spent.
func (s *Service) packQuery(rk *ranking, used map[string]bool, tokens *int, budget int, p *Packet, whoWhen bool) Tier {
	t := Tier{Name: TierQuery, Items: []*Item{}}
	header := EstimateTokens(tierHeader[TierQuery] + "\n")
	type cand struct {
		it    *Item
		c     *scored
		cost  int
		value float64
	}
	m := rk.policy.Mechanism()
	var cands []cand
	for i, c := range rk.fused {
		if i == m.QueryCandidates {
			break
		}
		it := rk.items[c.itemID]
		if it == nil || used[c.itemID] {
			continue
		}
		cost := EstimateTokens(renderLine(maxRef, it, whoWhen) + "\n")
		cands = append(cands, cand{it: it, c: c, cost: cost, value: c.score / float64(max(cost, m.MinValueTokens))})
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(b.value, a.value) })
	spent := header
	for _, c := range cands {
		if *tokens+spent+c.cost > budget {
			p.Budget.Elided = append(p.Budget.Elided, Elided{ItemID: c.it.ItemID, Tokens: c.cost, Reason: "over the token budget"})
			continue
		}
		spent += c.cost
		c.it.Score, c.it.Components, c.it.Tokens = c.c.score, c.c.components, c.cost
		used[c.it.ItemID] = true
		t.Items = append(t.Items, c.it)
	}
	// Within the tier, the best first.
	slices.SortStableFunc(t.Items, func(a, b *Item) int { return cmp.Compare(b.Score, a.Score) })
	if len(t.Items) > 0 {
		*tokens += spent
	}
	return t
}

// repeatedLater says how often the gate found an item repeated later (n > 0).
func repeatedLater(n int) string {
	if n == 1 {
		return "repeated once later"
	}
	return fmt.Sprintf("repeated %d times later", n)
}

// renderLine is an item as the prompt shows it: marker, text, labels and citations; with
// whoWhen an event's text opens with when it happened and who said it (lineWhoWhen). What was
// remembered (the text, a speaker's name, an invalidation's reason) is shown as remembered
// text, which cannot imitate the marker or a citation (remembered).
func renderLine(ref int, it *Item, whoWhen bool) string {
	var b strings.Builder
	if ref > 0 {
		fmt.Fprintf(&b, "[%d] ", ref)
	}
	if whoWhen && it.fact == nil && it.OccurredAt != nil {
		b.WriteString(lineWhoWhen(*it.OccurredAt, it.Kind, it.speaker, it.role))
	}
	b.WriteString(remembered(it.Text))
	var tags []string
	switch {
	case it.Labels.Invalidated != "":
		tags = append(tags, "invalidated: "+remembered(it.Labels.Invalidated))
	case it.Labels.Superseded:
		tags = append(tags, "superseded")
	}
	switch {
	case it.Labels.RedundantOf != "":
		tags = append(tags, "redundant of "+it.Labels.RedundantOf)
	case it.Labels.AttenuatedBy != "":
		tags = append(tags, "attenuated: "+it.Labels.AttenuatedBy)
	}
	if it.Labels.Inferred {
		tags = append(tags, "inferred")
	}
	if it.Labels.Stale {
		tags = append(tags, "stale")
	}
	if it.Labels.Conflicted {
		tags = append(tags, "conflicted")
	}
	if it.Repeats > 0 {
		tags = append(tags, repeatedLater(it.Repeats))
	}
	for _, c := range it.Citations {
		tag := fmt.Sprintf("seq %d #%s", c.Seq, c.Hash.String()[:8])
		if c.Start != nil {
			tag += fmt.Sprintf(" chars %d-%d", *c.Start, *c.End)
		}
		tags = append(tags, tag)
		if len(tags) >= 4 {
			break
		}
	}
	fmt.Fprintf(&b, " (%s)", strings.Join(tags, "; "))
	return flatLine(b.String()) // one line, whatever the text or an invalidation's reason holds
}

// warnings surfaces what memory has moved on from among the packed items: superseded and
// invalidated versions and events, the older versions a packed current fact replaced, and
// items in conflict with a statement of another authority (awaiting review).
func warnings(rk *ranking, used map[string]bool) []Warning {
	var out []Warning
	for _, prev := range rk.previous {
		if prev.fact == nil || prev.fact.supersededBy == nil || !used[memoryitem.FactID(*prev.fact.supersededBy)] {
			continue
		}
		out = append(out, Warning{Code: "superseded", ItemID: memoryitem.FactID(*prev.fact.supersededBy), Citations: prev.Citations,
			Message: fmt.Sprintf("%s %s was %q (version %d) before it changed", flatLine(prev.fact.subject), flatLine(prev.fact.predicate), prev.fact.object, prev.fact.version)})
	}
	for id := range used {
		it := rk.items[id]
		switch {
		case it.Labels.Invalidated != "":
			out = append(out, Warning{Code: "invalidated", ItemID: id, Citations: it.Citations, Message: fmt.Sprintf("%q was marked invalid: %s", clip(it.Text), flatLine(it.Labels.Invalidated))})
		case it.Labels.Superseded:
			out = append(out, Warning{Code: "superseded", ItemID: id, Citations: it.Citations, Message: fmt.Sprintf("%q has been superseded by a newer version", clip(it.Text))})
		}
		if it.Labels.Conflicted {
			out = append(out, Warning{Code: "conflicted", ItemID: id, Citations: it.Citations,
				Message: fmt.Sprintf("%q is contradicted by a statement of another authority; a proposal awaits review (zaxy review list)", clip(it.Text))})
		}
	}
	slices.SortFunc(out, func(a, b Warning) int {
		return cmp.Or(cmp.Compare(a.ItemID, b.ItemID), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Message, b.Message))
	})
	return out
}

// surfacedItem is one entry of a checkout.surfaced event.
type surfacedItem struct {
	ItemID string  `json:"item_id"`
	Seqs   []int64 `json:"seqs"`
	Tier   string  `json:"tier"`
	// Attenuated marks an item the request recalled from below the salience floor
	// (include_attenuated): a use, which restores it.
	Attenuated bool `json:"attenuated,omitempty"`
	// Lanes are the item's fusion components (rank and weight per lane) and Boost its score
	// over their sum (the multipliers and session context applied after fusion): what an
	// offline policy fit replays
	// the ranking from (package policy), since the event records the query only by its hash.
	Lanes map[string]SurfacedLane `json:"lanes,omitempty"`
	Boost float64                 `json:"boost,omitempty"`
}

// SurfacedLane is one lane's part in a surfaced item's score: its rank in the lane and the
// weight it was fused with (the policy's lane weight times the lane's per-item scale).
type SurfacedLane struct {
	Rank   int     `json:"rank"`
	Weight float64 `json:"weight"`
}

// recordSurfaced appends the checkout.surfaced event listing what the packet surfaced; it is
// bookkeeping, never retrieved as memory.
func (s *Service) recordSurfaced(ctx context.Context, r *Request, p *Packet) (int64, error) {
	ev, err := SurfacedEvent(r, p)
	if err != nil {
		return 0, err
	}
	res, err := s.store.Append(ctx, &eventloom.AppendParams{SpaceID: r.SpaceID, Events: []eventloom.NewEvent{ev}, ProjectLater: true})
	if err != nil {
		return 0, fmt.Errorf("record surfaced items: %w", err)
	}
	seq := res.Receipts[0].Seq
	// The record's projection job is enqueued after the answer, not before it: the record is
	// committed, and a job lost here is enqueued by the periodic sweep. It runs beside the
	// caller's next work, so the store must be on a pool, as the lanes already need.
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), surfacedEnqueueTimeout)
		defer cancel()
		if err := s.store.EnqueueProjection(ctx, r.SpaceID, seq); err != nil {
			s.cfg.Logger.WarnContext(ctx, "enqueue the projection of a surfaced record", "space_id", r.SpaceID, "seq", seq, "error", err)
		}
	}()
	return seq, nil
}

// surfacedEnqueueTimeout bounds the enqueue of a surfaced record's projection job.
const surfacedEnqueueTimeout = 10 * time.Second

// recordedSessionID is a caller's session id as a record of a read (checkout.surfaced,
// memory_action.surfaced) carries it: with its secrets redacted (redact.String), whatever the
// space's redaction mode, since a read must not write a secret into the log.
func recordedSessionID(id string) string {
	out, _ := redact.String(id)
	return out
}

// SurfacedEvent is the checkout.surfaced event recording what packet p (the answer to r)
// surfaced, in r's session (recordedSessionID) with r.Actor as its actor (default "zaxy"):
// each item by id with its tier and cited seqs. Its projection reinforces exactly
// those item ids (docs/checkout.md, Salience). A caller that checks out with NoRecord and
// records the surfacing itself (a simulation setting occurred_at) appends this event.
func SurfacedEvent(r *Request, p *Packet) (eventloom.NewEvent, error) {
	sum := sha256.Sum256([]byte(r.Query))
	data := struct {
		Purpose     string         `json:"purpose"`
		QuerySHA256 string         `json:"query_sha256"`
		MaxTokens   int            `json:"max_tokens"`
		UsedTokens  int            `json:"used_tokens"`
		Items       []surfacedItem `json:"items"`
		// PolicyVersion is the retrieval policy the packet was ranked with.
		PolicyVersion string         `json:"policy_version,omitempty"`
		Weave         *SurfacedWeave `json:"weave,omitempty"`
		// Priors are a prospective pass's procedure and failure priors and causal context,
		// as a memory_action.surfaced lists artifacts: what the retrospective pass judges
		// the pass by.
		Priors []vocab.SurfacedArtifact `json:"priors,omitempty"`
	}{Purpose: p.Purpose, QuerySHA256: hex.EncodeToString(sum[:]), MaxTokens: r.MaxTokens, UsedTokens: p.Budget.Used, Items: []surfacedItem{},
		PolicyVersion: p.Diagnostics.PolicyVersion, Weave: p.Weave.surfaced(), Priors: p.priors}
	for _, t := range p.Tiers {
		for _, it := range t.Items {
			si := surfacedItem{ItemID: it.ItemID, Tier: t.Name, Attenuated: it.Labels.AttenuatedBy == AttenuatedBySalience}
			for _, c := range it.Citations {
				si.Seqs = append(si.Seqs, c.Seq)
			}
			if len(it.Components) > 0 {
				si.Lanes = make(map[string]SurfacedLane, len(it.Components))
				fused := 0.0
				for lane, c := range it.Components {
					if c.Rank == 0 {
						continue // the session context (session_context.go) is added after fusion, not a lane
					}
					si.Lanes[lane] = SurfacedLane{Rank: c.Rank, Weight: c.Weight}
					fused += c.Score
				}
				if fused > 0 {
					si.Boost = it.Score / fused
				}
			}
			data.Items = append(data.Items, si)
		}
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return eventloom.NewEvent{}, err
	}
	return eventloom.NewEvent{Type: SurfacedType, SessionID: recordedSessionID(r.SessionID), Actor: cmp.Or(r.Actor, "zaxy"), Data: raw}, nil
}

// SurfacedType is the bookkeeping event a checkout appends (vocab.TypeCheckoutSurfaced).
const SurfacedType = vocab.TypeCheckoutSurfaced

// Clip shortens a text for a message: its first 120 characters, then an ellipsis.
func Clip(s string) string { return clip(s) }

// clip shortens a text for a warning message (Clip).
func clip(s string) string {
	if r := []rune(s); len(r) > 120 {
		return string(r[:120]) + "…"
	}
	return s
}

// maxRef is the widest citation marker an item's cost is estimated with, so numbering the
// items afterwards can never push the packet over its budget.
const maxRef = 99999
