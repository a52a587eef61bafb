// Package eventloom is Zaxy's source of truth: an append-only, hash-chained log of events per
// space, kept in Postgres. Postgres enforces the invariants (the chain is linked by a trigger,
// updates and deletes are rejected by triggers); this package validates input, appends in one
// transaction together with the outbox job that projects it, replays and verifies.
//
// It never updates or deletes an event, and never computes seq or hashes on the write path:
// the database does, so every writer (this package, psql, COPY) produces the same chain.
package eventloom
