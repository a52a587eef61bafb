package disclosure

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/disclosure/internal/dbsqlc"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/sql"
)

// Querier is a pool, connection or transaction (pgexec.Executor).
type Querier = pgexec.Executor

// queries are this package's generated queries (disclosure/internal/dbsqlc, from
// sql/disclosure).
var queries = dbsqlc.New()

// The hand-written queries (sql/disclosure/handwritten): their rows are the shared event and
// fact rows (eventloom.Row, graph.FactRow) or the event line (dbsqlc.LineRow), some after a
// group key and total (dbsqlc.GroupKey); index_log groups by GROUPING SETS, which sqlc cannot
// follow. Each runs through a typed wrapper: those below, queryTimeline (timeline.go) and
// queryIndexLog (index.go).
var (
	qEvent           = sql.Query("disclosure/event")
	qEventFacts      = sql.Query("disclosure/event_facts")
	qFact            = sql.Query("disclosure/fact")
	qFactVersions    = sql.Query("disclosure/fact_versions")
	qEntityFacts     = sql.Query("disclosure/entity_facts")
	qEntityMentions  = sql.Query("disclosure/entity_mentions")
	qPredicateFacts  = sql.Query("disclosure/predicate_facts")
	qSessionEvents   = sql.Query("disclosure/session_events")
	qTypeEvents      = sql.Query("disclosure/type_events")
	qTimeline        = sql.Query("disclosure/timeline")
	qTimelineSession = sql.Query("disclosure/timeline_session")
	qIndexLog        = sql.Query("disclosure/index_log")
)

// ErrItemNotFound means the id names no item of the space (or a bookkeeping event, which is
// never shown).
var ErrItemNotFound = errors.New("item not found")

// Listing limits: a detail shows at most this many members, newest first, and says how many
// there are.
const (
	listLimit           = 20
	entityFactsLimit    = 50
	entityMentionsLimit = 20
)

// snapshot runs fn on one consistent snapshot: a read-only repeatable-read transaction when q
// can begin one (a pool or a connection), else q itself (the caller's transaction).
func snapshot(ctx context.Context, q Querier, fn func(Querier) error) error {
	b, ok := q.(interface {
		BeginTx(context.Context, pgx.TxOptions) (pgx.Tx, error)
	})
	if !ok {
		return fn(q)
	}
	tx, err := b.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return fmt.Errorf("begin snapshot: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	return fn(tx)
}

// spaceHead is a space's chain head and projection watermark.
type spaceHead struct {
	HeadSeq      int64
	HeadHash     eventloom.Hash
	ProjectedSeq int64
}

// loadSpace returns the space's head: seq 0, no hash, for a space with no events (an empty
// space, whose views are empty).
func loadSpace(ctx context.Context, q Querier, space string) (*spaceHead, error) {
	r, err := queries.Space(ctx, q, space)
	if errors.Is(err, pgx.ErrNoRows) {
		return &spaceHead{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load space: %w", err)
	}
	return &spaceHead{HeadSeq: r.HeadSeq, HeadHash: r.HeadHash, ProjectedSeq: r.ProjectedSeq}, nil
}

// eventLine maps a line row onto an EventLine: a summary instead of the text, and labels.
func eventLine(r *dbsqlc.LineRow) EventLine {
	l := EventLine{Seq: r.Seq, Hash: r.Hash, Type: r.Type, SessionID: r.SessionID, Actor: r.Actor,
		OccurredAt: r.OccurredAt.UTC(), Summary: summarize(r.Type, r.Actor, r.Content, []byte(r.Data)), Labels: []string{}}
	if r.InvSeq != nil {
		l.Invalidated = &Invalidation{By: Citation{Seq: *r.InvSeq, Hash: r.InvHash}, Reason: deref(r.InvReason)}
		l.Labels = append(l.Labels, LabelInvalidated)
	}
	for _, s := range r.Statuses {
		if !slices.Contains(l.Labels, s) {
			l.Labels = append(l.Labels, s)
		}
	}
	slices.Sort(l.Labels)
	return l
}

// scanLine reads one lineRow by column name and maps it.
func scanLine(row pgx.CollectableRow) (EventLine, error) {
	r, err := pgx.RowToStructByName[dbsqlc.LineRow](row)
	if err != nil {
		return EventLine{}, err
	}
	return eventLine(&r), nil
}

// scanGroupedLine reads a group key and an event line.
func scanGroupedLine(row pgx.CollectableRow) (dbsqlc.GroupKey, EventLine, error) {
	r, err := pgx.RowToStructByNameLax[struct {
		dbsqlc.GroupKey
		dbsqlc.LineRow
	}](row)
	if err != nil {
		return dbsqlc.GroupKey{}, EventLine{}, err
	}
	return r.GroupKey, eventLine(&r.LineRow), nil
}

// scanGroupedFact reads a group key and a graph.FactRow.
func scanGroupedFact(row pgx.CollectableRow) (dbsqlc.GroupKey, graph.Fact, error) {
	r, err := pgx.RowToStructByNameLax[struct {
		dbsqlc.GroupKey
		graph.FactRow
	}](row)
	if err != nil {
		return dbsqlc.GroupKey{}, graph.Fact{}, err
	}
	f, err := r.Fact()
	return r.GroupKey, f, err
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// grouped is a listing per key, with the total when the query reports one.
type grouped[T any] struct {
	items map[string][]T
	total map[string]int64
}

// collectGrouped reads rows that start with a group key (grp and, for some, total) and
// collects what scan reads per group.
func collectGrouped[T any](rows pgx.Rows, scan func(pgx.CollectableRow) (dbsqlc.GroupKey, T, error)) (grouped[T], error) {
	g := grouped[T]{items: map[string][]T{}, total: map[string]int64{}}
	_, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (struct{}, error) {
		key, v, err := scan(row)
		if err != nil {
			return struct{}{}, err
		}
		g.items[key.Group] = append(g.items[key.Group], v)
		g.total[key.Group] = key.Total
		return struct{}{}, nil
	})
	return g, err
}

// eventArgs are event.sql's parameters: the event of SpaceID at Seq.
type eventArgs struct {
	SpaceID string
	Seq     int64
}

// queryEvent runs event.sql; its error matches pgx.ErrNoRows when there is no such event.
func queryEvent(ctx context.Context, q Querier, a eventArgs) (eventloom.Event, error) {
	rows, err := q.Query(ctx, qEvent, a.SpaceID, a.Seq)
	if err != nil {
		return eventloom.Event{}, err
	}
	return pgx.CollectExactlyOneRow(rows, eventloom.ScanEvent)
}

// eventFactsArgs are event_facts.sql's parameters: the fact versions the event of SpaceID at
// Seq recorded.
type eventFactsArgs struct {
	SpaceID string
	Seq     int64
}

// queryEventFacts runs event_facts.sql.
func queryEventFacts(ctx context.Context, q Querier, a eventFactsArgs) ([]graph.Fact, error) {
	rows, err := q.Query(ctx, qEventFacts, a.SpaceID, a.Seq)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, graph.ScanFact)
}

// factArgs are fact.sql's parameters: the fact version of SpaceID with id FactID.
type factArgs struct {
	SpaceID string
	FactID  string
}

// queryFact runs fact.sql: no fact, or the one.
func queryFact(ctx context.Context, q Querier, a factArgs) ([]graph.Fact, error) {
	rows, err := q.Query(ctx, qFact, a.SpaceID, a.FactID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, graph.ScanFact)
}

// factVersionsArgs are fact_versions.sql's parameters: every version of the (SubjectID,
// Predicate) pair of SpaceID.
type factVersionsArgs struct {
	SpaceID   string
	SubjectID string
	Predicate string
}

// queryFactVersions runs fact_versions.sql.
func queryFactVersions(ctx context.Context, q Querier, a factVersionsArgs) ([]graph.Fact, error) {
	rows, err := q.Query(ctx, qFactVersions, a.SpaceID, a.SubjectID, a.Predicate)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, graph.ScanFact)
}

// entityFactsArgs are entity_facts.sql's parameters: the newest Limit fact versions of SpaceID
// about each of EntityIDs.
type entityFactsArgs struct {
	SpaceID   string
	EntityIDs []string
	Limit     int
}

// queryEntityFacts runs entity_facts.sql, grouped by entity id.
func queryEntityFacts(ctx context.Context, q Querier, a entityFactsArgs) (grouped[graph.Fact], error) {
	rows, err := q.Query(ctx, qEntityFacts, a.SpaceID, a.EntityIDs, a.Limit)
	if err != nil {
		return grouped[graph.Fact]{}, err
	}
	return collectGrouped(rows, scanGroupedFact)
}

// entityMentionsArgs are entity_mentions.sql's parameters: the newest Limit events of SpaceID
// mentioning each of EntityIDs.
type entityMentionsArgs struct {
	SpaceID   string
	EntityIDs []string
	Limit     int
}

// queryEntityMentions runs entity_mentions.sql, grouped by entity id.
func queryEntityMentions(ctx context.Context, q Querier, a entityMentionsArgs) (grouped[EventLine], error) {
	rows, err := q.Query(ctx, qEntityMentions, a.SpaceID, a.EntityIDs, a.Limit)
	if err != nil {
		return grouped[EventLine]{}, err
	}
	return collectGrouped(rows, scanGroupedLine)
}

// predicateFactsArgs are predicate_facts.sql's parameters: the newest Limit fact versions of
// SpaceID with each of Predicates.
type predicateFactsArgs struct {
	SpaceID    string
	Predicates []string
	Limit      int
}

// queryPredicateFacts runs predicate_facts.sql, grouped by predicate.
func queryPredicateFacts(ctx context.Context, q Querier, a predicateFactsArgs) (grouped[graph.Fact], error) {
	rows, err := q.Query(ctx, qPredicateFacts, a.SpaceID, a.Predicates, a.Limit)
	if err != nil {
		return grouped[graph.Fact]{}, err
	}
	return collectGrouped(rows, scanGroupedFact)
}

// sessionEventsArgs are session_events.sql's parameters: the newest Limit events of each of
// SessionIDs of SpaceID.
type sessionEventsArgs struct {
	SpaceID    string
	SessionIDs []string
	Limit      int
}

// querySessionEvents runs session_events.sql, grouped by session id.
func querySessionEvents(ctx context.Context, q Querier, a sessionEventsArgs) (grouped[EventLine], error) {
	rows, err := q.Query(ctx, qSessionEvents, a.SpaceID, a.SessionIDs, a.Limit)
	if err != nil {
		return grouped[EventLine]{}, err
	}
	return collectGrouped(rows, scanGroupedLine)
}

// typeEventsArgs are type_events.sql's parameters: the newest Limit events of each of Types
// of SpaceID, each no older than its seq in FirstSeqs.
type typeEventsArgs struct {
	SpaceID   string
	Types     []string
	FirstSeqs []int64
	Limit     int
}

// queryTypeEvents runs type_events.sql, grouped by type.
func queryTypeEvents(ctx context.Context, q Querier, a typeEventsArgs) (grouped[EventLine], error) {
	rows, err := q.Query(ctx, qTypeEvents, a.SpaceID, a.Types, a.FirstSeqs, a.Limit)
	if err != nil {
		return grouped[EventLine]{}, err
	}
	return collectGrouped(rows, scanGroupedLine)
}
