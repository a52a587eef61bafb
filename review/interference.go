package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/review/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// Statement is one inferred statement: what a model said about an event's text.
type Statement struct {
	Subject, Predicate, Object string
	// Confidence is the model's, 0 when it gave none.
	Confidence float64
}

// InterferenceActor is the actor of the proposals interference detection appends.
const InterferenceActor = "zaxy:interference"

// Interference compares the statements a model inferred from the event at seq (in order,
// ordinal 1 first) with the space's current facts, in tx. A statement that names a current
// fact's subject and predicate with another object or value contradicts it; when Precedence
// says the fact stands (an inferred statement against an asserted fact), it appends one
// proposal.created of kind belief_update through store: the statement as the proposed fact,
// the event as evidence, the fact as data.contradicts and the statement as data.inference.
// The projector then labels both conflicted until the proposal is decided. It returns the
// receipts of what it appended.
func Interference(ctx context.Context, tx pgx.Tx, store *eventloom.Store, space string, seq int64, model string, stmts []Statement) ([]eventloom.Receipt, error) {
	var events []eventloom.NewEvent
	for i, st := range stmts {
		subject, predicate, object := graph.Key(st.Subject), graph.Key(st.Predicate), graph.Key(st.Object)
		if subject == "" || predicate == "" || object == "" {
			continue
		}
		cur, err := queries.CurrentFact(ctx, tx, dbsqlc.CurrentFactParams{SpaceID: space, SubjectID: graph.EntityID(space, subject), Predicate: predicate})
		if errors.Is(err, pgx.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("interference: read current fact: %w", err)
		}
		if cur.Target == object || Precedence(Claim{Authority: AuthorityInferred}, Claim{Authority: cur.Authority}) != VerdictPropose {
			continue
		}
		obj := st.Object
		d := vocab.ProposalCreated{
			Kind: vocab.ProposalBeliefUpdate, Evidence: []int64{seq},
			Fact:        &vocab.FactAsserted{Subject: st.Subject, Predicate: st.Predicate, Object: &obj},
			Contradicts: cur.FactID,
			Inference:   &vocab.InferenceRef{Seq: seq, Model: model, Ordinal: i + 1},
			Rationale:   fmt.Sprintf("%s inferred this from event %d; it contradicts the current %s fact %s", model, seq, cur.Authority, cur.FactID),
		}
		if st.Confidence > 0 && st.Confidence <= 1 {
			c := st.Confidence
			d.Confidence = &c
		}
		data, err := json.Marshal(d)
		if err != nil {
			return nil, err
		}
		events = append(events, eventloom.NewEvent{Type: vocab.TypeProposalCreated, Actor: InterferenceActor, Data: data})
	}
	if len(events) == 0 {
		return nil, nil
	}
	res, err := store.AppendTx(ctx, tx, &eventloom.AppendParams{SpaceID: space, Events: events})
	if err != nil {
		return nil, fmt.Errorf("interference: append proposals: %w", err)
	}
	return res.Receipts, nil
}
