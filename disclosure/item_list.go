package disclosure

import (
	"context"
	"fmt"
	"strings"

	"github.com/zaxy/zaxy/disclosure/internal/dbsqlc"
	"github.com/zaxy/zaxy/memoryitem"
)

// listStat is what a listing's header says: how many members and their seq range. This file
// discloses the listings: a session, an event type or a predicate as one item.
type listStat struct {
	Name              string
	Total, Current    int64
	FirstSeq, LastSeq int64
}

// listItem is the listing r names (a session, an event type or a predicate) with its members.
func listItem(ctx context.Context, q Querier, space string, r ref) (*ItemView, error) {
	st := listStat{Name: r.name}
	var err error
	switch r.kind {
	case KindSession:
		var s dbsqlc.SessionStatsRow
		s, err = queries.SessionStats(ctx, q, dbsqlc.SessionStatsParams{SpaceID: space, SessionID: r.name})
		st.Total, st.FirstSeq, st.LastSeq = s.Total, s.FirstSeq, s.LastSeq
	case KindEventType:
		if memoryitem.IsBookkeeping(r.name) {
			return nil, fmt.Errorf("%w: %s events are bookkeeping, never shown", ErrItemNotFound, r.name)
		}
		var s dbsqlc.TypeStatsRow
		s, err = queries.TypeStats(ctx, q, dbsqlc.TypeStatsParams{SpaceID: space, Type: r.name})
		st.Total, st.FirstSeq, st.LastSeq = s.Total, s.FirstSeq, s.LastSeq
	case KindPredicate:
		var s dbsqlc.PredicateStatsRow
		s, err = queries.PredicateStats(ctx, q, dbsqlc.PredicateStatsParams{SpaceID: space, Predicate: r.name})
		st.Current, st.Total, st.FirstSeq, st.LastSeq = s.CurrentFacts, s.Total, s.FirstSeq, s.LastSeq
	}
	if err != nil {
		return nil, fmt.Errorf("load %s stats: %w", r.kind, err)
	}
	if st.Total == 0 {
		return nil, notFound(space, r.canonical())
	}
	lists, err := loadLists(ctx, q, space, r.kind, []listStat{st})
	if err != nil {
		return nil, err
	}
	l := lists[r.name]
	v := &ItemView{List: l}
	v.Text, v.Citations = renderList(r.kind, l)
	return v, nil
}

// loadLists loads the members of listings of one kind, keyed by name.
func loadLists(ctx context.Context, q Querier, space, kind string, stats []listStat) (map[string]*ListItem, error) {
	out := map[string]*ListItem{}
	if len(stats) == 0 {
		return out, nil
	}
	names := make([]string, len(stats))
	firsts := make([]int64, len(stats))
	for i, st := range stats {
		names[i], firsts[i] = st.Name, st.FirstSeq
		out[st.Name] = &ListItem{Name: st.Name, Total: st.Total, Current: st.Current, FirstSeq: st.FirstSeq, LastSeq: st.LastSeq}
	}
	switch kind {
	case KindPredicate:
		facts, err := queryPredicateFacts(ctx, q, predicateFactsArgs{SpaceID: space, Predicates: names, Limit: listLimit})
		if err != nil {
			return nil, fmt.Errorf("query predicate facts: %w", err)
		}
		for name, l := range out {
			l.Facts = facts.items[name]
		}
		return out, nil
	case KindSession:
		lines, err := querySessionEvents(ctx, q, sessionEventsArgs{SpaceID: space, SessionIDs: names, Limit: listLimit})
		if err != nil {
			return nil, fmt.Errorf("query session events: %w", err)
		}
		for name, l := range out {
			l.Events = lines.items[name]
		}
	case KindEventType:
		lines, err := queryTypeEvents(ctx, q, typeEventsArgs{SpaceID: space, Types: names, FirstSeqs: firsts, Limit: listLimit})
		if err != nil {
			return nil, fmt.Errorf("query type events: %w", err)
		}
		for name, l := range out {
			l.Events = lines.items[name]
		}
	}
	return out, nil
}

// renderList is a listing's detail text.
func renderList(kind string, l *ListItem) (string, []Citation) {
	cites := citations{}
	var b strings.Builder
	switch kind {
	case KindPredicate:
		fmt.Fprintf(&b, "predicate %s: %d current facts, %d versions, #%d..#%d; newest %d:", l.Name, l.Current, l.Total,
			l.FirstSeq, l.LastSeq, len(l.Facts))
		for i := range l.Facts {
			b.WriteString("\n")
			b.WriteString(renderFact(&l.Facts[i], cites))
		}
		return b.String(), cites.list()
	case KindSession:
		fmt.Fprintf(&b, "session %s", l.Name)
	default:
		fmt.Fprintf(&b, "type %s", l.Name)
	}
	fmt.Fprintf(&b, ": %d events, #%d..#%d; newest %d:", l.Total, l.FirstSeq, l.LastSeq, len(l.Events))
	for i := range l.Events {
		b.WriteString("\n")
		b.WriteString(renderLine(&l.Events[i]))
		cites.add(l.Events[i].Seq, l.Events[i].Hash)
	}
	return b.String(), cites.list()
}
