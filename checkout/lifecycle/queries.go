package lifecycle

import (
	"time"

	"github.com/zaxy/zaxy/checkout/lifecycle/internal/dbsqlc"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/sql"
)

// queries runs the lifecycle's queries compiled by sqlc (sql/lifecycle,
// checkout/lifecycle/internal/dbsqlc).
var queries = dbsqlc.New()

// The hand-written queries (sql/lifecycle/handwritten): the recovery packet's, which sqlc's
// analyzer cannot type, and the session tail, whose rows are the log's event row
// (eventloom.ScanEvent).
var (
	qRecovery    = sql.Query("lifecycle/recovery")
	qSessionTail = sql.Query("lifecycle/session_tail")
)

// recoveryRow is a row of the recovery packet's query: one item of a section (kind).
type recoveryRow struct {
	Kind       string         `db:"kind"`
	Seq        int64          `db:"seq"`
	Hash       eventloom.Hash `db:"hash"`
	OccurredAt time.Time      `db:"occurred_at"`
	Content    string         `db:"content"`
	Data       string         `db:"data"`
}
