package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/graph/graphwire"
	"github.com/zaxy/zaxy/graph/internal/dbsqlc"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/sql"
	"github.com/zaxy/zaxy/validation"
)

// ErrEntityNotFound means the entity does not exist in the space.
var ErrEntityNotFound = errors.New("entity not found")

// Querier is a pool, connection or transaction (pgexec.Executor under the name this package's
// callers already use).
type Querier = pgexec.Executor

// queries are this package's generated queries (graph/internal/dbsqlc, from sql/graph).
var queries = dbsqlc.New()

// qFacts is hand-written: its rows are FactRow, shared with the disclosure views.
var qFacts = sql.Query("graph/facts")

// factsArgs are facts.sql's parameters: the facts of SpaceID (about EntityID as subject or
// object, or all when empty) in View, at At (ViewAt, ViewCurrent) or right after seq AsOfSeq
// (ViewAsOf), at most Limit.
type factsArgs struct {
	SpaceID  string
	EntityID string
	View     View
	At       time.Time
	AsOfSeq  int64
	Limit    int
}

// queryFacts runs facts.sql.
func queryFacts(ctx context.Context, q Querier, a factsArgs) ([]Fact, error) {
	rows, err := q.Query(ctx, qFacts, a.SpaceID, a.EntityID, string(a.View), a.At, a.AsOfSeq, a.Limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, ScanFact)
}

// The three views of the temporal graph.
const (
	// ViewCurrent is what memory holds true now.
	ViewCurrent = graphwire.ViewCurrent
	// ViewAt is what was valid (in the world) at a time.
	ViewAt = graphwire.ViewAt
	// ViewAsOf is what memory said right after a seq was recorded.
	ViewAsOf = graphwire.ViewAsOf
)

// FactsParams selects facts.
type FactsParams struct {
	// SpaceID is required.
	SpaceID string
	// Entity, when set, is an entity id or name; only facts with it as subject or object.
	Entity string
	// View defaults to ViewCurrent.
	View View
	// At is the time for ViewAt (and "now" for ViewCurrent; defaults to time.Now()).
	At time.Time
	// AsOfSeq is the seq for ViewAsOf.
	AsOfSeq int64
	// Limit defaults to 1000.
	Limit int
}

// Facts returns the facts of p's view, ordered by subject name, predicate and version.
func Facts(ctx context.Context, q Querier, p FactsParams) ([]Fact, error) {
	if p.View == "" {
		p.View = ViewCurrent
	}
	if p.Limit == 0 {
		p.Limit = 1000
	}
	if p.At.IsZero() {
		p.At = time.Now()
	}
	switch p.View {
	case ViewCurrent, ViewAt:
	case ViewAsOf:
		if p.AsOfSeq < 0 {
			return nil, fmt.Errorf("%w: as_of_seq must be 0 or more", validation.ErrInvalid)
		}
	default:
		return nil, fmt.Errorf("%w: unknown view %q", validation.ErrInvalid, p.View)
	}
	entityID := ""
	if p.Entity != "" {
		e, err := ResolveEntity(ctx, q, p.SpaceID, p.Entity)
		if err != nil {
			return nil, err
		}
		entityID = e.ID
	}
	facts, err := queryFacts(ctx, q, factsArgs{SpaceID: p.SpaceID, EntityID: entityID, View: p.View, At: p.At, AsOfSeq: p.AsOfSeq, Limit: p.Limit})
	if err != nil {
		return nil, fmt.Errorf("query facts: %w", err)
	}
	return facts, nil
}

// ResolveEntity finds an entity by id or by name (matched on its normalized key).
func ResolveEntity(ctx context.Context, q Querier, space, ref string) (*Entity, error) {
	key := Key(ref)
	r, err := queries.EntityResolve(ctx, q, dbsqlc.EntityResolveParams{SpaceID: space, Ref: ref, KeyID: EntityID(space, key)})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: no entity %q in space %q", ErrEntityNotFound, ref, space)
	}
	if err != nil {
		return nil, fmt.Errorf("resolve entity: %w", err)
	}
	return &Entity{ID: r.EntityID, Key: r.Key, Name: r.Name, Kinds: r.Kinds, Version: r.Version,
		FirstSeq: r.FirstSeq, FirstHash: r.FirstHash, LastSeq: r.LastSeq, Mentions: r.Mentions,
		InvalidatedSeq: r.InvalidatedSeq}, nil
}

// Key is the normalized key of an entity name: lowercased, whitespace collapsed. Entities are
// unique by key within a space.
func Key(name string) string {
	return strings.ToLower(strings.Join(strings.Fields(name), " "))
}

// InferredFacts returns a space's inferred statements, about entity (a name) when given,
// newest first.
func InferredFacts(ctx context.Context, q Querier, space, entity string, limit int) ([]InferredFact, error) {
	if limit == 0 {
		limit = 1000
	}
	rows, err := queries.InferredFacts(ctx, q, dbsqlc.InferredFactsParams{SpaceID: space, EntityKey: Key(entity), MaxRows: int32(min(limit, math.MaxInt32))})
	if err != nil {
		return nil, fmt.Errorf("query inferred facts: %w", err)
	}
	out := make([]InferredFact, len(rows))
	for i, r := range rows {
		out[i] = InferredFact{Subject: r.Subject, Predicate: r.Predicate, Object: r.Object, Confidence: r.Confidence,
			Model: r.Model, Authority: "inferred", ReviewStatus: r.ReviewStatus, Inferred: true,
			Evidence: []Evidence{{Seq: r.Seq, Hash: r.Hash}}}
	}
	return out, nil
}
