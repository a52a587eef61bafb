package disclosure

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/disclosure/internal/dbsqlc"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/memoryitem"
)

// eventItem is the event at seq in full: the event, whether it is projected, its
// invalidations, the facts it asserted and its mentions. A bookkeeping event is not an item.
func eventItem(ctx context.Context, q Querier, space string, seq int64, head *spaceHead) (*ItemView, error) {
	var e EventItem
	var err error
	e.Event, err = queryEvent(ctx, q, eventArgs{SpaceID: space, Seq: seq})
	e.SpaceID = space
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notFound(space, memoryitem.EventID(seq))
	}
	if err != nil {
		return nil, fmt.Errorf("load event: %w", err)
	}
	if memoryitem.IsBookkeeping(e.Type) {
		return nil, fmt.Errorf("%w: %s is a bookkeeping event (%s), never shown", ErrItemNotFound, memoryitem.EventID(seq), e.Type)
	}
	e.Projected = seq <= head.ProjectedSeq

	invs, err := queries.EventInvalidations(ctx, q, dbsqlc.EventInvalidationsParams{SpaceID: space, Seq: seq})
	if err != nil {
		return nil, fmt.Errorf("load invalidations: %w", err)
	}
	for _, r := range invs {
		e.Invalidations = append(e.Invalidations, Invalidation{By: Citation{Seq: r.Seq, Hash: r.Hash}, Reason: r.Reason})
	}
	if e.Facts, err = queryEventFacts(ctx, q, eventFactsArgs{SpaceID: space, Seq: seq}); err != nil {
		return nil, fmt.Errorf("query event facts: %w", err)
	}
	mentions, err := queries.EventMentions(ctx, q, dbsqlc.EventMentionsParams{SpaceID: space, Seq: seq})
	if err != nil {
		return nil, fmt.Errorf("load mentions: %w", err)
	}
	for _, r := range mentions {
		e.Mentions = append(e.Mentions, Mention{Start: r.StartByte, End: r.EndByte, EntityID: r.EntityID, Name: r.Name, Kind: r.Kind})
	}
	if e.Invalidations == nil {
		e.Invalidations = []Invalidation{}
	}
	if e.Facts == nil {
		e.Facts = []graph.Fact{}
	}
	if e.Mentions == nil {
		e.Mentions = []Mention{}
	}

	v := &ItemView{Event: &e}
	if len(e.Invalidations) > 0 {
		v.Labels = append(v.Labels, LabelInvalidated)
	}
	if !e.Projected {
		v.Labels = append(v.Labels, LabelNotProjected)
	}
	cites := citations{}
	var b strings.Builder
	fmt.Fprintf(&b, "event %s %s", cites.add(e.Seq, e.Hash), e.Type)
	if e.SessionID != "" {
		fmt.Fprintf(&b, " · session %s", e.SessionID)
	}
	if e.Actor != "" {
		fmt.Fprintf(&b, " · actor %s", e.Actor)
	}
	fmt.Fprintf(&b, " · %s", renderTime(e.OccurredAt))
	writeLabels(&b, v.Labels)
	if e.Content != "" {
		b.WriteString("\n")
		b.WriteString(e.Content)
	}
	if data := string(e.Data); data != "{}" {
		b.WriteString("\ndata: ")
		b.WriteString(data)
	}
	if cues := string(e.Cues); cues != "{}" {
		b.WriteString("\ncues: ")
		b.WriteString(cues)
	}
	for _, inv := range e.Invalidations {
		fmt.Fprintf(&b, "\ninvalidated by %s: %s", cites.add(inv.By.Seq, inv.By.Hash), inv.Reason)
	}
	for i := range e.Facts {
		b.WriteString("\n")
		b.WriteString(renderFact(&e.Facts[i], cites))
	}
	if len(e.Mentions) > 0 {
		b.WriteString("\nmentions:")
		seen := map[string]bool{}
		for _, m := range e.Mentions {
			if !seen[m.EntityID] {
				seen[m.EntityID] = true
				fmt.Fprintf(&b, " %s=%s", m.Name, m.EntityID)
			}
		}
	}
	v.Text, v.Citations = b.String(), cites.list()
	return v, nil
}
