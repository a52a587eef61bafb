package dbsqlc

// Written by hand, not generated (sqlc leaves this file alone): the generated queries that
// eventloom pipelines with others in one pgx.Batch. Each queues the generated statement with
// the generated method's arguments; the caller reads the result in the generated row's column
// order.

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// QueueChainLock queues ChainLock.
func QueueChainLock(b *pgx.Batch, spaceID string) { b.Queue(chainLock, spaceID) }

// QueueRedactionMode queues RedactionMode; the result is one text column, or no row.
func QueueRedactionMode(b *pgx.Batch, spaceID string) { b.Queue(redactionMode, spaceID) }

// QueueIdempotencyGet queues IdempotencyGet; the result is IdempotencyGetRow's columns, or no
// row.
func QueueIdempotencyGet(b *pgx.Batch, arg IdempotencyGetParams) {
	b.Queue(idempotencyGet, arg.SpaceID, arg.Key)
}

// errRecorded ends a generated method run against a recorder once it has its statement.
var errRecorded = errors.New("dbsqlc: statement recorded")

// recorder is a DBTX that keeps the one statement a generated method sends.
type recorder struct {
	sql  string
	args []any
}

func (r *recorder) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	r.sql, r.args = sql, args
	return pgconn.CommandTag{}, errRecorded
}

func (r *recorder) Query(_ context.Context, sql string, args ...any) (pgx.Rows, error) {
	r.sql, r.args = sql, args
	return nil, errRecorded
}

func (r *recorder) QueryRow(context.Context, string, ...any) pgx.Row {
	panic("dbsqlc: a :one query is not queued through the recorder")
}

// QueueAppendKeyed queues AppendKeyed with the generated method's statement and arguments (run
// against a recorder, so their order is the generated one); the result is AppendKeyedRow's
// columns, one row per event.
func QueueAppendKeyed(b *pgx.Batch, arg AppendKeyedParams) {
	var r recorder
	_, _ = New().AppendKeyed(context.Background(), &r, arg)
	b.Queue(r.sql, r.args...)
}
