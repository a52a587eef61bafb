package projection

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/projection/internal/dbsqlc"
)

// load reads the rows a batch's effects may touch.
func (s *batchState) load(ctx context.Context, tx pgx.Tx, fxs []effects) error {
	keys := map[string]bool{}
	pairs := map[pairKey]bool{}
	var targetSeqs []int64
	var targetIDs []string
	for i := range fxs {
		fx := &fxs[i]
		for _, m := range fx.Mentions {
			keys[m.Entity.Key] = true
		}
		for _, a := range fx.Asserts {
			keys[a.Subject.Key] = true
			if a.Object != nil {
				keys[a.Object.Key] = true
			}
			pairs[pairKey{EntityID(s.space, a.Subject.Key), a.Predicate}] = true
		}
		for _, r := range fx.Retracts {
			keys[r.Subject.Key] = true
			pairs[pairKey{EntityID(s.space, r.Subject.Key), r.Predicate}] = true
		}
		for _, inv := range fx.Invalidations {
			if inv.TargetSeq > 0 {
				targetSeqs = append(targetSeqs, inv.TargetSeq)
			} else {
				targetIDs = append(targetIDs, inv.TargetID)
			}
		}
	}
	contested, err := s.loadProposals(ctx, tx, fxs)
	if err != nil {
		return err
	}
	targetIDs = append(targetIDs, contested...)
	keyList := make([]string, 0, len(keys))
	for k := range keys {
		keyList = append(keyList, k)
	}
	if len(keyList) > 0 || len(targetIDs) > 0 {
		if err := s.loadEntities(ctx, tx, keyList, targetIDs); err != nil {
			return err
		}
	}
	if len(pairs) == 0 && len(targetSeqs) == 0 && len(targetIDs) == 0 {
		return nil
	}
	subjects := make([]string, 0, len(pairs))
	predicates := make([]string, 0, len(pairs))
	for p := range pairs {
		subjects = append(subjects, p.SubjectID)
		predicates = append(predicates, p.Predicate)
	}
	if err := s.loadFacts(ctx, tx, subjects, predicates, targetSeqs, targetIDs); err != nil {
		return err
	}
	versions, err := queries.FactVersions(ctx, tx, dbsqlc.FactVersionsParams{SpaceID: s.space, SubjectIds: subjects, Predicates: predicates})
	if err != nil {
		return fmt.Errorf("load fact versions: %w", err)
	}
	for _, v := range versions {
		s.maxVersion[pairKey{v.SubjectID, v.Predicate}] = v.Version
	}
	return nil
}

// loadEntities loads the space's entities named by keys (through the ids the keys give) or by
// ids.
func (s *batchState) loadEntities(ctx context.Context, tx pgx.Tx, keys, ids []string) error {
	ids = append(graph.EntityIDs(s.space, keys), ids...)
	rows, err := queries.EntitiesLoad(ctx, tx, dbsqlc.EntitiesLoadParams{SpaceID: s.space, EntityIDs: ids})
	if err != nil {
		return fmt.Errorf("load entities: %w", err)
	}
	for _, r := range rows {
		e := &entityRow{EntityID: r.EntityID, Key: r.Key, Name: r.Name, Kinds: r.Kinds, Version: r.Version,
			FirstSeq: r.FirstSeq, LastSeq: r.LastSeq, Mentions: r.Mentions,
			InvalidatedSeq: r.InvalidatedSeq, stored: true}
		e.loadedVersion = e.Version
		s.entities[e.Key] = e
		s.entityByID[e.EntityID] = e
	}
	return nil
}

func (s *batchState) loadFacts(ctx context.Context, tx pgx.Tx, subjects, predicates []string, seqs []int64, ids []string) error {
	rows, err := queries.FactsLoad(ctx, tx, dbsqlc.FactsLoadParams{SpaceID: s.space, SubjectIds: subjects,
		Predicates: predicates, Seqs: seqs, FactIds: ids})
	if err != nil {
		return fmt.Errorf("load facts: %w", err)
	}
	for _, r := range rows {
		f := &factRow{FactID: r.FactID, SubjectID: r.SubjectID, Predicate: r.Predicate, ObjectID: r.ObjectID,
			Version: r.Version, ValidFrom: r.ValidFrom.UTC(), ValidTo: r.ValidTo, RecordedSeq: r.RecordedSeq,
			RecordedHash: r.RecordedHash, ClosedSeq: r.ClosedSeq, Status: r.Status, SupersededBy: r.SupersededBy,
			Authority: r.Authority, Inferred: r.Inferred, CloseReason: r.CloseReason, ReviewStatus: r.ReviewStatus, stored: true}
		if r.Value != nil {
			v, err := canonicalJSON(json.RawMessage(r.Value))
			if err != nil {
				return fmt.Errorf("load facts: %w", err)
			}
			f.Value = v
		}
		if r.Confidence != nil {
			c := float64(*r.Confidence)
			f.Confidence = &c
		}
		if r.Evidence != "" {
			if err := json.Unmarshal([]byte(r.Evidence), &f.Evidence); err != nil {
				return fmt.Errorf("load facts: fact %s evidence: %w", f.FactID, err)
			}
		}
		s.facts[f.FactID] = f
		if f.Status == "current" {
			s.current[pairKey{f.SubjectID, f.Predicate}] = f
		}
	}
	return nil
}

// write stores everything the batch (the events after afterSeq up to lastSeq) changed and
// moves the watermark, in one round trip.
func (s *batchState) write(ctx context.Context, tx pgx.Tx, tsConfig string, age bool, afterSeq, lastSeq int64, lastHash []byte) error {
	b := &pgx.Batch{}
	s.queueEntities(b, age)
	s.queueFacts(b, age)
	s.queueProposals(b)
	if age {
		s.queueAge(b)
	}
	if len(s.mentions) > 0 {
		p := dbsqlc.MentionsInsertParams{SpaceID: s.space}
		for _, m := range s.mentions {
			p.Seqs = append(p.Seqs, m.Seq)
			p.StartBytes = append(p.StartBytes, m.Start)
			p.EndBytes = append(p.EndBytes, m.End)
			p.EntityIDs = append(p.EntityIDs, m.EntityID)
			p.Kinds = append(p.Kinds, m.Kind)
		}
		dbsqlc.QueueMentionsInsert(b, p)
	}
	if len(s.invalidated) > 0 {
		p := dbsqlc.InvalidationsInsertParams{SpaceID: s.space}
		for _, r := range s.invalidated {
			p.TargetSeqs = append(p.TargetSeqs, r.TargetSeq)
			p.Seqs = append(p.Seqs, r.Seq)
			p.Hashes = append(p.Hashes, r.Hash)
			p.Reasons = append(p.Reasons, r.Reason)
		}
		dbsqlc.QueueInvalidationsInsert(b, p)
	}
	if len(s.items) > 0 {
		p := dbsqlc.ItemsInsertParams{SpaceID: s.space, TsConfig: tsConfig}
		for _, it := range s.items {
			p.ItemIds = append(p.ItemIds, it.ItemID)
			p.Kinds = append(p.Kinds, it.Kind)
			p.Seqs = append(p.Seqs, it.Seq)
			p.EventTypes = append(p.EventTypes, it.EventType)
			p.SessionIds = append(p.SessionIds, it.SessionID)
			p.OccurredAts = append(p.OccurredAts, it.OccurredAt)
			p.Texts = append(p.Texts, it.Text)
			p.IsContents = append(p.IsContents, it.IsContent)
			p.RedundantOfs = append(p.RedundantOfs, orZero(it.RedundantOf))
		}
		dbsqlc.QueueItemsInsert(b, p)
	}
	s.queueSalience(b)
	s.queueWeaveCitations(b)
	s.queueGate(b)
	s.queuePolicies(b)
	dbsqlc.QueueSpeakersInsert(b, dbsqlc.SpeakersInsertParams{SpaceID: s.space, AfterSeq: afterSeq, LastSeq: lastSeq})
	dbsqlc.QueueWatermarkSet(b, dbsqlc.WatermarkSetParams{SpaceID: s.space, ProjectedSeq: lastSeq, ProjectedHash: lastHash})
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("write projections: %w", err)
	}
	return nil
}

// queueEntities writes the batch's new and changed entities; with age, a new one gets its
// graph vertex id as it is inserted.
func (s *batchState) queueEntities(b *pgx.Batch, age bool) {
	var rows []*entityRow
	for _, e := range s.entities {
		if e.dirty {
			rows = append(rows, e)
		}
	}
	if len(rows) == 0 {
		return
	}
	slices.SortFunc(rows, func(a, b *entityRow) int { return strings.Compare(a.EntityID, b.EntityID) })
	p := dbsqlc.EntitiesUpsertParams{SpaceID: s.space, Age: age}
	for _, e := range rows {
		p.EntityIDs = append(p.EntityIDs, e.EntityID)
		p.Keys = append(p.Keys, e.Key)
		p.Names = append(p.Names, e.Name)
		p.Kinds = append(p.Kinds, strings.Join(e.Kinds, ","))
		p.Versions = append(p.Versions, e.Version)
		p.FirstSeqs = append(p.FirstSeqs, e.FirstSeq)
		p.LastSeqs = append(p.LastSeqs, e.LastSeq)
		p.Mentions = append(p.Mentions, e.Mentions)
		p.InvalidatedSeqs = append(p.InvalidatedSeqs, orZero(e.InvalidatedSeq))
	}
	dbsqlc.QueueEntitiesUpsert(b, p)
}

// queueFacts closes the batch's changed fact versions and inserts its new ones; with age, a new
// one gets its graph ids as it is inserted.
func (s *batchState) queueFacts(b *pgx.Batch, age bool) {
	var changed []*factRow
	for _, f := range s.facts {
		if f.stored && f.dirty {
			changed = append(changed, f)
		}
	}
	if len(changed) > 0 {
		slices.SortFunc(changed, func(a, b *factRow) int { return strings.Compare(a.FactID, b.FactID) })
		p := dbsqlc.FactsCloseParams{SpaceID: s.space}
		for _, f := range changed {
			p.FactIds = append(p.FactIds, f.FactID)
			p.ValidTos = append(p.ValidTos, orZero(f.ValidTo))
			p.ValidToSet = append(p.ValidToSet, f.ValidTo != nil)
			p.ClosedSeqs = append(p.ClosedSeqs, orZero(f.ClosedSeq))
			p.Statuses = append(p.Statuses, f.Status)
			p.SupersededBys = append(p.SupersededBys, orZero(f.SupersededBy))
			p.Evidence = append(p.Evidence, evidenceJSON(f.Evidence))
			p.CloseReasons = append(p.CloseReasons, orZero(f.CloseReason))
			p.CloseReasonSet = append(p.CloseReasonSet, f.CloseReason != nil)
			p.ReviewStatuses = append(p.ReviewStatuses, f.ReviewStatus)
		}
		dbsqlc.QueueFactsClose(b, p)
	}
	if len(s.newFacts) == 0 {
		return
	}
	p := dbsqlc.FactsInsertParams{SpaceID: s.space, Age: age}
	for _, f := range s.newFacts {
		p.FactIds = append(p.FactIds, f.FactID)
		p.SubjectIds = append(p.SubjectIds, f.SubjectID)
		p.Predicates = append(p.Predicates, f.Predicate)
		p.ObjectIds = append(p.ObjectIds, orZero(f.ObjectID))
		p.FactValues = append(p.FactValues, string(f.Value))
		p.Versions = append(p.Versions, f.Version)
		p.ValidFroms = append(p.ValidFroms, f.ValidFrom)
		p.ValidTos = append(p.ValidTos, orZero(f.ValidTo))
		p.ValidToSet = append(p.ValidToSet, f.ValidTo != nil)
		p.RecordedSeqs = append(p.RecordedSeqs, f.RecordedSeq)
		p.RecordedHashes = append(p.RecordedHashes, f.RecordedHash)
		p.ClosedSeqs = append(p.ClosedSeqs, orZero(f.ClosedSeq))
		p.Statuses = append(p.Statuses, f.Status)
		p.SupersededBys = append(p.SupersededBys, orZero(f.SupersededBy))
		p.Authorities = append(p.Authorities, f.Authority)
		p.Inferred = append(p.Inferred, f.Inferred)
		p.Confidences = append(p.Confidences, orNaN(f.Confidence))
		p.Evidence = append(p.Evidence, evidenceJSON(f.Evidence))
		p.CloseReasons = append(p.CloseReasons, orZero(f.CloseReason))
		p.CloseReasonSet = append(p.CloseReasonSet, f.CloseReason != nil)
		p.ReviewStatuses = append(p.ReviewStatuses, f.ReviewStatus)
	}
	dbsqlc.QueueFactsInsert(b, p)
}

func evidenceJSON(ev []evidenceRef) string {
	b, err := json.Marshal(ev)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// queueAge mirrors the entities and facts the batch created or changed into the space's
// AGE graph, after the relational writes it reads from.
func (s *batchState) queueAge(b *pgx.Batch) {
	var entities, facts []string
	for _, e := range s.entities {
		if !e.stored || e.Version != e.loadedVersion {
			entities = append(entities, e.EntityID)
		}
	}
	for _, f := range s.facts {
		if !f.stored || f.dirty {
			facts = append(facts, f.FactID)
		}
	}
	if len(entities) == 0 && len(facts) == 0 {
		return
	}
	slices.Sort(entities)
	slices.Sort(facts)
	dbsqlc.QueueAGESync(b, dbsqlc.AGESyncParams{SpaceID: s.space, Entities: entities, Facts: facts})
}
