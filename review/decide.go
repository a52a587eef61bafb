package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/review/internal/dbsqlc"
	"github.com/zaxy/zaxy/validation"
	"github.com/zaxy/zaxy/vocab"
)

// Decisions a reviewer can make, and the event type each appends.
const (
	DecisionAccept = "accept"
	DecisionReject = "reject"
	DecisionDefer  = "defer"
)

var decisionTypes = map[string]string{
	DecisionAccept: vocab.TypeProposalAccepted,
	DecisionReject: vocab.TypeProposalRejected,
	DecisionDefer:  vocab.TypeProposalDeferred,
}

// DecideParams is one decision about a proposal.
type DecideParams struct {
	// SpaceID and ProposalSeq name the proposal.
	SpaceID     string
	ProposalSeq int64
	// Decision is accept, reject or defer.
	Decision string
	// Actor is who decides (the events' actor); SessionID, optional, their session.
	Actor     string
	SessionID string
	// Reason says why, optional.
	Reason string
}

// Decider decides proposals by appending to the log.
type Decider struct {
	db    pgexec.Executor
	store *eventloom.Store
}

// NewDecider returns a Decider that reads through db and appends through store (whose
// outbox, if any, enqueues the projection of what it appends).
func NewDecider(db pgexec.Executor, store *eventloom.Store) *Decider {
	return &Decider{db: db, store: store}
}

// Decide appends the decision about a proposal, and when it accepts a belief_update, feedback
// or confidence_revision the event it proposes (data.proposal_seq naming the proposal), or
// for a skill, failure_prior or procedure_revision the skill.recorded entry it makes
// (skill.go), in one transaction. It
// reads whether the proposal is open from the log under the space's chain lock, never from a
// lagging projection: an unknown proposal is ErrProposalNotFound, an accepted or rejected one
// ErrNotPending, and neither appends anything. A deferred proposal can be decided again.
func (d *Decider) Decide(ctx context.Context, p DecideParams) (*Decision, error) {
	typ, ok := decisionTypes[p.Decision]
	if !ok {
		return nil, &validation.Error{Field: "decision", Message: fmt.Sprintf("must be accept, reject or defer, got %q", p.Decision)}
	}
	if p.ProposalSeq < 1 {
		return nil, &validation.Error{Field: "proposal_seq", Message: "must be a positive integer"}
	}
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	var out *Decision
	err := pgx.BeginFunc(ctx, d.db, func(tx pgx.Tx) error {
		if err := eventloom.LockChain(ctx, tx, p.SpaceID); err != nil {
			return fmt.Errorf("lock space: %w", err)
		}
		st, err := queries.ProposalState(ctx, tx, dbsqlc.ProposalStateParams{SpaceID: p.SpaceID, Seq: p.ProposalSeq})
		if errors.Is(err, pgx.ErrNoRows) || (err == nil && ((st.Type != vocab.TypeProposalCreated && st.DerivedFact == "") || st.Erased)) {
			return fmt.Errorf("%w: seq %d of space %q is not a proposal", ErrProposalNotFound, p.ProposalSeq, p.SpaceID)
		}
		if err != nil {
			return fmt.Errorf("read proposal: %w", err)
		}
		status := st.ProjectedStatus
		switch st.TailDecision {
		case vocab.TypeProposalAccepted:
			status = StatusAccepted
		case vocab.TypeProposalRejected:
			status = StatusRejected
		}
		if status == StatusAccepted || status == StatusRejected {
			return fmt.Errorf("%w: proposal %d was already %s", ErrNotPending, p.ProposalSeq, status)
		}
		data := []byte(st.Data)
		if st.DerivedFact != "" {
			// A typed statement the projector turned into a proposal: accepting it asserts the
			// statement's fact as the projection recorded it.
			data = []byte(`{"kind":"` + vocab.ProposalBeliefUpdate + `","fact":` + st.DerivedFact + `}`)
		}
		events, err := decisionEvents(typ, p, data)
		if err != nil {
			return err
		}
		if typ == vocab.TypeProposalAccepted && st.DerivedFact == "" {
			skill, err := skillEntry(ctx, tx, p, data)
			if err != nil {
				return err
			}
			if skill != nil {
				events = append(events, *skill)
			}
		}
		res, err := d.store.AppendTx(ctx, tx, &eventloom.AppendParams{SpaceID: p.SpaceID, Events: events})
		if err != nil {
			return err
		}
		out = &Decision{ProposalSeq: p.ProposalSeq, Status: map[string]string{
			DecisionAccept: StatusAccepted, DecisionReject: StatusRejected, DecisionDefer: StatusDeferred}[p.Decision],
			Events: res.Receipts}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// decisionEvents are the events a decision appends: the decision itself, and for an accepted
// belief_update, feedback or confidence_revision the event it proposes (fact.asserted,
// feedback.recorded, memory.confidence_revised), its data.proposal_seq naming the proposal.
func decisionEvents(typ string, p DecideParams, proposalData []byte) ([]eventloom.NewEvent, error) {
	data, err := json.Marshal(vocab.ProposalDecided{ProposalSeq: p.ProposalSeq, Reason: p.Reason})
	if err != nil {
		return nil, err
	}
	events := []eventloom.NewEvent{{Type: typ, SessionID: p.SessionID, Actor: p.Actor, Data: data}}
	if typ != vocab.TypeProposalAccepted {
		return events, nil
	}
	var proposal struct {
		Kind     string                     `json:"kind"`
		Fact     map[string]json.RawMessage `json:"fact"`
		Feedback map[string]json.RawMessage `json:"feedback"`
		Revision map[string]json.RawMessage `json:"revision"`
	}
	if err := json.Unmarshal(proposalData, &proposal); err != nil {
		return nil, fmt.Errorf("read proposal %d: %w", p.ProposalSeq, err)
	}
	var typ2 string
	var proposed map[string]json.RawMessage
	switch proposal.Kind {
	case vocab.ProposalBeliefUpdate:
		typ2, proposed = vocab.TypeFactAsserted, proposal.Fact
	case vocab.ProposalFeedback:
		typ2, proposed = vocab.TypeFeedbackRecorded, proposal.Feedback
	case vocab.ProposalConfidenceRevision:
		typ2, proposed = vocab.TypeMemoryConfidenceRevised, proposal.Revision
	}
	if proposed == nil {
		return events, nil
	}
	proposed["proposal_seq"] = json.RawMessage(strconv.FormatInt(p.ProposalSeq, 10))
	data, err = json.Marshal(proposed)
	if err != nil {
		return nil, err
	}
	return append(events, eventloom.NewEvent{Type: typ2, SessionID: p.SessionID, Actor: p.Actor, Data: data}), nil
}
