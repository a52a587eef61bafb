package disclosure

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/disclosure/internal/dbsqlc"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/memoryitem"
)

// Item kinds.
const (
	KindEvent     = "event"
	KindFact      = "fact"
	KindEntity    = "entity"
	KindSession   = "session"
	KindEventType = "event_type"
	KindPredicate = "predicate"
)

// ItemParams names the item to show.
type ItemParams struct {
	// SpaceID is required.
	SpaceID string
	// ID is one of: "ev:<seq>" (an event), "fact:<fact id>" or the bare fact id ("f…"), an
	// entity id ("e…", or "entity:<id>"), or a listing the index refers to: "session:<id>",
	// "type:<event type>", "predicate:<predicate>".
	ID string
}

// ref is a parsed item id.
type ref struct {
	kind string
	seq  int64
	name string // fact or entity id, session id, event type or predicate
}

var (
	factIDPattern   = regexp.MustCompile(`^f[0-9a-f]{8,64}$`)
	entityIDPattern = regexp.MustCompile(`^e[0-9a-f]{8,64}$`)
	typePattern     = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$`)
)

// canonical is the id an item is known by.
func (r ref) canonical() string {
	switch r.kind {
	case KindEvent:
		return memoryitem.EventID(r.seq)
	case KindFact:
		return memoryitem.FactID(r.name)
	case KindSession:
		return "session:" + r.name
	case KindEventType:
		return "type:" + r.name
	case KindPredicate:
		return "predicate:" + r.name
	}
	return r.name
}

func badID(msg string) error { return &eventloom.ValidationError{Field: "id", Message: msg} }

// parseRef parses an item id; errors name the field "id".
func parseRef(id string) (ref, error) {
	prefix, rest, found := strings.Cut(id, ":")
	if !found {
		switch {
		case factIDPattern.MatchString(id):
			return ref{kind: KindFact, name: id}, nil
		case entityIDPattern.MatchString(id):
			return ref{kind: KindEntity, name: id}, nil
		}
		return ref{}, badID(fmt.Sprintf("unknown id format %q: want ev:<seq>, fact:<id>, an entity id, session:<id>, type:<event type> or predicate:<name>", clip(id, 80)))
	}
	switch prefix {
	case "ev":
		seq, err := strconv.ParseInt(rest, 10, 64)
		if err != nil || seq < 1 || strings.HasPrefix(rest, "+") {
			return ref{}, badID("ev:<seq> needs a positive integer seq")
		}
		return ref{kind: KindEvent, seq: seq}, nil
	case "fact":
		if !factIDPattern.MatchString(rest) {
			return ref{}, badID("fact:<id> needs a fact id (f followed by hex digits)")
		}
		return ref{kind: KindFact, name: rest}, nil
	case "entity":
		if !entityIDPattern.MatchString(rest) {
			return ref{}, badID("entity:<id> needs an entity id (e followed by hex digits)")
		}
		return ref{kind: KindEntity, name: rest}, nil
	case "session":
		if rest == "" || utf8.RuneCountInString(rest) > 256 {
			return ref{}, badID("session:<id> needs a session id of 1-256 characters")
		}
		return ref{kind: KindSession, name: rest}, nil
	case "type":
		if !typePattern.MatchString(rest) || len(rest) > 128 {
			return ref{}, badID("type:<event type> needs a dotted lowercase event type")
		}
		return ref{kind: KindEventType, name: rest}, nil
	case "predicate":
		p := graph.Key(rest)
		if p == "" || utf8.RuneCountInString(p) > 512 {
			return ref{}, badID("predicate:<name> needs a predicate of 1-512 characters")
		}
		return ref{kind: KindPredicate, name: p}, nil
	}
	return ref{}, badID(fmt.Sprintf("unknown id prefix %q: want ev, fact, entity, session, type or predicate", clip(prefix, 40)))
}

// Item returns one item of a space in full, with its citations, labels and token cost.
// Errors: a *eventloom.ValidationError naming "space" or "id" for bad input, one matching
// eventloom.ErrNotFound for an unknown space, ErrItemNotFound for an unknown item or a
// bookkeeping event.
func Item(ctx context.Context, q Querier, p ItemParams) (*ItemView, error) {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	r, err := parseRef(p.ID)
	if err != nil {
		return nil, err
	}
	var v *ItemView
	err = snapshot(ctx, q, func(q Querier) error {
		head, err := loadSpace(ctx, q, p.SpaceID)
		if err != nil {
			return err
		}
		switch r.kind {
		case KindEvent:
			v, err = eventItem(ctx, q, p.SpaceID, r.seq, head)
		case KindFact:
			v, err = factItem(ctx, q, p.SpaceID, r.name)
		case KindEntity:
			v, err = entityItem(ctx, q, p.SpaceID, r.name)
		default:
			v, err = listItem(ctx, q, p.SpaceID, r)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	v.SpaceID, v.ID, v.Kind = p.SpaceID, r.canonical(), r.kind
	if v.Labels == nil {
		v.Labels = []string{}
	}
	v.Tokens = EstimateTokens(v.Text)
	return v, nil
}

func notFound(space, id string) error {
	return fmt.Errorf("%w: no %s in space %q", ErrItemNotFound, id, space)
}

// citations collects, sorts and de-duplicates citations.
type citations map[int64]eventloom.Hash

func (c citations) add(seq int64, h eventloom.Hash) string {
	c[seq] = h
	return marker(seq, h)
}

func (c citations) list() []Citation {
	out := make([]Citation, 0, len(c))
	for seq, h := range c {
		out = append(out, Citation{Seq: seq, Hash: h})
	}
	slices.SortFunc(out, func(a, b Citation) int { return compareInt(a.Seq, b.Seq) })
	return out
}

func compareInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func eventItem(ctx context.Context, q Querier, space string, seq int64, head *spaceHead) (*ItemView, error) {
	var e EventItem
	rows, err := q.Query(ctx, qEvent, space, seq)
	if err == nil {
		e.Event, err = pgx.CollectExactlyOneRow(rows, eventloom.ScanEvent)
	}
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
	if e.Facts, err = queryFacts(ctx, q, "event facts", qEventFacts, space, seq); err != nil {
		return nil, err
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

// factStatement is a fact as a sentence.
func factStatement(f *graph.Fact) string {
	obj := valueText(f.Value)
	if f.Object != nil {
		obj = f.Object.Name
	}
	return f.Subject.Name + " " + f.Predicate + " " + obj
}

// factLabels are a fact's labels: its status unless current, and inferred.
func factLabels(f *graph.Fact) []string {
	var l []string
	if f.Status != "current" {
		l = append(l, f.Status)
	}
	if f.Inferred {
		l = append(l, LabelInferred)
	}
	if f.Status == "current" && f.ReviewStatus == LabelConflicted {
		l = append(l, LabelConflicted)
	}
	return l
}

// renderFact is a fact's line in a listing.
func renderFact(f *graph.Fact, cites citations) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (v%d, %s) %s", memoryitem.FactID(f.ID), clip(factStatement(f), summaryRunes), f.Version,
		f.Status, cites.add(f.RecordedSeq, f.RecordedHash))
	if f.Inferred {
		b.WriteString(" [inferred]")
	}
	if f.Status == "current" && f.ReviewStatus == LabelConflicted {
		b.WriteString(" [conflicted]")
	}
	return b.String()
}

func renderWindow(f *graph.Fact) string {
	s := "valid from " + f.ValidFrom.Format(time.RFC3339Nano)
	if f.ValidTo != nil {
		s += " to " + f.ValidTo.Format(time.RFC3339Nano)
	}
	return s
}

func factItem(ctx context.Context, q Querier, space, id string) (*ItemView, error) {
	facts, err := queryFacts(ctx, q, "fact", qFact, space, id)
	if err != nil {
		return nil, err
	}
	if len(facts) == 0 {
		return nil, notFound(space, memoryitem.FactID(id))
	}
	f := FactItem{Fact: facts[0], Statement: factStatement(&facts[0])}
	if f.Versions, err = queryFacts(ctx, q, "fact versions", qFactVersions, space, f.Subject.ID, f.Predicate); err != nil {
		return nil, err
	}
	v := &ItemView{Fact: &f, Labels: factLabels(&f.Fact)}
	cites := citations{}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", memoryitem.FactID(f.ID), f.Statement)
	writeLabels(&b, v.Labels)
	fmt.Fprintf(&b, "\nversion %d of %s %s · %s · %s", f.Version, f.Subject.Name, f.Predicate, f.Status, renderWindow(&f.Fact))
	if f.SupersededBy != nil {
		fmt.Fprintf(&b, " · superseded by %s", memoryitem.FactID(*f.SupersededBy))
	}
	if f.ClosedSeq != nil {
		fmt.Fprintf(&b, " · closed at #%d", *f.ClosedSeq)
		if f.CloseReason != nil {
			fmt.Fprintf(&b, " (%s)", *f.CloseReason)
		}
	}
	fmt.Fprintf(&b, "\nauthority %s · review %s", f.Authority, f.ReviewStatus)
	if f.Confidence != nil {
		fmt.Fprintf(&b, " · confidence %s", strconv.FormatFloat(float64(*f.Confidence), 'g', 4, 32))
	}
	fmt.Fprintf(&b, "\nrecorded %s", cites.add(f.RecordedSeq, f.RecordedHash))
	if len(f.Evidence) > 0 {
		b.WriteString("; evidence")
		for i, ev := range f.Evidence {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(" " + cites.add(ev.Seq, ev.Hash))
		}
	}
	if len(f.Versions) > 1 {
		b.WriteString("\nversions:")
		for i := range f.Versions {
			x := &f.Versions[i]
			obj := valueText(x.Value)
			if x.Object != nil {
				obj = x.Object.Name
			}
			fmt.Fprintf(&b, "\nv%d %s %s %s %s", x.Version, memoryitem.FactID(x.ID), clip(obj, summaryRunes), x.Status,
				cites.add(x.RecordedSeq, x.RecordedHash))
		}
	}
	v.Text, v.Citations = b.String(), cites.list()
	return v, nil
}

func entityItem(ctx context.Context, q Querier, space, id string) (*ItemView, error) {
	items, err := loadEntities(ctx, q, space, []string{id})
	if err != nil {
		return nil, err
	}
	e := items[id]
	if e == nil {
		return nil, notFound(space, "entity "+id)
	}
	v := &ItemView{Entity: e}
	v.Text, v.Citations = renderEntity(e)
	if e.Invalidated != nil {
		v.Labels = []string{LabelInvalidated}
	}
	return v, nil
}

// loadEntities loads entities with their newest facts and mentions, keyed by id; unknown ids
// are absent.
func loadEntities(ctx context.Context, q Querier, space string, ids []string) (map[string]*EntityItem, error) {
	out := map[string]*EntityItem{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := queries.Entities(ctx, q, dbsqlc.EntitiesParams{SpaceID: space, EntityIDs: ids})
	if err != nil {
		return nil, fmt.Errorf("load entities: %w", err)
	}
	for _, r := range rows {
		e := &EntityItem{Entity: graph.Entity{ID: r.EntityID, Key: r.Key, Name: r.Name, Kinds: r.Kinds, Version: r.Version,
			FirstSeq: r.FirstSeq, FirstHash: r.FirstHash, LastSeq: r.LastSeq, Mentions: r.Mentions, InvalidatedSeq: r.InvalidatedSeq}}
		if e.InvalidatedSeq != nil {
			e.Invalidated = &Invalidation{By: Citation{Seq: *e.InvalidatedSeq, Hash: r.InvalidatedHash}, Reason: r.InvalidatedReason}
		}
		e.Facts, e.MentionedIn = []graph.Fact{}, []EventLine{}
		out[e.ID] = e
	}
	facts, err := queryGrouped(ctx, q, "entity facts", qEntityFacts, scanGroupedFact, space, ids, entityFactsLimit)
	if err != nil {
		return nil, err
	}
	lines, err := queryGrouped(ctx, q, "entity mentions", qEntityMentions, scanGroupedLine, space, ids, entityMentionsLimit)
	if err != nil {
		return nil, err
	}
	for id, e := range out {
		if fs := facts.items[id]; fs != nil {
			e.Facts, e.FactsTotal = fs, facts.total[id]
		}
		if ls := lines.items[id]; ls != nil {
			e.MentionedIn, e.MentionedInTotal = ls, lines.total[id]
		}
	}
	return out, nil
}

// renderEntity is an entity's detail text.
func renderEntity(e *EntityItem) (string, []Citation) {
	cites := citations{}
	var b strings.Builder
	fmt.Fprintf(&b, "entity %s %s (%s; %d mentions; first %s, last #%d)", e.Name, e.ID, strings.Join(e.Kinds, ", "),
		e.Mentions, cites.add(e.FirstSeq, e.FirstHash), e.LastSeq)
	if e.Invalidated != nil {
		fmt.Fprintf(&b, " [invalidated by %s: %s]", cites.add(e.Invalidated.By.Seq, e.Invalidated.By.Hash), e.Invalidated.Reason)
	}
	if len(e.Facts) > 0 {
		fmt.Fprintf(&b, "\nfacts (%d of %d, newest first):", len(e.Facts), e.FactsTotal)
		for i := range e.Facts {
			b.WriteString("\n")
			b.WriteString(renderFact(&e.Facts[i], cites))
		}
	}
	if len(e.MentionedIn) > 0 {
		fmt.Fprintf(&b, "\nmentioned in (%d of %d events, newest first):", len(e.MentionedIn), e.MentionedInTotal)
		for i := range e.MentionedIn {
			b.WriteString("\n")
			b.WriteString(renderLine(&e.MentionedIn[i]))
			cites.add(e.MentionedIn[i].Seq, e.MentionedIn[i].Hash)
		}
	}
	return b.String(), cites.list()
}

// listStat is what a listing's header says: how many members and their seq range.
type listStat struct {
	Name              string
	Total, Current    int64
	FirstSeq, LastSeq int64
}

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
		facts, err := queryGrouped(ctx, q, "predicate facts", qPredicateFacts, scanGroupedFact, space, names, listLimit)
		if err != nil {
			return nil, err
		}
		for name, l := range out {
			l.Facts = facts.items[name]
		}
		return out, nil
	case KindSession:
		lines, err := queryGrouped(ctx, q, "session events", qSessionEvents, scanGroupedLine, space, names, listLimit)
		if err != nil {
			return nil, err
		}
		for name, l := range out {
			l.Events = lines.items[name]
		}
	case KindEventType:
		lines, err := queryGrouped(ctx, q, "type events", qTypeEvents, scanGroupedLine, space, names, firsts, listLimit)
		if err != nil {
			return nil, err
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
