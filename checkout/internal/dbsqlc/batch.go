package dbsqlc

// Written by hand, not generated (sqlc leaves this file alone): the generated statements that
// checkout's lanes pipeline with a hand-written query in one pgx.Batch (the exact lane after
// GenericPlan, the vector lane after its settings). Each queues the generated statement with
// the generated method's arguments.

import "github.com/jackc/pgx/v5"

// QueueGenericPlan queues GenericPlan.
func QueueGenericPlan(b *pgx.Batch) {
	b.Queue(genericPlan)
}

// QueueVectorHNSWSettings queues VectorHNSWSettings.
func QueueVectorHNSWSettings(b *pgx.Batch, efSearch string) {
	b.Queue(vectorHNSWSettings, efSearch)
}

// QueueVectorExactSettings queues VectorExactSettings.
func QueueVectorExactSettings(b *pgx.Batch) {
	b.Queue(vectorExactSettings)
}

// QueueWeaveVerify queues WeaveVerify; its rows scan into WeaveVerifyRow by position
// (pgx.RowToStructByPos), the generated struct's field order being the query's column order.
func QueueWeaveVerify(b *pgx.Batch, arg WeaveVerifyParams) *pgx.QueuedQuery {
	return b.Queue(weaveVerify, arg.SpaceID, arg.Ids, arg.AsOf)
}
