package projection

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"time"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/memoryitem"
)

// evidenceRef cites an event by seq and hash.
type evidenceRef struct {
	Seq  int64          `json:"seq"`
	Hash eventloom.Hash `json:"hash"`
}

// entityRow is an entities row as the projector holds it while applying a batch.
type entityRow struct {
	EntityID       string
	Key            string
	Name           string
	Kinds          []string
	Version        int32
	FirstSeq       int64
	LastSeq        int64
	Mentions       int32
	InvalidatedSeq *int64
	stored, dirty  bool
	// loadedVersion is Version as loaded, to tell whether the graph mirror needs an update.
	loadedVersion int32
}

// factRow is a facts row as the projector holds it while applying a batch.
type factRow struct {
	FactID       string
	SubjectID    string
	Predicate    string
	ObjectID     *string
	Value        []byte
	Version      int32
	ValidFrom    time.Time
	ValidTo      *time.Time
	RecordedSeq  int64
	RecordedHash []byte
	ClosedSeq    *int64
	Status       string
	SupersededBy *string
	Authority    string
	Inferred     bool
	Confidence   *float64
	Evidence     []evidenceRef
	CloseReason  *string
	ReviewStatus string
	stored       bool
	dirty        bool
}

// mentionRow is a mentions row. The event's hash is not repeated in it: events has it by
// (space_id, seq).
type mentionRow struct {
	Seq        int64
	Start, End int32
	EntityID   string
	Kind       string
}

// invalidationRow is an invalidations row.
type invalidationRow struct {
	TargetSeq int64
	Seq       int64
	Hash      []byte
	Reason    string
}

// itemRow is a memory_items row.
type itemRow struct {
	ItemID     string
	Kind       string
	Seq        int64
	EventType  string
	SessionID  string
	OccurredAt time.Time
	Text       string
	// IsContent is whether Text is its event's content (seq's events.content): memory_items
	// then stores NULL and readers take the event's content (coalesce(m.text, e.content)).
	IsContent bool
	// RedundantOf is the ranked item the encoding gate found this one repeats (gate.go).
	RedundantOf *string
}

// pairKey identifies the versions of one (subject, predicate).
type pairKey struct{ SubjectID, Predicate string }

// batchState is the slice of the projections one batch of events touches, loaded before the
// batch is applied and written back after it, so a batch costs a few round trips.
type batchState struct {
	space       string
	entities    map[string]*entityRow // by key
	entityByID  map[string]*entityRow
	facts       map[string]*factRow // by fact_id
	current     map[pairKey]*factRow
	maxVersion  map[pairKey]int32
	mentions    []mentionRow
	invalidated []invalidationRow
	items       []itemRow
	newFacts    []*factRow
	proposals   map[int64]*proposalRow // by seq
	hashes      map[int64][]byte       // of the events new proposals cite, by seq
	salience    salienceState
	gate        gateState
	// claims are the pin and feedback state of fact items, for Precedence (interference.go).
	claims map[string]*claimState
	// fb is what feedback needs from earlier batches (feedback.go).
	fb feedbackState
	// gateTexts are the words and keys of the batch's event items, by position in the batch,
	// when the gate may apply to it (nil otherwise).
	gateTexts []*gateText
	policies  []*policyOp
	// weaveCitations are the batch's latent_weave_citations rows (weave_citations.go).
	weaveCitations []weaveCitation
}

func newBatchState(space string) *batchState {
	return &batchState{
		space:      space,
		entities:   map[string]*entityRow{},
		entityByID: map[string]*entityRow{},
		facts:      map[string]*factRow{},
		current:    map[pairKey]*factRow{},
		maxVersion: map[pairKey]int32{},
		proposals:  map[int64]*proposalRow{},
		claims:     map[string]*claimState{},
		hashes:     map[int64][]byte{},
	}
}

// EntityID is the stable id of the entity with key in space: the same on every rebuild
// (graph.EntityID).
func EntityID(space, key string) string { return graph.EntityID(space, key) }

// factID is the stable id of the n-th fact an event asserts about (subject, predicate).
func factID(space string, seq int64, n int, subjectID, predicate string) string {
	sum := sha256.Sum256([]byte(space + "\x00" + strconv.FormatInt(seq, 10) + "\x00" + strconv.Itoa(n) + "\x00" + subjectID + "\x00" + predicate))
	return "f" + hex.EncodeToString(sum[:10])
}

// touchEntity returns the entity for ref, creating it at e when it is new, and records that e
// refers to it.
func (s *batchState) touchEntity(ref entityRef, e *eventloom.Event) *entityRow {
	row, ok := s.entities[ref.Key]
	if !ok {
		row = &entityRow{
			EntityID: EntityID(s.space, ref.Key), Key: ref.Key, Name: ref.Name, Kinds: []string{ref.Kind},
			Version: 1, FirstSeq: e.Seq, LastSeq: e.Seq, dirty: true,
		}
		s.entities[ref.Key] = row
		s.entityByID[row.EntityID] = row
		return row
	}
	if !slices.Contains(row.Kinds, ref.Kind) {
		row.Kinds = append(row.Kinds, ref.Kind)
		slices.Sort(row.Kinds)
		row.Version++
	}
	if e.Seq > row.LastSeq {
		row.LastSeq = e.Seq
	}
	row.dirty = true
	return row
}

// apply applies one event's effects.
func (s *batchState) apply(i int, e *eventloom.Event, fx *effects) {
	for _, m := range fx.Mentions {
		ent := s.touchEntity(m.Entity, e)
		ent.Mentions++
		s.mentions = append(s.mentions, mentionRow{Seq: e.Seq, Start: int32(m.Start), End: int32(m.End), EntityID: ent.EntityID, Kind: m.Entity.Kind})
	}
	for i := range fx.Asserts {
		s.assert(e, i, &fx.Asserts[i])
	}
	for i := range fx.Retracts {
		s.retract(e, &fx.Retracts[i])
	}
	for i := range fx.Invalidations {
		s.invalidate(e, &fx.Invalidations[i])
	}
	if fx.Proposal != nil {
		s.propose(e, fx.Proposal)
	}
	if fx.Decision != nil {
		s.decide(e, fx.Decision)
	}
	for _, r := range fx.Reinforcements {
		s.reinforce(e, r.ItemID, r.Signal)
	}
	if fx.Feedback != nil {
		s.applyFeedback(e, fx.Feedback)
	}
	s.citeWeave(e, fx.Woven)
	if fx.SalienceConfig != nil {
		s.configure(e, fx.SalienceConfig)
	}
	if fx.GateConfig != nil {
		s.configureGate(e, fx.GateConfig)
	}
	if fx.Policy != nil {
		s.policies = append(s.policies, fx.Policy)
	}
	if fx.Text != "" {
		it := itemRow{
			ItemID: memoryitem.EventID(e.Seq), Kind: "event", Seq: e.Seq, EventType: e.Type,
			SessionID: e.SessionID, OccurredAt: e.OccurredAt, Text: fx.Text, IsContent: fx.Text == e.Content,
		}
		if of := s.gateItem(e, i); of != "" {
			it.RedundantOf = &of
		}
		s.items = append(s.items, it)
	}
}

func (s *batchState) assert(e *eventloom.Event, n int, a *factAssert) {
	subject := s.touchEntity(a.Subject, e)
	var objectID *string
	if a.Object != nil {
		obj := s.touchEntity(*a.Object, e)
		objectID = &obj.EntityID
	}
	key := pairKey{subject.EntityID, a.Predicate}
	ev := evidenceRef{Seq: e.Seq, Hash: e.Hash}
	if cur := s.current[key]; cur != nil && !sameTarget(cur.ObjectID, cur.Value, objectID, a.Value) && s.interferes(cur, a) {
		s.proposeAssertion(e, cur, a)
		return
	}
	if cur := s.current[key]; cur != nil {
		if sameTarget(cur.ObjectID, cur.Value, objectID, a.Value) {
			// The same value again: more evidence for the current version, nothing closed.
			cur.Evidence = append(cur.Evidence, ev)
			cur.dirty = true
			s.gateFact(e, cur, a)
			if a.ProposalSeq != nil {
				s.citeProposal(e, cur, *a.ProposalSeq)
			}
			return
		}
	}
	row := &factRow{
		FactID: factID(s.space, e.Seq, n, subject.EntityID, a.Predicate), SubjectID: subject.EntityID,
		Predicate: a.Predicate, ObjectID: objectID, Value: a.Value, Version: s.maxVersion[key] + 1,
		ValidFrom: a.ValidFrom.UTC(), ValidTo: a.ValidTo, RecordedSeq: e.Seq, RecordedHash: e.Hash,
		Status: "current", Authority: a.Authority, Inferred: a.Authority == AuthorityInferred,
		Confidence: a.Confidence, Evidence: []evidenceRef{ev}, ReviewStatus: ReviewUnreviewed, dirty: true,
	}
	if a.ProposalSeq != nil {
		s.citeProposal(e, row, *a.ProposalSeq)
	}
	if row.ValidTo != nil {
		t := row.ValidTo.UTC()
		if t.Before(row.ValidFrom) {
			t = row.ValidFrom
		}
		row.ValidTo = &t
	}
	if cur := s.current[key]; cur != nil {
		reason := "superseded"
		s.close(cur, e.Seq, "superseded", row.ValidFrom, &reason)
		cur.SupersededBy = &row.FactID
	}
	s.facts[row.FactID] = row
	s.newFacts = append(s.newFacts, row)
	s.current[key] = row
	s.maxVersion[key] = row.Version
	text := factText(subject.Name, a.Predicate, a.Object, a.Value)
	s.items = append(s.items, itemRow{
		ItemID: memoryitem.FactID(row.FactID), Kind: "fact", Seq: e.Seq, EventType: e.Type, SessionID: e.SessionID,
		OccurredAt: e.OccurredAt, Text: text, IsContent: text == e.Content,
	})
}

// close ends a current fact at seq, its validity ending at validTo unless it already ended.
func (s *batchState) close(f *factRow, seq int64, status string, validTo time.Time, reason *string) {
	f.Status = status
	f.ClosedSeq = &seq
	f.CloseReason = reason
	if f.ValidTo == nil || f.ValidTo.After(validTo) {
		t := validTo.UTC()
		if t.Before(f.ValidFrom) {
			t = f.ValidFrom
		}
		f.ValidTo = &t
	}
	f.dirty = true
	key := pairKey{f.SubjectID, f.Predicate}
	if s.current[key] == f {
		delete(s.current, key)
	}
}

func (s *batchState) retract(e *eventloom.Event, r *factRetract) {
	cur := s.current[pairKey{EntityID(s.space, r.Subject.Key), r.Predicate}]
	if cur == nil {
		return // nothing current to retract
	}
	if r.Object != nil {
		id := EntityID(s.space, r.Object.Key)
		if cur.ObjectID == nil || *cur.ObjectID != id {
			return
		}
	}
	if r.Value != nil && !bytes.Equal(cur.Value, r.Value) {
		return
	}
	reason := r.Reason
	if reason == "" {
		reason = "retracted"
	}
	s.touchEntity(r.Subject, e)
	s.close(cur, e.Seq, "retracted", e.OccurredAt, &reason)
}

func (s *batchState) invalidate(e *eventloom.Event, inv *invalidation) {
	reason := inv.Reason
	if inv.TargetSeq > 0 {
		if inv.TargetSeq >= e.Seq {
			return // only earlier events can be invalidated
		}
		s.invalidated = append(s.invalidated, invalidationRow{TargetSeq: inv.TargetSeq, Seq: e.Seq, Hash: e.Hash, Reason: reason})
		s.retractFeedback(inv.TargetSeq)
		s.reinforce(e, memoryitem.EventID(inv.TargetSeq), SignalInvalidated)
		for _, f := range s.sortedCurrent() {
			if f.RecordedSeq == inv.TargetSeq {
				s.close(f, e.Seq, "invalidated", e.OccurredAt, &reason)
			}
		}
		return
	}
	if f := s.facts[inv.TargetID]; f != nil {
		s.reinforce(e, memoryitem.FactID(f.FactID), SignalInvalidated)
		if f.Status == "current" {
			s.close(f, e.Seq, "invalidated", e.OccurredAt, &reason)
		}
		return
	}
	if ent := s.entityByID[inv.TargetID]; ent != nil && ent.InvalidatedSeq == nil {
		seq := e.Seq
		ent.InvalidatedSeq = &seq
		ent.Version++
		ent.dirty = true
	}
}

// sortedCurrent returns the current facts in fact_id order, for deterministic iteration.
func (s *batchState) sortedCurrent() []*factRow {
	out := make([]*factRow, 0, len(s.current))
	for _, f := range s.current {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b *factRow) int {
		if a.FactID < b.FactID {
			return -1
		}
		if a.FactID > b.FactID {
			return 1
		}
		return 0
	})
	return out
}

func sameTarget(aObj *string, aVal []byte, bObj *string, bVal []byte) bool {
	if (aObj == nil) != (bObj == nil) {
		return false
	}
	if aObj != nil {
		return *aObj == *bObj
	}
	return bytes.Equal(aVal, bVal)
}
