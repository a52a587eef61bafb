package projection

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// Signals of the reinforcement ledger (table reinforcements; docs/projections.md).
const (
	SignalSurfaced = "surfaced"
	// SignalRecalled is the surfacing of an item a checkout recalled from below the salience
	// floor (include_attenuated): unlike a plain surfacing it is a use.
	SignalRecalled    = "recalled"
	SignalHelpful     = "helpful"
	SignalUnhelpful   = "unhelpful"
	SignalWrong       = "wrong"
	SignalOutdated    = "outdated"
	SignalInvalidated = "invalidated"
	SignalPinned      = "pinned"
	SignalUnpinned    = "unpinned"
	// SignalRepeated is a repetition the encoding gate found (gate.go): a redundant item
	// reinforces the item it repeats, a typed assertion the current fact it restates. It
	// refreshes the item's recency but, not being a consultation of memory, starts no disuse.
	SignalRepeated = "repeated"
)

// surfacedType is the bookkeeping event a checkout appends.
const surfacedType = vocab.TypeCheckoutSurfaced

// reinforcementEffect is one item an event reinforces, and how.
type reinforcementEffect struct {
	ItemID string
	Signal string
}

// reinforcementRow is a reinforcements row.
type reinforcementRow struct {
	ItemID     string
	Seq        int64
	Signal     string
	OccurredAt time.Time
}

// salienceEffects derives what a reinforcing event contributes to the ledger and the space's
// salience policy. Each reinforcement names exactly one item the event names: the items a
// checkout surfaced (by item id, never the events a surfaced fact cites), the items a pin
// names; items of later seqs are ignored. Feedback is applied with the facts its target events
// asserted (feedback.go). It is deterministic.
func salienceEffects(e *eventloom.Event, fx *effects) error {
	switch e.Type {
	case surfacedType:
		var d struct {
			Items []struct {
				ItemID     string `json:"item_id"`
				Attenuated bool   `json:"attenuated"`
			} `json:"items"`
		}
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return err
		}
		for _, it := range d.Items {
			if earlierItem(it.ItemID, e.Seq) {
				signal := SignalSurfaced
				if it.Attenuated {
					signal = SignalRecalled
				}
				fx.Reinforcements = append(fx.Reinforcements, reinforcementEffect{ItemID: it.ItemID, Signal: signal})
			}
		}
	case vocab.TypeFeedbackRecorded:
		d, err := vocab.Decode[vocab.FeedbackRecorded](e.Data)
		if err != nil {
			return err
		}
		fx.Feedback = &feedbackEffect{Signal: d.Signal, TargetSeqs: d.TargetSeqs, ItemIDs: d.ItemIDs}
	case vocab.TypeMemoryPinned, vocab.TypeMemoryUnpinned:
		d, err := vocab.Decode[vocab.MemoryPinned](e.Data)
		if err != nil {
			return err
		}
		signal := SignalPinned
		if e.Type == vocab.TypeMemoryUnpinned {
			signal = SignalUnpinned
		}
		for _, id := range targetItems(e.Seq, d.TargetSeqs, d.ItemIDs) {
			fx.Reinforcements = append(fx.Reinforcements, reinforcementEffect{ItemID: id, Signal: signal})
		}
	case vocab.TypeSalienceConfigured:
		d, err := vocab.Decode[vocab.SalienceConfigured](e.Data)
		if err != nil {
			return err
		}
		fx.SalienceConfig = &d
	case vocab.TypeGateConfigured:
		d, err := vocab.Decode[vocab.GateConfigured](e.Data)
		if err != nil {
			return err
		}
		fx.GateConfig = &d
	}
	return nil
}

// targetItems is the item ids an event at seq names by seq and by id, deduplicated in order,
// keeping only earlier events' items.
func targetItems(seq int64, seqs []int64, ids []string) []string {
	var out []string
	for _, s := range seqs {
		if id := memoryitem.EventID(s); s < seq && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, id := range ids {
		if earlierItem(id, seq) && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// earlierItem reports whether id is an item id that can exist before the event at seq: a fact
// version, or an event item of an earlier seq.
func earlierItem(id string, seq int64) bool {
	if rest, ok := strings.CutPrefix(id, "ev:"); ok {
		n, err := strconv.ParseInt(rest, 10, 64)
		return err == nil && n > 0 && n < seq
	}
	return strings.HasPrefix(id, "fact:") && len(id) > len("fact:")
}

// isUse reports whether a signal is a use of the space's memory (a surfacing, feedback or a
// pin); disuse is counted from the first one.
func isUse(signal string) bool { return signal != SignalInvalidated && signal != SignalRepeated }

// salienceState is what a batch changes of the ledger and the space's policy.
type salienceState struct {
	reinforced   []reinforcementRow
	halfLifeDays *float64
	floor        *float64
	configSeq    *int64
	useStarted   *time.Time
}

// reinforce records that the event e reinforces item with signal.
func (s *batchState) reinforce(e *eventloom.Event, item, signal string) {
	s.noteClaim(item, signal)
	s.salience.reinforced = append(s.salience.reinforced, reinforcementRow{ItemID: item, Seq: e.Seq, Signal: signal, OccurredAt: e.OccurredAt.UTC()})
	if isUse(signal) {
		if t := e.OccurredAt.UTC(); s.salience.useStarted == nil || t.Before(*s.salience.useStarted) {
			s.salience.useStarted = &t
		}
	}
}

// configure folds a salience.configured event into the batch's policy change.
func (s *batchState) configure(e *eventloom.Event, c *vocab.SalienceConfigured) {
	if c.HalfLifeDays != nil {
		s.salience.halfLifeDays = c.HalfLifeDays
	}
	if c.Floor != nil {
		s.salience.floor = c.Floor
	}
	seq := e.Seq
	s.salience.configSeq = &seq
}

// queueSalience queues the batch's ledger rows folded into the salience of the items they
// touch (one statement, salience_upsert.sql), and the policy change.
func (s *batchState) queueSalience(b *pgx.Batch) {
	ss := &s.salience
	if len(ss.reinforced) > 0 {
		n := len(ss.reinforced)
		p := dbsqlc.SalienceUpsertParams{SpaceID: s.space, ItemIds: make([]string, n), Seqs: make([]int64, n),
			Signals: make([]string, n), OccurredAts: make([]time.Time, n)}
		for i, r := range ss.reinforced {
			p.ItemIds[i], p.Seqs[i], p.Signals[i], p.OccurredAts[i] = r.ItemID, r.Seq, r.Signal, r.OccurredAt
		}
		dbsqlc.QueueSalienceUpsert(b, p)
	}
	s.queueRetractions(b)
	if ss.configSeq != nil || ss.useStarted != nil {
		dbsqlc.QueueSalienceSpaceUpsert(b, dbsqlc.SalienceSpaceUpsertParams{SpaceID: s.space, HalfLifeDays: ss.halfLifeDays,
			Floor: ss.floor, ConfiguredSeq: ss.configSeq, UseStartedAt: ss.useStarted})
	}
}
