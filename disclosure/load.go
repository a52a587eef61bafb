package disclosure

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/sql"
)

// Querier is a pool, connection or transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

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

// loadSpace returns the space's head, or an error matching eventloom.ErrNotFound.
func loadSpace(ctx context.Context, q Querier, space string) (*spaceHead, error) {
	var h spaceHead
	err := q.QueryRow(ctx, sql.Query("disclosure/space"), space).Scan(&h.HeadSeq, &h.HeadHash, &h.ProjectedSeq)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: space %q has no events", eventloom.ErrNotFound, space)
	}
	if err != nil {
		return nil, fmt.Errorf("load space: %w", err)
	}
	return &h, nil
}

// scanLine reads the event-line columns (see sql/disclosure/timeline.sql) after any leading
// destinations in pre.
func scanLine(row pgx.CollectableRow, pre ...any) (EventLine, error) {
	var l EventLine
	var content, data string
	var invSeq *int64
	var invHash eventloom.Hash
	var invReason *string
	var statuses []string
	dst := append(pre, &l.Seq, &l.Hash, &l.Type, &l.SessionID, &l.Actor, &l.OccurredAt, &content, &data,
		&invSeq, &invHash, &invReason, &statuses)
	if err := row.Scan(dst...); err != nil {
		return l, err
	}
	l.OccurredAt = l.OccurredAt.UTC()
	l.Summary = summarize(l.Type, l.Actor, content, []byte(data))
	l.Labels = []string{}
	if invSeq != nil {
		l.Invalidated = &Invalidation{By: Citation{Seq: *invSeq, Hash: invHash}, Reason: deref(invReason)}
		l.Labels = append(l.Labels, LabelInvalidated)
	}
	for _, s := range statuses {
		if !slices.Contains(l.Labels, s) {
			l.Labels = append(l.Labels, s)
		}
	}
	slices.Sort(l.Labels)
	return l, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// scanFact reads the fact columns (see sql/disclosure/fact.sql) after any leading
// destinations in pre. StatusThen equals Status: these views are of now.
func scanFact(row pgx.CollectableRow, pre ...any) (graph.Fact, error) {
	var f graph.Fact
	var objectID, objectName, value *string
	var evidence string
	dst := append(pre, &f.ID, &f.Subject.ID, &f.Subject.Name, &f.Predicate, &objectID, &objectName, &value, &f.Version,
		&f.ValidFrom, &f.ValidTo, &f.RecordedSeq, &f.RecordedHash, &f.ClosedSeq, &f.Status,
		&f.SupersededBy, &f.Authority, &f.ReviewStatus, &f.Inferred, &f.Confidence, &evidence, &f.CloseReason)
	if err := row.Scan(dst...); err != nil {
		return f, err
	}
	f.StatusThen = f.Status
	if objectID != nil {
		f.Object = &graph.EntityRef{ID: *objectID, Name: deref(objectName)}
	}
	if value != nil {
		f.Value = json.RawMessage(*value)
	}
	f.ValidFrom = f.ValidFrom.UTC()
	if f.ValidTo != nil {
		t := f.ValidTo.UTC()
		f.ValidTo = &t
	}
	if err := json.Unmarshal([]byte(evidence), &f.Evidence); err != nil {
		return f, fmt.Errorf("fact %s evidence: %w", f.ID, err)
	}
	return f, nil
}

// grouped is a listing per key, with the total when the query reports one.
type grouped[T any] struct {
	items map[string][]T
	total map[string]int64
}

// queryGrouped runs a query whose rows start with a group key (and, when withTotal, a total)
// followed by the columns scan reads.
func queryGrouped[T any](ctx context.Context, q Querier, name string, withTotal bool,
	scan func(pgx.CollectableRow, ...any) (T, error), args ...any,
) (grouped[T], error) {
	g := grouped[T]{items: map[string][]T{}, total: map[string]int64{}}
	rows, err := q.Query(ctx, sql.Query(name), args...)
	if err != nil {
		return g, fmt.Errorf("query %s: %w", name, err)
	}
	_, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (struct{}, error) {
		var key string
		var total int64
		pre := []any{&key}
		if withTotal {
			pre = append(pre, &total)
		}
		v, err := scan(row, pre...)
		if err != nil {
			return struct{}{}, err
		}
		g.items[key] = append(g.items[key], v)
		g.total[key] = total
		return struct{}{}, nil
	})
	if err != nil {
		return g, fmt.Errorf("query %s: %w", name, err)
	}
	return g, nil
}

// queryFacts runs a fact query without a group key.
func queryFacts(ctx context.Context, q Querier, name string, args ...any) ([]graph.Fact, error) {
	rows, err := q.Query(ctx, sql.Query(name), args...)
	if err != nil {
		return nil, fmt.Errorf("query %s: %w", name, err)
	}
	facts, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (graph.Fact, error) { return scanFact(row) })
	if err != nil {
		return nil, fmt.Errorf("query %s: %w", name, err)
	}
	return facts, nil
}
