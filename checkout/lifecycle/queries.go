package lifecycle

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/checkout/lifecycle/internal/dbsqlc"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/sql"
)

// queries runs the lifecycle's queries compiled by sqlc (sql/lifecycle,
// checkout/lifecycle/internal/dbsqlc).
var queries = dbsqlc.New()

// The hand-written queries (sql/lifecycle/handwritten): the recovery packet's, which sqlc's
// analyzer cannot type, and the session tail, whose rows are the log's event row
// (eventloom.ScanEvent). Each runs through the typed wrapper below it.
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

// recoveryArgs are recovery.sql's parameters: the recovery packet of SessionID of SpaceID (the
// whole space when SessionID is empty), at most K items a section.
type recoveryArgs struct {
	SpaceID   string
	SessionID string
	K         int
}

// queryRecovery runs recovery.sql.
func queryRecovery(ctx context.Context, db pgexec.Executor, a recoveryArgs) ([]recoveryRow, error) {
	rows, err := db.Query(ctx, qRecovery, a.SpaceID, a.SessionID, a.K)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByName[recoveryRow])
}

// sessionTailArgs are session_tail.sql's parameters: the last Limit events of SessionID of
// SpaceID, oldest first.
type sessionTailArgs struct {
	SpaceID   string
	SessionID string
	Limit     int
}

// querySessionTail runs session_tail.sql.
func querySessionTail(ctx context.Context, db pgexec.Executor, a sessionTailArgs) ([]TailEvent, error) {
	rows, err := db.Query(ctx, qSessionTail, a.SpaceID, a.SessionID, a.Limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scanTail)
}
