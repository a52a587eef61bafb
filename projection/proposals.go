package projection

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// Review statuses of facts (facts.review_status) and of inferred statements (view
// inferred_facts): docs/projections.md, "Proposals and review".
const (
	// ReviewUnreviewed: no proposal has touched it.
	ReviewUnreviewed = "unreviewed"
	// ReviewAccepted: asserted by accepting a proposal, or upheld when the proposal that
	// contested it was rejected.
	ReviewAccepted = "accepted"
	// ReviewRejected: replaced by an accepted proposal that contested it.
	ReviewRejected = "rejected"
	// ReviewConflicted: contested by an open (pending or deferred) proposal.
	ReviewConflicted = "conflicted"
)

// Statuses of a proposal (proposals.status).
const (
	ProposalPending  = "pending"
	ProposalAccepted = "accepted"
	ProposalRejected = "rejected"
	ProposalDeferred = "deferred"
)

// proposalEffect is what a proposal.created event contributes: a pending proposal.
type proposalEffect struct {
	Kind        string
	Evidence    []int64
	Confidence  *float64
	Fact        []byte // canonical JSON of data.fact, nil unless a belief_update
	Contradicts string
	Inference   *vocab.InferenceRef
	Rationale   string
}

// decisionEffect is what proposal.accepted, .rejected or .deferred contributes.
type decisionEffect struct {
	Status      string
	ProposalSeq int64
	Reason      string
}

// decisionStatus maps a decision event type to the proposal status it sets.
var decisionStatus = map[string]string{
	vocab.TypeProposalAccepted: ProposalAccepted,
	vocab.TypeProposalRejected: ProposalRejected,
	vocab.TypeProposalDeferred: ProposalDeferred,
}

// proposalEffects derives the effects of the proposal event types. Proposals are review
// material, not memories: they add no memory item.
func proposalEffects(e *eventloom.Event) (effects, error) {
	var fx effects
	if e.Type == vocab.TypeProposalCreated {
		d, err := vocab.Decode[vocab.ProposalCreated](e.Data)
		if err != nil {
			return fx, err
		}
		raw, err := vocab.Decode[struct {
			Fact json.RawMessage `json:"fact"`
		}](e.Data)
		if err != nil {
			return fx, err
		}
		p := &proposalEffect{Kind: d.Kind, Evidence: d.Evidence, Confidence: d.Confidence,
			Contradicts: d.Contradicts, Inference: d.Inference, Rationale: d.Rationale}
		if d.Fact != nil && len(raw.Fact) > 0 {
			if p.Fact, err = canonicalJSON(raw.Fact); err != nil {
				return fx, err
			}
		}
		fx.Proposal = p
		return fx, nil
	}
	d, err := vocab.Decode[vocab.ProposalDecided](e.Data)
	if err != nil {
		return fx, err
	}
	fx.Decision = &decisionEffect{Status: decisionStatus[e.Type], ProposalSeq: d.ProposalSeq, Reason: d.Reason}
	return fx, nil
}

// proposalRow is a proposals row as the projector holds it while applying a batch.
type proposalRow struct {
	Seq              int64
	Hash             []byte
	Kind             string
	Status           string
	ProposedBy       string
	ProposedAt       time.Time
	Confidence       *float32
	Evidence         []evidenceRef
	Fact             []byte
	Contradicts      *string
	InferenceSeq     *int64
	InferenceModel   *string
	InferenceOrdinal *int32
	Rationale        string
	DecidedSeq       *int64
	DecidedBy        *string
	DecidedAt        *time.Time
	Reason           *string
	FactID           *string
	dirty            bool
}

// open reports whether the proposal still waits for a decision.
func (p *proposalRow) open() bool {
	return p.Status == ProposalPending || p.Status == ProposalDeferred
}

// propose records a pending proposal and labels the fact it contradicts conflicted.
func (s *batchState) propose(e *eventloom.Event, pe *proposalEffect) {
	row := &proposalRow{Seq: e.Seq, Hash: e.Hash, Kind: pe.Kind, Status: ProposalPending, ProposedBy: e.Actor,
		ProposedAt: e.OccurredAt.UTC(), Fact: pe.Fact, Rationale: pe.Rationale, Evidence: []evidenceRef{}, dirty: true}
	if pe.Confidence != nil {
		c := float32(*pe.Confidence)
		row.Confidence = &c
	}
	seqs := slices.Clone(pe.Evidence)
	slices.Sort(seqs)
	for _, seq := range slices.Compact(seqs) {
		if seq < e.Seq { // only earlier events can be cited
			row.Evidence = append(row.Evidence, evidenceRef{Seq: seq, Hash: s.hashes[seq]})
		}
	}
	if pe.Inference != nil {
		seq, model, ord := pe.Inference.Seq, pe.Inference.Model, int32(pe.Inference.Ordinal)
		row.InferenceSeq, row.InferenceModel, row.InferenceOrdinal = &seq, &model, &ord
	}
	if pe.Contradicts != "" {
		id := pe.Contradicts
		row.Contradicts = &id
		if f := s.facts[id]; f != nil && f.Status == "current" {
			f.ReviewStatus = ReviewConflicted
			f.dirty = true
		}
	}
	s.proposals[row.Seq] = row
}

// decide applies a decision to an earlier proposal. A decision about an unknown proposal, or
// one already accepted or rejected, changes nothing (the review service never appends one).
func (s *batchState) decide(e *eventloom.Event, de *decisionEffect) {
	p := s.proposals[de.ProposalSeq]
	if p == nil || p.Seq >= e.Seq || !p.open() {
		return
	}
	seq, by, at := e.Seq, e.Actor, e.OccurredAt.UTC()
	p.Status, p.DecidedSeq, p.DecidedBy, p.DecidedAt = de.Status, &seq, &by, &at
	p.Reason = nil
	if de.Reason != "" {
		r := de.Reason
		p.Reason = &r
	}
	p.dirty = true
	if p.Contradicts == nil {
		return
	}
	f := s.facts[*p.Contradicts]
	if f == nil || f.Status != "current" {
		return
	}
	switch de.Status {
	case ProposalAccepted:
		f.ReviewStatus = ReviewRejected
	case ProposalRejected:
		if !s.contested(f.FactID) {
			f.ReviewStatus = ReviewAccepted
		}
	}
	f.dirty = true
}

// contested reports whether an open proposal contradicts the fact.
func (s *batchState) contested(factID string) bool {
	for _, p := range s.proposals {
		if p.open() && p.Contradicts != nil && *p.Contradicts == factID {
			return true
		}
	}
	return false
}

// citeProposal adds an accepted proposal and its evidence to the citations of the fact that
// accepting it asserted (row, new or confirmed), and links the proposal to the fact.
func (s *batchState) citeProposal(e *eventloom.Event, row *factRow, proposalSeq int64) {
	p := s.proposals[proposalSeq]
	if p == nil || p.Seq >= e.Seq {
		return
	}
	row.Evidence = append(row.Evidence, evidenceRef{Seq: p.Seq, Hash: p.Hash})
	row.Evidence = append(row.Evidence, p.Evidence...)
	if p.Status == ProposalAccepted {
		row.ReviewStatus = ReviewAccepted
		if p.FactID == nil {
			id := row.FactID
			p.FactID = &id
			p.dirty = true
		}
	}
	row.dirty = true
}

// loadProposals reads the proposals a batch may decide or cite, the proposals contesting the
// same facts, and the hashes of the events new proposals cite. It returns the ids of the facts
// the proposals contest, which the batch must load too.
func (s *batchState) loadProposals(ctx context.Context, tx pgx.Tx, fxs []effects) ([]string, error) {
	var seqs, cited []int64
	var factIDs []string
	for i := range fxs {
		fx := &fxs[i]
		if fx.Decision != nil {
			seqs = append(seqs, fx.Decision.ProposalSeq)
		}
		for _, a := range fx.Asserts {
			if a.ProposalSeq != nil {
				seqs = append(seqs, *a.ProposalSeq)
			}
		}
		if fx.Proposal != nil {
			cited = append(cited, fx.Proposal.Evidence...)
			if fx.Proposal.Contradicts != "" {
				factIDs = append(factIDs, fx.Proposal.Contradicts)
			}
		}
	}
	if len(cited) > 0 {
		rows, err := queries.EventHashes(ctx, tx, dbsqlc.EventHashesParams{SpaceID: s.space, Seqs: cited})
		if err != nil {
			return nil, fmt.Errorf("load cited events: %w", err)
		}
		for _, r := range rows {
			s.hashes[r.Seq] = r.Hash
		}
	}
	if len(seqs) == 0 && len(factIDs) == 0 {
		return factIDs, nil
	}
	rows, err := queries.ProposalsLoad(ctx, tx, dbsqlc.ProposalsLoadParams{SpaceID: s.space, Seqs: seqs, FactIds: factIDs})
	if err != nil {
		return nil, fmt.Errorf("load proposals: %w", err)
	}
	for _, r := range rows {
		p := &proposalRow{Seq: r.Seq, Hash: r.Hash, Kind: r.Kind, Status: r.Status, ProposedBy: r.ProposedBy,
			ProposedAt: r.ProposedAt.UTC(), Confidence: r.Confidence, Contradicts: r.Contradicts,
			InferenceSeq: r.InferenceSeq, InferenceModel: r.InferenceModel, InferenceOrdinal: r.InferenceOrdinal,
			Rationale: r.Rationale, DecidedSeq: r.DecidedSeq, DecidedBy: r.DecidedBy, DecidedAt: r.DecidedAt,
			Reason: r.Reason, FactID: r.FactID}
		if r.Fact != "" {
			p.Fact = []byte(r.Fact)
		}
		if err := json.Unmarshal([]byte(r.Evidence), &p.Evidence); err != nil {
			return nil, fmt.Errorf("proposal %d evidence: %w", p.Seq, err)
		}
		s.proposals[p.Seq] = p
		if p.Contradicts != nil {
			factIDs = append(factIDs, *p.Contradicts)
		}
	}
	return factIDs, nil
}

// queueProposals writes the proposals the batch created or changed, in seq order.
func (s *batchState) queueProposals(b *pgx.Batch) {
	var rows []*proposalRow
	for _, p := range s.proposals {
		if p.dirty {
			rows = append(rows, p)
		}
	}
	slices.SortFunc(rows, func(a, b *proposalRow) int { return int(a.Seq - b.Seq) })
	for _, p := range rows {
		var fact *string
		if p.Fact != nil {
			f := string(p.Fact)
			fact = &f
		}
		ev, err := json.Marshal(p.Evidence)
		if err != nil {
			panic(err)
		}
		dbsqlc.QueueProposalUpsert(b, dbsqlc.ProposalUpsertParams{SpaceID: s.space, Seq: p.Seq, Hash: p.Hash, Kind: p.Kind,
			Status: p.Status, ProposedBy: p.ProposedBy, ProposedAt: p.ProposedAt, Confidence: p.Confidence,
			Evidence: string(ev), Fact: fact, Contradicts: p.Contradicts, InferenceSeq: p.InferenceSeq,
			InferenceModel: p.InferenceModel, InferenceOrdinal: p.InferenceOrdinal, Rationale: p.Rationale,
			DecidedSeq: p.DecidedSeq, DecidedBy: p.DecidedBy, DecidedAt: p.DecidedAt, Reason: p.Reason, FactID: p.FactID})
	}
}
