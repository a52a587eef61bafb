package projection

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// Feedback in the reinforcement ledger (docs/projections.md, "Reinforcement and salience"):
//
//   - feedback.recorded reinforces, with its signal, each item it names (item_ids, and ev:<seq>
//     for each of target_seqs) and, for each target seq, the fact versions that event asserted
//     (fact:<id> of the facts whose recorded_seq it is): an agent holding a packet cites the
//     events it read, and an event stated its facts;
//   - memory.invalidated of a feedback event takes its reinforcements back: its ledger rows are
//     deleted and the salience of the items they touched is recounted from what is left.
//
// Both depend only on the log before the event (the facts an earlier event asserted, the rows
// an earlier feedback added), so a rebuild and any sequence of incremental batches reach the
// same ledger.

// feedbackEffect is what a feedback.recorded event names.
type feedbackEffect struct {
	Signal     string
	TargetSeqs []int64
	ItemIDs    []string
}

// feedbackState is what a batch knows of feedback beyond its own events.
type feedbackState struct {
	// asserted are the fact ids earlier batches' events asserted, by the asserting seq, for the
	// target seqs of the feedback the batch applies or takes back.
	asserted map[int64][]string
	// earlier are the ledger rows of earlier batches' feedback events the batch invalidates, by
	// the feedback's seq (only those no earlier invalidation took back).
	earlier map[int64][]reinforcementEffect
	// retracted are the earlier batches' ledger rows the batch takes back.
	retracted []reinforcementRow
}

// loadFeedback reads what the batch's feedback and invalidations need from earlier batches:
// the feedback events they invalidate, and the facts the events named by feedback asserted.
func (s *batchState) loadFeedback(ctx context.Context, tx pgx.Tx, events []eventloom.Event, fxs []effects) error {
	if len(events) == 0 {
		return nil
	}
	first := events[0].Seq
	var invalidated, targets []int64
	for i := range fxs {
		for _, inv := range fxs[i].Invalidations {
			if inv.TargetSeq > 0 && inv.TargetSeq < first {
				invalidated = append(invalidated, inv.TargetSeq)
			}
		}
		if f := fxs[i].Feedback; f != nil {
			targets = append(targets, f.TargetSeqs...)
		}
	}
	var taken []feedbackEvent
	if len(invalidated) > 0 {
		rows, err := queries.FeedbackEventsLoad(ctx, tx, dbsqlc.FeedbackEventsLoadParams{SpaceID: s.space, Seqs: invalidated})
		if err != nil {
			return fmt.Errorf("load invalidated feedback: %w", err)
		}
		for _, r := range rows {
			d, err := vocab.Decode[vocab.FeedbackRecorded](json.RawMessage(r.Data))
			if err != nil {
				continue // a feedback whose data does not decode reinforced nothing (projector.go)
			}
			taken = append(taken, feedbackEvent{seq: r.Seq, fx: feedbackEffect{Signal: d.Signal, TargetSeqs: d.TargetSeqs, ItemIDs: d.ItemIDs}})
			targets = append(targets, d.TargetSeqs...)
		}
	}
	var earlierTargets []int64
	for _, t := range targets {
		if t > 0 && t < first && !slices.Contains(earlierTargets, t) {
			earlierTargets = append(earlierTargets, t)
		}
	}
	if len(earlierTargets) > 0 {
		rows, err := queries.FactsAssertedBy(ctx, tx, dbsqlc.FactsAssertedByParams{SpaceID: s.space, Seqs: earlierTargets})
		if err != nil {
			return fmt.Errorf("load facts asserted by feedback targets: %w", err)
		}
		s.fb.asserted = map[int64][]string{}
		for _, r := range rows {
			s.fb.asserted[r.RecordedSeq] = append(s.fb.asserted[r.RecordedSeq], r.FactID)
		}
	}
	if len(taken) > 0 {
		s.fb.earlier = map[int64][]reinforcementEffect{}
		for _, t := range taken {
			for _, id := range s.feedbackItems(t.seq, &t.fx) {
				s.fb.earlier[t.seq] = append(s.fb.earlier[t.seq], reinforcementEffect{ItemID: id, Signal: t.fx.Signal})
			}
		}
	}
	return nil
}

// feedbackEvent is an earlier feedback event the batch invalidates.
type feedbackEvent struct {
	seq int64
	fx  feedbackEffect
}

// feedbackItems is the items the feedback event at seq reinforces: those it names (targetItems)
// and then, per target seq in order, the fact versions that event asserted, in fact_id order,
// each once.
func (s *batchState) feedbackItems(seq int64, f *feedbackEffect) []string {
	items := targetItems(seq, f.TargetSeqs, f.ItemIDs)
	for _, t := range f.TargetSeqs {
		if t <= 0 || t >= seq {
			continue
		}
		for _, id := range s.assertedBy(t) {
			if item := memoryitem.FactID(id); !slices.Contains(items, item) {
				items = append(items, item)
			}
		}
	}
	return items
}

// assertedBy is the fact ids the event at seq asserted, in fact_id order: from earlier batches
// (loaded) or this one.
func (s *batchState) assertedBy(seq int64) []string {
	out := slices.Clone(s.fb.asserted[seq])
	for _, f := range s.newFacts {
		if f.RecordedSeq == seq && !slices.Contains(out, f.FactID) {
			out = append(out, f.FactID)
		}
	}
	slices.Sort(out)
	return out
}

// applyFeedback reinforces the items a feedback.recorded event names and the facts its target
// events asserted.
func (s *batchState) applyFeedback(e *eventloom.Event, f *feedbackEffect) {
	for _, id := range s.feedbackItems(e.Seq, f) {
		s.reinforce(e, id, f.Signal)
	}
}

// retractFeedback takes back what the feedback event at target reinforced, when target is a
// feedback event: its rows of this batch are dropped before they are written, its rows of
// earlier batches are queued for deletion, and the claim state of the facts they touched
// forgets them. Other events' reinforcements (a surfacing, a pin, a repetition) stay.
func (s *batchState) retractFeedback(target int64) {
	kept := s.salience.reinforced[:0]
	for _, r := range s.salience.reinforced {
		if r.Seq == target && slices.Contains(vocab.FeedbackSignal, r.Signal) {
			s.unnoteClaim(r.ItemID, r.Signal)
			continue
		}
		kept = append(kept, r)
	}
	s.salience.reinforced = kept
	for _, r := range s.fb.earlier[target] {
		s.unnoteClaim(r.ItemID, r.Signal)
		s.fb.retracted = append(s.fb.retracted, reinforcementRow{ItemID: r.ItemID, Seq: target, Signal: r.Signal})
	}
	delete(s.fb.earlier, target)
}

// unnoteClaim undoes noteClaim for a feedback signal.
func (s *batchState) unnoteClaim(item, signal string) {
	c := s.claims[item]
	if c == nil {
		return
	}
	switch signal {
	case SignalHelpful:
		c.helpful--
	case SignalUnhelpful, SignalWrong, SignalOutdated:
		c.negative--
	}
}

// queueRetractions queues the deletion of the earlier batches' ledger rows the batch took back
// and the recount of their items' salience, after the batch's own ledger rows.
func (s *batchState) queueRetractions(b *pgx.Batch) {
	n := len(s.fb.retracted)
	if n == 0 {
		return
	}
	p := dbsqlc.SalienceRetractParams{SpaceID: s.space, ItemIds: make([]string, n), Seqs: make([]int64, n), Signals: make([]string, n)}
	for i, r := range s.fb.retracted {
		p.ItemIds[i], p.Seqs[i], p.Signals[i] = r.ItemID, r.Seq, r.Signal
	}
	dbsqlc.QueueSalienceRetract(b, p)
}
