// Package pgexec is the seam between Zaxy's domain packages and Postgres: the one executor
// type they take (a *pgxpool.Pool, a *pgx.Conn or a pgx.Tx, so the same call runs on a pool
// or inside a caller's transaction) and the per-connection setup every pool runs.
//
// It holds no queries and no state. It must never hand out a pool: a package that needs to
// run another package's query calls that package's method with its executor instead.
package pgexec

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	pgxvec "github.com/pgvector/pgvector-go/pgx"
)

// Executor runs queries. It is the methods of the DBTX interface sqlc generates for every
// <package>/internal/dbsqlc (so an Executor is accepted by every generated query), plus
// SendBatch for pipelined round trips and Begin for writes that need their own transaction
// (on a pgx.Tx, Begin opens a savepoint). *pgxpool.Pool, *pgx.Conn and pgx.Tx implement it.
//
// Only a *pgxpool.Pool is safe for concurrent use: each call takes a connection of its own. A
// *pgx.Conn and a pgx.Tx run one statement at a time, and a call made while another's rows are
// still open fails (conn busy). So code that runs queries from several goroutines at once (the
// lanes of one checkout, the per-space workers of a job) must be given a pool; code given a
// connection or a transaction runs its queries one after another, reading each result to its
// end before the next.
type Executor interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	CopyFrom(ctx context.Context, tableName pgx.Identifier, columnNames []string, rowSrc pgx.CopyFromSource) (int64, error)
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
	Begin(ctx context.Context) (pgx.Tx, error)
}

var (
	_ Executor = (*pgxpool.Pool)(nil)
	_ Executor = (*pgx.Conn)(nil)
	_ Executor = (pgx.Tx)(nil)
)

// BeginTx opens a transaction with opts on db: a real one when db can start transactions
// with options (a pool or a connection), a savepoint when db is already a transaction (which
// then keeps its own isolation level and access mode).
func BeginTx(ctx context.Context, db Executor, opts pgx.TxOptions) (pgx.Tx, error) {
	if b, ok := db.(interface {
		BeginTx(context.Context, pgx.TxOptions) (pgx.Tx, error)
	}); ok {
		return b.BeginTx(ctx, opts)
	}
	return db.Begin(ctx)
}

// Configure installs AfterConnect on a pool configuration, keeping any AfterConnect already
// set (which runs first), and turns JIT compilation off for the pool's sessions unless the URL
// sets jit itself. Every pool Zaxy opens is configured this way.
//
// Zaxy's statements are short and read a few thousand rows at most, but the planner's row
// estimates for array and join conditions can be far above what they read, and past
// jit_above_cost Postgres compiles the plan first: 190 ms of the encoding gate's 363 ms
// candidate lookup on a space of 100,000 items (docs/benchmarks.md, "Session 29").
func Configure(cfg *pgxpool.Config) {
	if _, set := cfg.ConnConfig.RuntimeParams["jit"]; !set {
		cfg.ConnConfig.RuntimeParams["jit"] = "off"
	}
	prev := cfg.AfterConnect
	cfg.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error {
		if prev != nil {
			if err := prev(ctx, conn); err != nil {
				return err
			}
		}
		return AfterConnect(ctx, conn)
	}
}

// AfterConnect prepares a new connection: it registers pgvector's types (vector, halfvec,
// sparsevec) so pgvector.Vector values travel in binary and vector columns scan into them.
// A database without the vector extension (before 'zaxy migrate', or a doctor run against a
// bare server) is left as it is, not refused; connections opened before the migration that
// creates the extension fall back to pgvector.Vector's text form, which is also correct.
func AfterConnect(ctx context.Context, conn *pgx.Conn) error {
	var present bool
	if err := conn.QueryRow(ctx, `SELECT to_regtype('vector') IS NOT NULL`).Scan(&present); err != nil {
		return fmt.Errorf("look up the vector type: %w", err)
	}
	if !present {
		return nil
	}
	if err := pgxvec.RegisterTypes(ctx, conn); err != nil {
		return fmt.Errorf("register pgvector types: %w", err)
	}
	return nil
}
