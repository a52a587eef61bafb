package checkout

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/sql"
)

// queries runs checkout's queries compiled by sqlc (sql/checkout, checkout/internal/dbsqlc).
var queries = dbsqlc.New()

// The hand-written queries (sql/checkout/handwritten): those sqlc's analyzer cannot type (the
// exact, graph and keyword lanes), those whose dimension is formatted in (the vector lane's),
// and those whose rows are a type shared with other packages (eventloom.Row, graph.FactRow).
// Each runs through the typed wrapper below it.
var (
	qLaneExact   = sql.Query("checkout/lane_exact")
	qLaneGraph   = sql.Query("checkout/lane_graph")
	qLaneKeyword = sql.Query("checkout/lane_keyword")
	qVectorExact = sql.Query("checkout/vector_exact")
	qVectorHNSW  = sql.Query("checkout/vector_hnsw")
	qFetchEvents = sql.Query("checkout/fetch_events")
	qFetchFacts  = sql.Query("checkout/fetch_facts")
)

// entityHit is a row of the exact and graph lanes: an item, the entity that matched it and
// that entity's specificity.
type entityHit struct {
	Item   string  `db:"item_id"`
	Entity string  `db:"entity_id"`
	Spec   float64 `db:"spec"`
}

// laneExactArgs are lane_exact.sql's parameters: the items of SpaceID about the entities whose
// key or id is one of Keys, as of AsOf, at most K; the speakers of the latest SpeakerTail
// events past the projection watermark are read from the log.
type laneExactArgs struct {
	SpaceID     string
	Keys        []string
	AsOf        time.Time
	K           int
	SpeakerTail int
}

// queueLaneExact queues lane_exact.sql on b; done receives its rows when the batch runs and
// returns the batch's error for them. The entities are looked up by id: the ids the keys give
// (graph.EntityID) and the keys themselves, any of which may be an id.
func queueLaneExact(b *pgx.Batch, a laneExactArgs, done func([]entityHit, error) error) {
	ids := append(graph.EntityIDs(a.SpaceID, a.Keys), a.Keys...)
	b.Queue(qLaneExact, a.SpaceID, ids, a.AsOf, a.K, a.SpeakerTail).Query(func(rows pgx.Rows) error {
		return done(pgx.CollectRows(rows, pgx.RowToStructByName[entityHit]))
	})
}

// laneGraphArgs are lane_graph.sql's parameters: the items of SpaceID one fact hop from the
// seed Entities (each with its specificity in Specs), valid at AsOf, at most K.
type laneGraphArgs struct {
	SpaceID  string
	Entities []string
	AsOf     time.Time
	K        int
	Specs    []float64
}

// queryLaneGraph runs lane_graph.sql.
func queryLaneGraph(ctx context.Context, db pgexec.Executor, a laneGraphArgs) ([]entityHit, error) {
	rows, err := db.Query(ctx, qLaneGraph, a.SpaceID, a.Entities, a.AsOf, a.K, a.Specs)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByName[entityHit])
}

// queryLaneKeyword runs lane_keyword.sql with p's fields, its defaults already applied
// (Keyword).
func queryLaneKeyword(ctx context.Context, db pgexec.Executor, p *KeywordParams) ([]KeywordHit, error) {
	rows, err := db.Query(ctx, qLaneKeyword, p.SpaceID, p.Query, p.TextSearchConfig, p.AsOf, p.K, p.Candidates, p.K1, p.B)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByName[KeywordHit])
}

// vectorArgs are the parameters of vector_exact.sql and, with HNSW, vector_hnsw.sql: the K
// items of SpaceID nearest to Vector among Model's vectors, whose Dimensions is formatted into
// the text, of those that had occurred by AsOf when set.
type vectorArgs struct {
	HNSW       bool
	Dimensions int
	SpaceID    string
	Model      string
	Vector     []float32
	K          int
	AsOf       *time.Time
}

// queueVector queues vector_exact.sql, or vector_hnsw.sql when a.HNSW, on b; done receives
// its rows when the batch runs and returns the batch's error for them.
func queueVector(b *pgx.Batch, a vectorArgs, done func([]VectorHit, error) error) {
	query := qVectorExact
	if a.HNSW {
		query = qVectorHNSW
	}
	b.Queue(fmt.Sprintf(query, a.Dimensions), a.SpaceID, a.Model, pgvector.NewVector(a.Vector), a.K, a.AsOf).Query(func(rows pgx.Rows) error {
		return done(pgx.CollectRows(rows, pgx.RowToStructByName[VectorHit]))
	})
}

// fetchEventsArgs are fetch_events.sql's parameters: the events of SpaceID at Seqs, with their
// salience as of AsOf.
type fetchEventsArgs struct {
	SpaceID string
	Seqs    []int64
	AsOf    time.Time
}

// fetchEventRow is a row of fetch_events.sql: the event and what the item fetch reads with it.
type fetchEventRow struct {
	eventloom.Row
	Role        string  `db:"role"`
	Speaker     string  `db:"speaker"`
	Invalidated *string `db:"invalidated"`
	Conflicted  bool    `db:"conflicted"`
	RedundantOf *string `db:"redundant_of"`
	Repeats     int     `db:"repeats"`
	RepeatSeq   *int64  `db:"repeat_seq"`
	RepeatHash  []byte  `db:"repeat_hash"`
	salienceCols
}

// queryFetchEvents runs fetch_events.sql.
func queryFetchEvents(ctx context.Context, db pgexec.Executor, a fetchEventsArgs) ([]fetchEventRow, error) {
	rows, err := db.Query(ctx, qFetchEvents, a.SpaceID, a.Seqs, a.AsOf)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByNameLax[fetchEventRow])
}

// fetchFactsArgs are fetch_facts.sql's parameters: the fact versions of SpaceID with ids
// FactIDs and those they superseded, with their salience as of AsOf.
type fetchFactsArgs struct {
	SpaceID string
	FactIDs []string
	AsOf    time.Time
}

// fetchFactRow is a row of fetch_facts.sql: a fact version, whether it was asked for (else
// one an asked version superseded) and its salience.
type fetchFactRow struct {
	graph.FactRow
	Asked bool `db:"asked"`
	salienceCols
}

// queryFetchFacts runs fetch_facts.sql.
func queryFetchFacts(ctx context.Context, db pgexec.Executor, a fetchFactsArgs) ([]fetchFactRow, error) {
	rows, err := db.Query(ctx, qFetchFacts, a.SpaceID, a.FactIDs, a.AsOf)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByNameLax[fetchFactRow])
}
