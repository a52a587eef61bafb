package checkout

import (
	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/sql"
)

// queries runs checkout's queries compiled by sqlc (sql/checkout, checkout/internal/dbsqlc).
var queries = dbsqlc.New()

// The hand-written queries (sql/checkout/handwritten): those sqlc's analyzer cannot type (the
// exact, graph and keyword lanes), those whose dimension is formatted in (the vector lane's),
// and those whose rows are a type shared with other packages (eventloom.Row, graph.FactRow).
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
