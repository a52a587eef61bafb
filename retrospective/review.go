package retrospective

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/retrospective/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// DefaultApplyConfidence is the least confidence a space in mode apply applies at once when
// its retrospective.configured names none.
const DefaultApplyConfidence = 0.8

// Mode is how the pass records the feedback and confidence revisions of one outcome: the
// space's latest retrospective.configured before the outcome (docs/latent.md, "Review of the
// pass's judgements").
type Mode struct {
	// Apply is true in mode apply: a judgement of confidence at least MinConfidence is
	// appended at once; every other judgement is proposed for review.
	Apply         bool
	MinConfidence float64
	// Seq is the retrospective.configured event's seq (0: the default, review).
	Seq int64
}

// applies reports whether a judgement of confidence c is appended at once.
func (m Mode) applies(c float64) bool { return m.Apply && c >= m.MinConfidence }

// readMode reads the mode in force for the outcome at seq.
func readMode(ctx context.Context, tx pgx.Tx, space string, seq int64) (Mode, error) {
	rows, err := queries.RetrospectiveConfiguration(ctx, tx, dbsqlc.RetrospectiveConfigurationParams{SpaceID: space, BeforeSeq: seq})
	if err != nil {
		return Mode{}, fmt.Errorf("read retrospective configuration: %w", err)
	}
	if len(rows) == 0 {
		return Mode{}, nil
	}
	var d vocab.RetrospectiveConfigured
	if err := json.Unmarshal([]byte(rows[0]), &d); err != nil || d.Mode != vocab.RetrospectiveApply {
		return Mode{}, nil // review, the default; a configuration that does not decode changes nothing
	}
	m := Mode{Apply: true, MinConfidence: DefaultApplyConfidence}
	if d.MinConfidence != nil {
		m.MinConfidence = *d.MinConfidence
	}
	return m, nil
}

// emit appends one judgement under key: the event itself (typ, data) when the mode applies
// judgements of its confidence, else a proposal.created of kind (feedback or
// confidence_revision) proposing it, citing evidence, which review decides like any other
// (accepting appends the event). It reports 1 when it appended, 0 on a re-run.
func (a *Assigner) emit(ctx context.Context, tx pgx.Tx, space, session, key string, m Mode, confidence float64,
	typ string, data json.RawMessage, evidence []int64, rationale string) (int, error) {
	if m.applies(confidence) {
		return a.appendKeyed(ctx, tx, space, key, eventloom.NewEvent{Type: typ, SessionID: session, Actor: Actor, Data: data})
	}
	p := vocab.ProposalCreated{Evidence: sortedSet(slices.Clone(evidence)), Confidence: &confidence, Rationale: rationale}
	switch typ {
	case vocab.TypeFeedbackRecorded:
		p.Kind, p.Feedback = vocab.ProposalFeedback, data
	case vocab.TypeMemoryConfidenceRevised:
		p.Kind, p.Revision = vocab.ProposalConfidenceRevision, data
	default:
		return 0, fmt.Errorf("propose %s: not a judgement", typ)
	}
	body, err := json.Marshal(p)
	if err != nil {
		return 0, err
	}
	return a.appendKeyed(ctx, tx, space, key, eventloom.NewEvent{Type: vocab.TypeProposalCreated, SessionID: session, Actor: Actor, Data: body})
}
