package memoryaction

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryaction/internal/dbsqlc"
	"github.com/zaxy/zaxy/review"
	"github.com/zaxy/zaxy/validation"
	"github.com/zaxy/zaxy/vocab"
)

// Who is who appends a memory action's event, and the request's idempotency key.
type Who struct {
	// Actor is the event's actor; defaults to "agent".
	Actor string
	// SessionID, optional, is the session the action belongs to.
	SessionID string
	// IdempotencyKey, optional, makes a retry with the same body return the first receipt.
	IdempotencyKey string
}

// append appends one event of an action.
func (a *Actions) append(ctx context.Context, action, space string, who Who, ev eventloom.NewEvent) (*Appended, error) {
	if who.Actor == "" {
		who.Actor = defaultActor
	}
	ev.Actor, ev.SessionID = who.Actor, who.SessionID
	res, err := a.store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{ev}, IdempotencyKey: who.IdempotencyKey})
	if err != nil {
		return nil, err
	}
	return &Appended{Action: action, Event: res.Receipts[0], Type: ev.Type, Replayed: res.Replayed}, nil
}

// checkSeqs checks that every seq names an event of the space that is not erased (and, when
// types is not nil, of one of types), naming field[i] of the first that does not.
func (a *Actions) checkSeqs(ctx context.Context, space, field string, seqs []int64, types []string) error {
	if len(seqs) > maxEvidence {
		return &validation.Error{Field: field, Message: fmt.Sprintf("may list at most %d seqs", maxEvidence)}
	}
	for i, s := range seqs {
		if s < 1 {
			return &validation.Error{Field: fmt.Sprintf("%s[%d]", field, i), Message: "must be a positive integer"}
		}
	}
	if len(seqs) == 0 {
		return nil
	}
	rows, err := queries.EventRefs(ctx, a.db, dbsqlc.EventRefsParams{SpaceID: space, Seqs: seqs})
	if err != nil {
		return fmt.Errorf("read cited events: %w", err)
	}
	found := map[int64]dbsqlc.EventRefsRow{}
	for _, r := range rows {
		found[r.Seq] = r
	}
	for i, s := range seqs {
		r, ok := found[s]
		switch {
		case !ok:
			return &validation.Error{Field: fmt.Sprintf("%s[%d]", field, i), Message: fmt.Sprintf("no event %d in this space", s)}
		case r.Erased:
			return &validation.Error{Field: fmt.Sprintf("%s[%d]", field, i), Message: fmt.Sprintf("event %d is erased", s)}
		case types != nil && !slices.Contains(types, r.Type):
			return &validation.Error{Field: fmt.Sprintf("%s[%d]", field, i), Message: fmt.Sprintf("event %d is a %s, not one a memory action appends (%s)", s, r.Type, strings.Join(types, ", "))}
		}
	}
	return nil
}

// ProposeParams is a change to memory to put up for review.
type ProposeParams struct {
	SpaceID string
	// Kind is belief_update (Fact required) or consolidation.
	Kind string
	// Evidence are the seqs of the events the proposal rests on (at least one).
	Evidence []int64
	// Fact is the fact a belief_update proposes, shaped as fact.asserted data.
	Fact *vocab.FactAsserted
	// ArtifactID, optional for a consolidation, names the current artifact it proposes to
	// consolidate; its slot and id go into data.artifact.
	ArtifactID string
	Confidence *float64
	Rationale  string
	Who
}

// ProposeMemoryUpdate is propose_memory_update: it appends one proposal.created (kind
// belief_update or consolidation) through the review package, citing evidence that exists in
// the space. Accepting it is the ordinary review flow.
func (a *Actions) ProposeMemoryUpdate(ctx context.Context, p ProposeParams) (*Appended, error) {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	if p.Kind != vocab.ProposalBeliefUpdate && p.Kind != vocab.ProposalConsolidation {
		return nil, &validation.Error{Field: "kind", Message: fmt.Sprintf("must be belief_update or consolidation, got %q", p.Kind)}
	}
	if len(p.Evidence) == 0 {
		return nil, &validation.Error{Field: "evidence", Message: "must list the seqs of the events the proposal rests on"}
	}
	if p.Kind == vocab.ProposalBeliefUpdate && p.Fact == nil {
		return nil, &validation.Error{Field: "fact", Message: "is required for a belief_update: the fact it proposes, shaped as fact.asserted data"}
	}
	if p.Kind != vocab.ProposalBeliefUpdate && p.Fact != nil {
		return nil, &validation.Error{Field: "fact", Message: "is only allowed for a belief_update"}
	}
	if p.Confidence != nil && (*p.Confidence < 0 || *p.Confidence > 1) {
		return nil, &validation.Error{Field: "confidence", Message: "must be a number between 0 and 1"}
	}
	if err := text("rationale", p.Rationale, maxTextChars); err != nil {
		return nil, err
	}
	if err := a.checkSeqs(ctx, p.SpaceID, "evidence", p.Evidence, nil); err != nil {
		return nil, err
	}
	d := vocab.ProposalCreated{Kind: p.Kind, Evidence: p.Evidence, Confidence: p.Confidence, Fact: p.Fact, Rationale: p.Rationale}
	if p.ArtifactID != "" {
		if p.Kind != vocab.ProposalConsolidation {
			return nil, &validation.Error{Field: "artifact_id", Message: "is only allowed for a consolidation"}
		}
		art, err := a.artifact(ctx, p.SpaceID, p.ArtifactID)
		if err != nil {
			return nil, err
		}
		d.Artifact = &vocab.ArtifactRef{Key: art.Slot, ID: art.ArtifactID}
	}
	if p.Actor == "" {
		p.Actor = defaultActor
	}
	res, err := review.Propose(ctx, a.store, review.ProposeParams{SpaceID: p.SpaceID, Proposal: d, Actor: p.Actor,
		SessionID: p.SessionID, IdempotencyKey: p.IdempotencyKey})
	if err != nil {
		return nil, fieldsUnderData(err)
	}
	return &Appended{Action: ActionProposeMemoryUpdate, Event: res.Receipts[0], Type: vocab.TypeProposalCreated, Replayed: res.Replayed}, nil
}

// fieldsUnderData renames a validation error of the appended event's data ("data.fact.subject")
// to the request field it came from ("fact.subject").
func fieldsUnderData(err error) error {
	var ve *validation.Error
	if errors.As(err, &ve) {
		return &validation.Error{Field: strings.TrimPrefix(ve.Field, "data."), Message: ve.Message}
	}
	return err
}

// artifact reads one current artifact, or ErrArtifactNotFound.
func (a *Actions) artifact(ctx context.Context, space, id string) (*dbsqlc.ArtifactGetRow, error) {
	if id == "" {
		return nil, &validation.Error{Field: "artifact_id", Message: "is required"}
	}
	r, err := queries.ArtifactGet(ctx, a.db, dbsqlc.ArtifactGetParams{SpaceID: space, ArtifactID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: no current artifact %q in space %q (stale, superseded or never built)", ErrArtifactNotFound, id, space)
	}
	if err != nil {
		return nil, fmt.Errorf("read artifact: %w", err)
	}
	return &r, nil
}

// ReviseParams is a new confidence for one artifact.
type ReviseParams struct {
	SpaceID    string
	ArtifactID string
	// Confidence is the new confidence, 0 to 1.
	Confidence float64
	// Reason, required, says why.
	Reason string
	// Evidence, optional, are the seqs of the events that justify it.
	Evidence []int64
	Who
}

// ReviseConfidence is revise_confidence: it appends one memory.confidence_revised naming a
// current artifact (slot and id), the new confidence, the reason and the evidence. The
// artifact row is left as the producers derived it; the memory actions rank the artifact by
// its latest revision (read from the log), so the log stays the only truth and a rebuild
// changes nothing. Previous in the answer is the confidence it was ranked by before.
func (a *Actions) ReviseConfidence(ctx context.Context, p ReviseParams) (*Appended, error) {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	if p.Confidence < 0 || p.Confidence > 1 {
		return nil, &validation.Error{Field: "confidence", Message: "must be a number between 0 and 1"}
	}
	if strings.TrimSpace(p.Reason) == "" {
		return nil, &validation.Error{Field: "reason", Message: "is required: say why the confidence changes"}
	}
	if err := text("reason", p.Reason, maxTextChars); err != nil {
		return nil, err
	}
	art, err := a.artifact(ctx, p.SpaceID, p.ArtifactID)
	if err != nil {
		return nil, err
	}
	if err := a.checkSeqs(ctx, p.SpaceID, "evidence", p.Evidence, nil); err != nil {
		return nil, err
	}
	prev := float64(art.Confidence)
	revs, err := a.revisions(ctx, p.SpaceID, []string{art.ArtifactID})
	if err != nil {
		return nil, err
	}
	if r, ok := revs[art.ArtifactID]; ok {
		prev = r.Confidence
	}
	data, err := json.Marshal(vocab.MemoryConfidenceRevised{Artifact: vocab.ArtifactRef{Key: art.Slot, ID: art.ArtifactID, SourcesSHA256: vocab.SourcesDigest(art.SourceSeqs)},
		Confidence: p.Confidence, Reason: p.Reason, Evidence: p.Evidence})
	if err != nil {
		return nil, err
	}
	out, err := a.append(ctx, ActionReviseConfidence, p.SpaceID, p.Who, eventloom.NewEvent{Type: vocab.TypeMemoryConfidenceRevised, Data: data})
	if err != nil {
		return nil, fieldsUnderData(err)
	}
	if !out.Replayed {
		out.Previous = &prev
	}
	return out, nil
}

// KnownUnknownParams is a question memory could not answer.
type KnownUnknownParams struct {
	SpaceID string
	// Question, required, is what is not known (at most 4000 characters).
	Question string
	// Context, optional, says where it came up.
	Context string
	// Evidence, optional, are the seqs of the events that showed the gap.
	Evidence []int64
	Who
}

// RecordKnownUnknown is record_known_unknown: it appends one memory.known_unknown whose
// content is the question, so the projector keeps it as a memory item that checkout and
// query find like any other; simulate_forward and reflect_backward list it too.
func (a *Actions) RecordKnownUnknown(ctx context.Context, p KnownUnknownParams) (*Appended, error) {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	q := strings.TrimSpace(p.Question)
	if q == "" {
		return nil, &validation.Error{Field: "question", Message: "is required: what is not known"}
	}
	if err := text("question", q, 4000); err != nil {
		return nil, err
	}
	if err := text("context", p.Context, maxTextChars); err != nil {
		return nil, err
	}
	if err := a.checkSeqs(ctx, p.SpaceID, "evidence", p.Evidence, nil); err != nil {
		return nil, err
	}
	data, err := json.Marshal(vocab.MemoryKnownUnknown{Question: q, Context: p.Context, Evidence: p.Evidence})
	if err != nil {
		return nil, err
	}
	out, err := a.append(ctx, ActionRecordKnownUnknown, p.SpaceID, p.Who, eventloom.NewEvent{Type: vocab.TypeMemoryKnownUnknown, Content: q, Data: data})
	return out, fieldsUnderDataOrNil(err)
}

func fieldsUnderDataOrNil(err error) error {
	if err == nil {
		return nil
	}
	return fieldsUnderData(err)
}

// ScoreParams judges one memory action.
type ScoreParams struct {
	SpaceID string
	// Action is the name of the memory action judged (vocab.MemoryActions).
	Action string
	// ActionSeq is the event the action appended (a proposal.created, a
	// memory.confidence_revised, a memory.known_unknown or a feedback.recorded), when it
	// appended one.
	ActionSeq int64
	// CitedSeqs are events a reading action's answer cited that the judgement is about.
	CitedSeqs []int64
	// Signal is helpful, unhelpful, wrong or outdated.
	Signal  string
	Comment string
	Who
}

// actionEventTypes are the types of event a memory action appends.
var actionEventTypes = []string{vocab.TypeProposalCreated, vocab.TypeMemoryConfidenceRevised, vocab.TypeMemoryKnownUnknown,
	vocab.TypeFeedbackRecorded, vocab.TypeCheckoutSurfaced, vocab.TypeMemoryActionSurfaced}

// ScoreMemoryAction is score_memory_action: it appends one feedback.recorded judging a memory
// action, data.memory_action naming the action (and the event it appended), target_seqs that
// event and the cited events judged. Like any feedback it reinforces only the items it names.
func (a *Actions) ScoreMemoryAction(ctx context.Context, p ScoreParams) (*Appended, error) {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	if !slices.Contains(vocab.MemoryActions, p.Action) {
		return nil, &validation.Error{Field: "action", Message: fmt.Sprintf("must be one of %s, got %q", strings.Join(vocab.MemoryActions, ", "), p.Action)}
	}
	if !slices.Contains(vocab.FeedbackSignal, p.Signal) {
		return nil, &validation.Error{Field: "signal", Message: fmt.Sprintf("must be one of %s, got %q", strings.Join(vocab.FeedbackSignal, ", "), p.Signal)}
	}
	if p.ActionSeq < 0 {
		return nil, &validation.Error{Field: "action_seq", Message: "must be a positive integer"}
	}
	if p.ActionSeq == 0 && len(p.CitedSeqs) == 0 {
		return nil, &validation.Error{Field: "action_seq", Message: "is required (or give cited_seqs, the events a reading action cited)"}
	}
	if err := text("comment", p.Comment, maxTextChars); err != nil {
		return nil, err
	}
	ref := &vocab.MemoryActionRef{Action: p.Action}
	var targets []int64
	if p.ActionSeq > 0 {
		if err := a.checkSeqs(ctx, p.SpaceID, "action_seq", []int64{p.ActionSeq}, actionEventTypes); err != nil {
			var ve *validation.Error
			if errors.As(err, &ve) {
				ve.Field = "action_seq"
			}
			return nil, err
		}
		seq := p.ActionSeq
		ref.Seq = &seq
		targets = append(targets, seq)
	}
	if err := a.checkSeqs(ctx, p.SpaceID, "cited_seqs", p.CitedSeqs, nil); err != nil {
		return nil, err
	}
	for _, s := range p.CitedSeqs {
		if !slices.Contains(targets, s) {
			targets = append(targets, s)
		}
	}
	data, err := json.Marshal(vocab.FeedbackRecorded{TargetSeqs: targets, Signal: p.Signal, Comment: p.Comment, MemoryAction: ref})
	if err != nil {
		return nil, err
	}
	out, err := a.append(ctx, ActionScoreMemoryAction, p.SpaceID, p.Who, eventloom.NewEvent{Type: vocab.TypeFeedbackRecorded, Data: data})
	return out, fieldsUnderDataOrNil(err)
}
