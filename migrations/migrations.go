// Package migrations embeds Zaxy's schema, River's tables included, as golang-migrate files
// and applies or checks them. It is the only owner of DDL; it never touches data.
package migrations

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"time"

	"github.com/golang-migrate/migrate/v4"
	_ "github.com/golang-migrate/migrate/v4/database/pgx/v5" // registers the pgx5:// driver
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// FS holds the zero-padded NNNNNN_name.up.sql / .down.sql files.
//
//go:embed *.sql
var FS embed.FS

// ErrOutOfDate means the database schema is older than this binary (or dirty).
var ErrOutOfDate = errors.New("database schema is out of date")

var fileVersion = regexp.MustCompile(`^(\d+)_.*\.up\.sql$`)

// Latest returns the highest migration version embedded in this binary.
func Latest() uint {
	entries, err := fs.ReadDir(FS, ".")
	if err != nil {
		panic(err)
	}
	var versions []int
	for _, e := range entries {
		if m := fileVersion.FindStringSubmatch(e.Name()); m != nil {
			v, _ := strconv.Atoi(m[1])
			versions = append(versions, v)
		}
	}
	sort.Ints(versions)
	return uint(versions[len(versions)-1])
}

// Up applies every pending migration to the database at databaseURL (a postgres:// URL).
// It waits at most lockTimeout for another migrator holding the migration lock. It returns the
// version the database is at afterwards; no pending migrations is success.
func Up(ctx context.Context, databaseURL string, lockTimeout time.Duration) (uint, error) {
	m, err := open(databaseURL)
	if err != nil {
		return 0, err
	}
	defer m.Close()
	if lockTimeout > 0 {
		m.LockTimeout = lockTimeout
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			m.GracefulStop <- true
		case <-done:
		}
	}()
	if err := m.Up(); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return 0, fmt.Errorf("apply migrations: %w", err)
	}
	v, _, err := m.Version()
	if err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

func open(databaseURL string) (*migrate.Migrate, error) {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("parse database URL: %w", err)
	}
	u.Scheme = "pgx5"
	src, err := iofs.New(FS, ".")
	if err != nil {
		return nil, fmt.Errorf("open embedded migrations: %w", err)
	}
	m, err := migrate.NewWithSourceInstance("iofs", src, u.String())
	if err != nil {
		return nil, fmt.Errorf("connect for migrations: %w", err)
	}
	return m, nil
}

// Status is the schema version recorded in a database.
type Status struct {
	// Version is the applied version (0 when none).
	Version uint
	// Dirty is true when a migration failed half-way.
	Dirty bool
	// Latest is the version this binary expects.
	Latest uint
}

// Current reports whether the database is at the version this binary expects.
func (s Status) Current() bool { return !s.Dirty && s.Version == s.Latest }

// Querier is what Check needs: a pool, a connection or a transaction.
type Querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// ReadStatus reads the schema version through an existing connection or pool.
func ReadStatus(ctx context.Context, q Querier) (Status, error) {
	st := Status{Latest: Latest()}
	var exists bool
	if err := q.QueryRow(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&exists); err != nil {
		return st, fmt.Errorf("read schema version: %w", err)
	}
	if !exists {
		return st, nil
	}
	var version int64
	err := q.QueryRow(ctx, `SELECT version, dirty FROM schema_migrations LIMIT 1`).Scan(&version, &st.Dirty)
	if errors.Is(err, pgx.ErrNoRows) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("read schema version: %w", err)
	}
	st.Version = uint(version)
	return st, nil
}

// Check returns ErrOutOfDate, with the versions and the command to run, unless the database
// is at exactly the version this binary expects.
func Check(ctx context.Context, pool *pgxpool.Pool) error {
	st, err := ReadStatus(ctx, pool)
	if err != nil {
		return err
	}
	if st.Dirty {
		return fmt.Errorf("%w: migration %d failed half-way (dirty); fix it by hand, then run 'zaxy migrate'", ErrOutOfDate, st.Version)
	}
	if st.Version < st.Latest {
		return fmt.Errorf("%w: database is at version %d, this zaxy needs %d; run 'zaxy migrate' (or 'zaxy serve --migrate')", ErrOutOfDate, st.Version, st.Latest)
	}
	if st.Version > st.Latest {
		return fmt.Errorf("%w: database is at version %d, newer than this zaxy (%d); upgrade zaxy", ErrOutOfDate, st.Version, st.Latest)
	}
	return nil
}
