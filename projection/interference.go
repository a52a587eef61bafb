package projection

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection/internal/dbsqlc"
	"github.com/zaxy/zaxy/review"
	"github.com/zaxy/zaxy/vocab"
)

// Interference of typed statements with pinned or endorsed facts (docs/projections.md,
// "Interference"): a fact.asserted or preference.stated that would supersede a current fact
// which is pinned, or has strong positive feedback (review.Endorsed), does not. Where
// review.Precedence says "propose", the projector keeps the current fact, labels it
// conflicted, and records the statement as a pending belief_update proposal at the
// statement's own seq, which review decides like any other (accepting asserts it).
//
// Unlike the inferred-statement case, which appends a proposal.created because inferences
// arrive outside the log, everything this decision reads is in the log before the statement
// (the pins and feedback of the reinforcement ledger), so the projector can derive the
// proposal itself and a rebuild derives the same one.

// claimState is what the ledger says of a fact item so far in the batch.
type claimState struct {
	pinned            bool
	helpful, negative int
}

// loadClaims reads the ledger state of the current facts the batch's reviewable statements
// may contradict (loaded by load before).
func (s *batchState) loadClaims(ctx context.Context, tx pgx.Tx, fxs []effects) error {
	reviewable := false
	for i := range fxs {
		for _, a := range fxs[i].Asserts {
			reviewable = reviewable || a.Reviewable
		}
	}
	if !reviewable || len(s.current) == 0 {
		return nil
	}
	ids := make([]string, 0, len(s.current))
	for _, f := range s.sortedCurrent() {
		ids = append(ids, memoryitem.FactID(f.FactID))
	}
	rows, err := queries.FactClaimsLoad(ctx, tx, dbsqlc.FactClaimsLoadParams{SpaceID: s.space, ItemIds: ids})
	if err != nil {
		return fmt.Errorf("load fact claims: %w", err)
	}
	for _, r := range rows {
		s.claims[r.ItemID] = &claimState{pinned: r.Pinned, helpful: int(r.Helpful), negative: int(r.Negative)}
	}
	return nil
}

// noteClaim folds a reinforcement of a fact item into its claim state.
func (s *batchState) noteClaim(item, signal string) {
	if !strings.HasPrefix(item, "fact:") {
		return
	}
	c := s.claims[item]
	if c == nil {
		c = &claimState{}
		s.claims[item] = c
	}
	switch signal {
	case SignalPinned:
		c.pinned = true
	case SignalUnpinned:
		c.pinned = false
	case SignalHelpful:
		c.helpful++
	case SignalUnhelpful, SignalWrong, SignalOutdated:
		c.negative++
	}
}

// interferes reports whether the reviewable statement a must not replace the current fact cur
// without review (review.Precedence). A statement asserted by accepting a proposal has been
// reviewed already.
func (s *batchState) interferes(cur *factRow, a *factAssert) bool {
	if !a.Reviewable || a.ProposalSeq != nil {
		return false
	}
	older := review.Claim{Authority: cur.Authority}
	if c := s.claims[memoryitem.FactID(cur.FactID)]; c != nil {
		older.Pinned, older.Endorsed = c.pinned, review.Endorsed(c.helpful, c.negative)
	}
	return review.Precedence(review.Claim{Authority: a.Authority}, older) == review.VerdictPropose
}

// proposeAssertion records the statement of e as a pending belief_update proposal at e's seq,
// contradicting cur, which stays current and is labelled conflicted.
func (s *batchState) proposeAssertion(e *eventloom.Event, cur *factRow, a *factAssert) {
	if s.proposals[e.Seq] != nil {
		return // one proposal per event; a second contradiction in the same event versions nothing either
	}
	fact := map[string]any{"subject": a.Subject.Name, "predicate": a.Predicate, "valid_from": a.ValidFrom.UTC()}
	if a.Object != nil {
		fact["object"] = a.Object.Name
	} else {
		fact["value"] = json.RawMessage(a.Value)
	}
	raw, err := json.Marshal(fact)
	if err != nil {
		panic(err)
	}
	canon, err := canonicalJSON(raw)
	if err != nil {
		panic(err)
	}
	why := "pinned"
	if c := s.claims[memoryitem.FactID(cur.FactID)]; c == nil || !c.pinned {
		why = "endorsed by feedback"
	}
	id := cur.FactID
	s.proposals[e.Seq] = &proposalRow{Seq: e.Seq, Hash: e.Hash, Kind: vocab.ProposalBeliefUpdate, Status: ProposalPending,
		ProposedBy: e.Actor, ProposedAt: e.OccurredAt.UTC(), Evidence: []evidenceRef{}, Fact: canon, Contradicts: &id,
		Rationale: fmt.Sprintf("%s contradicts the current fact %s, which is %s; it waits for review instead of replacing it", e.Type, cur.FactID, why),
		dirty:     true}
	cur.ReviewStatus = ReviewConflicted
	cur.dirty = true
}
