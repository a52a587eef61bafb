package dbsqlc

// Written by hand, not generated (sqlc leaves this file alone): the generated statements that
// the projector pipelines with its other batch writes in one pgx.Batch. Each queues what the
// generated method would run: the method runs against a recorder that keeps its statement and
// arguments, so the queued arguments are in the generated order by construction.

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// recorder is a DBTX that keeps the one statement a generated :exec method runs.
type recorder struct {
	sql  string
	args []any
}

func (r *recorder) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	r.sql, r.args = sql, args
	return pgconn.CommandTag{}, nil
}

func (r *recorder) Query(context.Context, string, ...any) (pgx.Rows, error) {
	panic("dbsqlc: only :exec queries are queued")
}

func (r *recorder) QueryRow(context.Context, string, ...any) pgx.Row {
	panic("dbsqlc: only :exec queries are queued")
}

// queue adds the statement that run executes to b.
func queue(b *pgx.Batch, run func(ctx context.Context, db DBTX) error) {
	var r recorder
	_ = run(context.Background(), &r)
	b.Queue(r.sql, r.args...)
}

var batchQueries = New()

// QueueWatermarkSet queues WatermarkSet.
func QueueWatermarkSet(b *pgx.Batch, arg WatermarkSetParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.WatermarkSet(ctx, db, arg) })
}

// QueueAGESync queues AGESync.
func QueueAGESync(b *pgx.Batch, arg AGESyncParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.AGESync(ctx, db, arg) })
}

// QueueSpeakersInsert queues SpeakersInsert.
func QueueSpeakersInsert(b *pgx.Batch, arg SpeakersInsertParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.SpeakersInsert(ctx, db, arg) })
}

// QueueProposalUpsert queues ProposalUpsert.
func QueueProposalUpsert(b *pgx.Batch, arg ProposalUpsertParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.ProposalUpsert(ctx, db, arg) })
}

// QueueSalienceSpaceUpsert queues SalienceSpaceUpsert.
func QueueSalienceSpaceUpsert(b *pgx.Batch, arg SalienceSpaceUpsertParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.SalienceSpaceUpsert(ctx, db, arg) })
}

// QueueGateSpaceUpsert queues GateSpaceUpsert.
func QueueGateSpaceUpsert(b *pgx.Batch, arg GateSpaceUpsertParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.GateSpaceUpsert(ctx, db, arg) })
}

// QueuePolicyPropose queues PolicyPropose.
func QueuePolicyPropose(b *pgx.Batch, arg PolicyProposeParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.PolicyPropose(ctx, db, arg) })
}

// QueuePolicyPromote queues PolicyPromote.
func QueuePolicyPromote(b *pgx.Batch, arg PolicyPromoteParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.PolicyPromote(ctx, db, arg) })
}

// QueuePolicyRollback queues PolicyRollback.
func QueuePolicyRollback(b *pgx.Batch, arg PolicyRollbackParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.PolicyRollback(ctx, db, arg) })
}

// QueueWeaveCitationsInsert queues WeaveCitationsInsert.
func QueueWeaveCitationsInsert(b *pgx.Batch, arg WeaveCitationsInsertParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.WeaveCitationsInsert(ctx, db, arg) })
}

// QueueFactsInsert queues FactsInsert.
func QueueFactsInsert(b *pgx.Batch, arg FactsInsertParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.FactsInsert(ctx, db, arg) })
}

// QueueItemsInsert queues ItemsInsert.
func QueueItemsInsert(b *pgx.Batch, arg ItemsInsertParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.ItemsInsert(ctx, db, arg) })
}

// QueueEntitiesUpsert queues EntitiesUpsert.
func QueueEntitiesUpsert(b *pgx.Batch, arg EntitiesUpsertParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.EntitiesUpsert(ctx, db, arg) })
}

// QueueMentionsInsert queues MentionsInsert.
func QueueMentionsInsert(b *pgx.Batch, arg MentionsInsertParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.MentionsInsert(ctx, db, arg) })
}

// QueueInvalidationsInsert queues InvalidationsInsert.
func QueueInvalidationsInsert(b *pgx.Batch, arg InvalidationsInsertParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.InvalidationsInsert(ctx, db, arg) })
}

// QueueGateKeysInsert queues GateKeysInsert.
func QueueGateKeysInsert(b *pgx.Batch, arg GateKeysInsertParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.GateKeysInsert(ctx, db, arg) })
}

// QueueFactsClose queues FactsClose.
func QueueFactsClose(b *pgx.Batch, arg FactsCloseParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.FactsClose(ctx, db, arg) })
}

// QueueSalienceUpsert queues SalienceUpsert.
func QueueSalienceUpsert(b *pgx.Batch, arg SalienceUpsertParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.SalienceUpsert(ctx, db, arg) })
}

// QueueSalienceRetract queues SalienceRetract.
func QueueSalienceRetract(b *pgx.Batch, arg SalienceRetractParams) {
	queue(b, func(ctx context.Context, db DBTX) error { return batchQueries.SalienceRetract(ctx, db, arg) })
}
