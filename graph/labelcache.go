package graph

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// labelCacheTries is how many times WithLabelCacheRetry runs its function.
const labelCacheTries = 3

// LabelCacheCorrupted reports whether err is AGE 1.5.0's "label (relation) cache corrupted"
// (SQLSTATE XX000): a session filling AGE's label cache while another session's label DDL (a
// graph created or dropped) lands fails its statement (apache/age#2245, fixed in AGE 1.6.0).
// The statement's transaction rolls back whole, so running it again is safe.
func LabelCacheCorrupted(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "XX000" && pgErr.Message == "label (relation) cache corrupted"
}

// WithLabelCacheRetry runs fn in a transaction on a connection of pool. When AGE fails it with a
// corrupted label cache (LabelCacheCorrupted), that connection is closed, so its session's cache
// goes with it, and fn runs again in a new transaction on another connection, up to three times
// in all. Any other error is returned as it is.
func WithLabelCacheRetry(ctx context.Context, pool *pgxpool.Pool, fn func(pgx.Tx) error) error {
	var err error
	for range labelCacheTries {
		var conn *pgxpool.Conn
		if conn, err = pool.Acquire(ctx); err != nil {
			return fmt.Errorf("acquire a connection: %w", err)
		}
		err = pgx.BeginFunc(ctx, conn, fn)
		if !LabelCacheCorrupted(err) {
			conn.Release()
			return err
		}
		// The session's label cache is suspect: the connection leaves the pool with it.
		_ = conn.Hijack().Close(ctx)
	}
	return err
}
