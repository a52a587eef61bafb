package disclosure

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/disclosure/internal/dbsqlc"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/validation"
)

// IndexParams selects an index.
type IndexParams struct {
	// SpaceID is required.
	SpaceID string
	// MaxTokens is the budget of the rendered text, MinMaxTokens..MaxMaxTokens; 0 means
	// DefaultIndexTokens.
	MaxTokens int
}

// sectionCap caps the entries of one index section.
const sectionCap = 100

// indexSections is the order of the sections in the text and of the round-robin that fills
// the budget.
var indexSections = []string{KindEntity, KindPredicate, KindEventType, KindSession}

var sectionLabel = map[string]string{
	KindEntity: "entities", KindPredicate: "predicates", KindEventType: "types", KindSession: "sessions",
}

func checkMaxTokens(n *int, def int) error {
	if *n == 0 {
		*n = def
	}
	if *n < MinMaxTokens || *n > MaxMaxTokens {
		return &validation.Error{Field: "max_tokens", Message: fmt.Sprintf("must be between %d and %d", MinMaxTokens, MaxMaxTokens)}
	}
	return nil
}

// Index returns the index of a space. Errors: a *validation.Error naming "space" or
// "max_tokens" for bad input, one matching eventloom.ErrNotFound for an unknown space.
func Index(ctx context.Context, q Querier, p IndexParams) (*IndexView, error) {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	if err := checkMaxTokens(&p.MaxTokens, DefaultIndexTokens); err != nil {
		return nil, err
	}
	var v *IndexView
	err := snapshot(ctx, q, func(q Querier) error {
		var err error
		v, err = buildIndex(ctx, q, p)
		return err
	})
	return v, err
}

func buildIndex(ctx context.Context, q Querier, p IndexParams) (*IndexView, error) {
	head, err := loadSpace(ctx, q, p.SpaceID)
	if err != nil {
		return nil, err
	}
	v := &IndexView{SpaceID: p.SpaceID, HeadSeq: head.HeadSeq, HeadHash: head.HeadHash, ProjectedSeq: head.ProjectedSeq, MaxTokens: p.MaxTokens}
	limit := min(sectionCap, p.MaxTokens/2+1)
	cands, err := indexCandidates(ctx, q, p.SpaceID, limit, &v.Totals)
	if err != nil {
		return nil, err
	}

	header := fmt.Sprintf("index of %s: %d events to #%d, %d entities, %d facts, %d sessions", p.SpaceID,
		v.Totals.Events, head.HeadSeq, v.Totals.Entities, v.Totals.Facts, v.Totals.Sessions)
	if lag := head.HeadSeq - head.ProjectedSeq; lag > 0 {
		header += fmt.Sprintf(", %d unprojected", lag)
	}
	header += "; (count) ~detail tokens"
	budget := p.MaxTokens * 4 // runes
	if utf8.RuneCountInString(header) > budget {
		header = string([]rune(header)[:budget-1]) + "…"
	}

	// Pack round-robin; detail costs are loaded only for entries that may be shown, in
	// rounds, until every decision was taken on exact costs.
	known := map[string]map[string]int{} // kind -> ref -> detail tokens
	for _, k := range indexSections {
		known[k] = map[string]int{}
	}
	var shown map[string][]*indexCand
	for {
		var pending map[string][]*indexCand
		shown, pending = packIndex(header, budget, cands, known)
		if len(pending) == 0 {
			break
		}
		if err := loadDetailTokens(ctx, q, p.SpaceID, pending, known); err != nil {
			return nil, err
		}
	}

	var b strings.Builder
	b.WriteString(header)
	entries := map[string]*[]IndexEntry{KindEntity: &v.Entities, KindPredicate: &v.Predicates, KindEventType: &v.EventTypes, KindSession: &v.Sessions}
	for _, kind := range indexSections {
		*entries[kind] = []IndexEntry{}
		for i, c := range shown[kind] {
			if i == 0 {
				b.WriteString("\n" + sectionLabel[kind] + ": ")
			} else {
				b.WriteString("; ")
			}
			c.DetailTokens = known[kind][c.Ref]
			b.WriteString(c.fragment(c.DetailTokens))
			*entries[kind] = append(*entries[kind], c.IndexEntry)
		}
	}
	v.Omitted = IndexCounts{
		Entities:   v.Totals.Entities - int64(len(v.Entities)),
		Predicates: v.Totals.Predicates - int64(len(v.Predicates)),
		EventTypes: v.Totals.EventTypes - int64(len(v.EventTypes)),
		Sessions:   v.Totals.Sessions - int64(len(v.Sessions)),
	}
	v.Text = b.String()
	v.Tokens = EstimateTokens(v.Text)
	return v, nil
}

// indexCand is a candidate entry with what its detail needs.
type indexCand struct {
	IndexEntry
	stat listStat
}

// fragment is the entry's text in its section line, given its detail cost.
func (c *indexCand) fragment(tokens int) string {
	var b strings.Builder
	b.WriteString(c.Name)
	switch c.Kind {
	case KindEntity:
		b.WriteString(" " + c.Ref + " (")
		var parts []string
		if c.Count > 0 {
			parts = append(parts, plural(c.Count, "mention"))
		}
		if c.Facts > 0 || c.Count == 0 {
			parts = append(parts, plural(c.Facts, "fact"))
		}
		b.WriteString(strings.Join(parts, ", ") + ")")
	default:
		b.WriteString(" (" + strconv.FormatInt(c.Count, 10) + ")")
	}
	b.WriteString(" ~" + strconv.Itoa(tokens) + "t")
	writeLabels(&b, c.Labels)
	return b.String()
}

func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.FormatInt(n, 10) + " " + word + "s"
}

// Bounds of a detail cost not loaded yet, for packing decisions.
const (
	lowDetailTokens  = 1
	highDetailTokens = 999999
)

// packIndex decides which candidates fit the budget, taking sections round-robin and each
// section's candidates in rank order (a section stops at its first entry that does not fit).
// pending lists candidates whose decision depended on a detail cost not yet known.
func packIndex(header string, budget int, cands map[string][]*indexCand, known map[string]map[string]int) (shown, pending map[string][]*indexCand) {
	shown, pending = map[string][]*indexCand{}, map[string][]*indexCand{}
	used := utf8.RuneCountInString(header)
	open := map[string]bool{}
	for _, k := range indexSections {
		open[k] = len(cands[k]) > 0
	}
	for rank := 0; ; rank++ {
		progressed := false
		for _, kind := range indexSections {
			if !open[kind] {
				continue
			}
			if rank >= len(cands[kind]) {
				open[kind] = false
				continue
			}
			progressed = true
			c := cands[kind][rank]
			sep := "; "
			if rank == 0 {
				sep = "\n" + sectionLabel[kind] + ": "
			}
			cost := func(tokens int) int { return utf8.RuneCountInString(sep) + utf8.RuneCountInString(c.fragment(tokens)) }
			if t, ok := known[kind][c.Ref]; ok {
				if used+cost(t) <= budget {
					used += cost(t)
					shown[kind] = append(shown[kind], c)
				} else {
					open[kind] = false
				}
				continue
			}
			switch {
			case used+cost(highDetailTokens) <= budget:
				used += cost(highDetailTokens)
				shown[kind] = append(shown[kind], c)
				pending[kind] = append(pending[kind], c)
			case used+cost(lowDetailTokens) <= budget:
				pending[kind] = append(pending[kind], c)
				open[kind] = false
			default:
				open[kind] = false
			}
		}
		if !progressed {
			break
		}
	}
	return shown, pending
}

// loadDetailTokens renders the details of the pending candidates and records their costs.
func loadDetailTokens(ctx context.Context, q Querier, space string, pending map[string][]*indexCand, known map[string]map[string]int) error {
	for _, kind := range indexSections {
		cs := pending[kind]
		if len(cs) == 0 {
			continue
		}
		if kind == KindEntity {
			ids := make([]string, len(cs))
			for i, c := range cs {
				ids[i] = c.Ref
			}
			items, err := loadEntities(ctx, q, space, ids)
			if err != nil {
				return err
			}
			for _, c := range cs {
				e := items[c.Ref]
				if e == nil {
					return fmt.Errorf("load entity %s: vanished from the snapshot", c.Ref)
				}
				text, _ := renderEntity(e)
				known[kind][c.Ref] = EstimateTokens(text)
			}
			continue
		}
		stats := make([]listStat, len(cs))
		for i, c := range cs {
			stats[i] = c.stat
		}
		lists, err := loadLists(ctx, q, space, kind, stats)
		if err != nil {
			return err
		}
		for _, c := range cs {
			text, _ := renderList(kind, lists[c.stat.Name])
			known[kind][c.Ref] = EstimateTokens(text)
		}
	}
	return nil
}

// indexCandidates loads the ranked candidates of every section and the space's totals.
func indexCandidates(ctx context.Context, q Querier, space string, limit int, totals *IndexCounts) (map[string][]*indexCand, error) {
	cands := map[string][]*indexCand{}
	maxRows := int32(min(limit, math.MaxInt32))
	entities, err := queries.IndexEntities(ctx, q, dbsqlc.IndexEntitiesParams{SpaceID: space, MaxRows: maxRows})
	if err != nil {
		return nil, fmt.Errorf("index entities: %w", err)
	}
	cands[KindEntity] = make([]*indexCand, len(entities))
	for i, r := range entities {
		c := &indexCand{IndexEntry: IndexEntry{Kind: KindEntity, Ref: r.EntityID, Name: r.Name, Count: int64(r.Mentions),
			Facts: r.Facts, FirstSeq: r.FirstSeq, LastSeq: r.LastSeq}}
		if r.Invalidated {
			c.Labels = []string{LabelInvalidated}
		}
		totals.Entities = r.Total
		cands[KindEntity][i] = c
	}
	predicates, err := queries.IndexPredicates(ctx, q, dbsqlc.IndexPredicatesParams{SpaceID: space, MaxRows: maxRows})
	if err != nil {
		return nil, fmt.Errorf("index predicates: %w", err)
	}
	cands[KindPredicate] = make([]*indexCand, len(predicates))
	for i, r := range predicates {
		c := &indexCand{IndexEntry: IndexEntry{Kind: KindPredicate, Ref: "predicate:" + r.Predicate, Name: r.Predicate,
			Count: r.CurrentFacts, FirstSeq: r.FirstSeq, LastSeq: r.LastSeq}}
		c.stat = listStat{Name: c.Name, Total: r.Versions, Current: c.Count, FirstSeq: c.FirstSeq, LastSeq: c.LastSeq}
		totals.Predicates, totals.Facts = r.Predicates, r.Facts
		cands[KindPredicate][i] = c
	}

	logRows, err := queryIndexLog(ctx, q, indexLogArgs{SpaceID: space, Limit: limit})
	if err != nil {
		return nil, fmt.Errorf("index log: %w", err)
	}
	for _, r := range logRows {
		c := &indexCand{IndexEntry: IndexEntry{Name: r.Name, Count: r.Count, FirstSeq: r.FirstSeq, LastSeq: r.LastSeq}}
		c.stat = listStat{Name: c.Name, Total: c.Count, FirstSeq: c.FirstSeq, LastSeq: c.LastSeq}
		if r.Kind == "type" {
			c.Kind, c.Ref = KindEventType, "type:"+c.Name
			totals.EventTypes, totals.Events = r.Groups, r.Events
		} else {
			c.Kind, c.Ref = KindSession, "session:"+c.Name
			totals.Sessions = r.Groups
		}
		cands[c.Kind] = append(cands[c.Kind], c)
	}
	return cands, nil
}

// indexLogArgs are index_log.sql's parameters: at most Limit event types and Limit sessions of
// SpaceID.
type indexLogArgs struct {
	SpaceID string
	Limit   int
}

// indexLogRow is a row of index_log.sql: an event type or a session (Kind "type" or
// "session") with its events, and the totals of its kind.
type indexLogRow struct {
	Kind, Name               string
	Count, FirstSeq, LastSeq int64
	Groups, Events           int64
}

// queryIndexLog runs index_log.sql.
func queryIndexLog(ctx context.Context, q Querier, a indexLogArgs) ([]indexLogRow, error) {
	rows, err := q.Query(ctx, qIndexLog, a.SpaceID, a.Limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (indexLogRow, error) {
		var r indexLogRow
		return r, row.Scan(&r.Kind, &r.Name, &r.Count, &r.FirstSeq, &r.LastSeq, &r.Groups, &r.Events)
	})
}
