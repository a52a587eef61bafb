package checkout

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/disclosure"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/memoryitem"
)

// rankedItem is an Item as checkout ranks it: the Item a packet or a query result shows, and
// what the ranking read with it, which no answer shows.
type rankedItem struct {
	Item
	boostKind string
	// role is a message's data.role and speaker who said it (data.name, else the actor)
	// (speaker.go).
	role, speaker string
	fact          *factRow
	// event is the row of an event item as read, so a weave shows its evidence without
	// reading it again (weave.go); nil for facts.
	event *dbsqlc.WeaveEvidenceRow
	// cues are an event item's recorded cues as read (cues.go); nil for facts.
	cues []byte
}

// ownCitations are the events the item itself comes from: its citations without the last
// repeat's (Repeats), which stands for the same words said again.
func (it *rankedItem) ownCitations() []Citation {
	if it.Repeats > 0 {
		return it.Citations[:len(it.Citations)-1]
	}
	return it.Citations
}

// factRow is what the packet needs of a fact version.
type factRow struct {
	id, subject, predicate, object, status string
	supersededBy                           *string
	version                                int32
	validTo                                *time.Time
	recordedSeq                            int64
	closeReason                            *string
}

// itemFetch reads a checkout's items: as of asOf, with their salience when withSalience, a
// long event's text cut to mech.MaxItemChars around the question's words.
type itemFetch struct {
	db           pgexec.Executor
	space        string
	words        []string
	asOf         time.Time
	withSalience bool
	mech         *Mechanism
}

// newItemFetch is the item fetch of a checkout of r asking q at asOf with mechanism m.
func (s *Service) newItemFetch(r *Request, q *question, asOf time.Time, m *Mechanism) itemFetch {
	return itemFetch{db: s.pool, space: r.SpaceID, words: q.words, asOf: asOf, withSalience: !plainProfile(r), mech: m}
}

// items loads the items with the given ids (and the fact versions they superseded, returned
// separately), events and facts in one query each. Event items already read (prefetched, by
// id) are taken from there.
func (f itemFetch) items(ctx context.Context, ids []string, prefetched map[string]*rankedItem) (map[string]*rankedItem, []*rankedItem, error) {
	var seqs []int64
	var factIDs []string
	items := map[string]*rankedItem{}
	for _, id := range ids {
		if it := prefetched[id]; it != nil {
			items[id] = it
		} else if seq := seqOfItem(id); seq > 0 {
			seqs = append(seqs, seq)
		} else if strings.HasPrefix(id, "fact:") {
			factIDs = append(factIDs, strings.TrimPrefix(id, "fact:"))
		}
	}
	if err := f.events(ctx, seqs, items); err != nil {
		return nil, nil, err
	}
	previous, err := f.facts(ctx, factIDs, items)
	if err != nil {
		return nil, nil, err
	}
	return items, previous, nil
}

// events reads the event items of seqs into items.
func (f itemFetch) events(ctx context.Context, seqs []int64, items map[string]*rankedItem) error {
	withSalience := f.withSalience
	if len(seqs) > 0 {
		rows, err := queryFetchEvents(ctx, f.db, fetchEventsArgs{SpaceID: f.space, Seqs: seqs, AsOf: f.asOf})
		if err != nil {
			return fmt.Errorf("fetch events: %w", err)
		}
		for i := range rows {
			r := &rows[i]
			e := r.Event()
			it := cutEventItem(e.Seq, e.Type, e.SessionID, e.Content, string(e.Data), e.Hash, f.words, f.mech)
			it.role, it.speaker = r.Role, r.Speaker
			it.event = &dbsqlc.WeaveEvidenceRow{Seq: e.Seq, Hash: e.Hash, Type: e.Type, Content: e.Content, Data: string(e.Data),
				OccurredAt: e.OccurredAt, Role: r.Role, Speaker: r.Speaker}
			it.cues = e.Cues
			it.Labels.Conflicted = r.Conflicted
			if r.RedundantOf != nil && withSalience {
				it.Labels.RedundantOf = *r.RedundantOf // policy, like salience: the plain profile ignores it
			}
			if r.Repeats > 0 && r.RepeatSeq != nil && withSalience {
				it.Repeats = r.Repeats
				it.Citations = append(it.Citations, Citation{Seq: *r.RepeatSeq, Hash: r.RepeatHash})
			}
			it.OccurredAt = &e.OccurredAt
			if r.Invalidated != nil {
				it.Labels.Invalidated = *r.Invalidated
				it.Labels.Attenuated = true
			}
			if withSalience {
				it.Salience = r.salienceCols.salience(it.Labels.Authority)
			}
			items[it.ItemID] = it
		}
	}
	return nil
}

// facts reads the fact items of factIDs into items and returns the fact versions they
// superseded.
func (f itemFetch) facts(ctx context.Context, factIDs []string, items map[string]*rankedItem) ([]*rankedItem, error) {
	var previous []*rankedItem
	asOf, withSalience := f.asOf, f.withSalience
	if len(factIDs) > 0 {
		rows, err := queryFetchFacts(ctx, f.db, fetchFactsArgs{SpaceID: f.space, FactIDs: factIDs, AsOf: asOf})
		if err != nil {
			return nil, fmt.Errorf("fetch facts: %w", err)
		}
		for i := range rows {
			r := &rows[i]
			asked := r.Asked
			fr := factRow{id: r.FactID, subject: r.SubjectName, predicate: r.Predicate, object: valueText(r.ObjectName, r.Value),
				status: r.Status, supersededBy: r.SupersededBy, version: r.Version, validTo: r.ValidTo,
				recordedSeq: r.RecordedSeq, closeReason: r.CloseReason}
			it := &rankedItem{boostKind: "fact", fact: &fr, Item: Item{
				ItemID: memoryitem.FactID(fr.id), Kind: "fact",
				Text: fmt.Sprintf("%s %s %s", fr.subject, fr.predicate, fr.object),
				Labels: Labels{Authority: r.Authority, ReviewStatus: r.ReviewStatus, Inferred: r.Inferred,
					Conflicted: r.ReviewStatus == "conflicted" && r.Status == "current"},
			}}
			var ev []Citation
			if err := json.Unmarshal([]byte(r.Evidence), &ev); err != nil {
				return nil, fmt.Errorf("fetch facts: fact %s evidence: %w", fr.id, err)
			}
			it.Citations = ev
			if fr.status != "current" {
				it.Labels.Attenuated = true
				it.Labels.Superseded = fr.status == "superseded"
				if fr.status == "invalidated" && fr.closeReason != nil {
					it.Labels.Invalidated = *fr.closeReason
				}
			}
			if fr.validTo != nil && !fr.validTo.After(asOf) {
				it.Labels.Stale = true
			}
			if withSalience {
				it.Salience = r.salienceCols.salience(it.Labels.Authority)
			}
			if asked {
				items[it.ItemID] = it
			} else {
				previous = append(previous, it)
			}
		}
	}
	return previous, nil
}

// valueText renders a fact's object entity name or JSON value for reading.
func valueText(object, value *string) string {
	if object != nil {
		return *object
	}
	if value == nil {
		return ""
	}
	var s string
	if json.Unmarshal([]byte(*value), &s) == nil {
		return s
	}
	return *value
}

// cutEventItem renders an event as an item: its content (an excerpt of m.MaxItemChars around
// the query's words when longer), or a summary of its data when it has no text.
func cutEventItem(seq int64, typ, session, content, data string, hash []byte, words []string, m *Mechanism) *rankedItem {
	return eventItem(seq, typ, session, content, data, hash, func(text string) (string, *int, *int) {
		if utf8.RuneCountInString(text) <= m.MaxItemChars {
			return text, nil, nil
		}
		// A long text (a document, a tool's output) is an excerpt around the query's words; the
		// citation says which characters.
		out, start, end := cutAround(m, []rune(text), words, m.MaxItemChars)
		return out, &start, &end
	})
}

// eventItem renders an event as an item: its trimmed content as cut returns it (with the
// character range it kept, or nil for the whole), or a summary of its data when it has no
// text. A re-rendering of a recorded packet (recorded.go) cuts by the recorded range.
func eventItem(seq int64, typ, session, content, data string, hash []byte, cut func(text string) (string, *int, *int)) *rankedItem {
	it := &rankedItem{boostKind: typ, Item: Item{
		ItemID: memoryitem.EventID(seq), Kind: typ, SessionID: session,
		Labels: Labels{Authority: "log"},
	}}
	cite := Citation{Seq: seq, Hash: hash}
	text, start, end := cut(strings.TrimSpace(content))
	cite.Start, cite.End = start, end
	if typ == "tool_call.completed" {
		var d struct{ Tool, Outcome, Error, Arguments string }
		_ = json.Unmarshal([]byte(data), &d)
		if d.Outcome == "failure" {
			it.boostKind = "tool_call.failure"
		}
		text = strings.TrimSpace(fmt.Sprintf("%s — tool %s %s %s %s", text, d.Tool, d.Outcome, d.Arguments, d.Error))
		text = strings.TrimPrefix(text, "— ")
	} else if text == "" {
		text = typ + " " + data
	}
	it.Text = text
	it.Citations = []Citation{cite}
	return it
}

// EstimateTokens is the chars4 count, one token per four characters rounded up: the disclosure
// views' estimate, and what a packet is budgeted with when neither its request nor its service
// names a tokenizer (Service.Tokenizer).
func EstimateTokens(s string) int { return disclosure.EstimateTokens(s) }

// seqOfItem returns the seq of an event item id ("ev:12"), or 0.
func seqOfItem(id string) int64 {
	seq, _ := memoryitem.ParseEventID(id)
	return seq
}
