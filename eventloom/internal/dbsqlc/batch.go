package dbsqlc

// Written by hand, not generated (sqlc leaves this file alone): the generated queries that
// eventloom pipelines with others in one pgx.Batch. Each queues the generated statement with
// the generated method's arguments; the caller reads the result in the generated row's column
// order.

import "github.com/jackc/pgx/v5"

// QueueChainLock queues ChainLock.
func QueueChainLock(b *pgx.Batch, spaceID string) { b.Queue(chainLock, spaceID) }

// QueueRedactionMode queues RedactionMode; the result is one text column, or no row.
func QueueRedactionMode(b *pgx.Batch, spaceID string) { b.Queue(redactionMode, spaceID) }

// QueueIdempotencyGet queues IdempotencyGet; the result is IdempotencyGetRow's columns, or no
// row.
func QueueIdempotencyGet(b *pgx.Batch, arg IdempotencyGetParams) {
	b.Queue(idempotencyGet, arg.SpaceID, arg.Key)
}
