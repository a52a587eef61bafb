package testcontainers

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// sharedSlotLockClass is the advisory lock class (the first key) under which a test binary
// claims its shared database's slot (the second key), in the cluster's admin database.
const sharedSlotLockClass = 1517840765

// maxSharedSlots bounds how many test binaries can hold a shared database at once.
const maxSharedSlots = 256

// shared is this test binary's one database for rolled-back test transactions.
var shared struct {
	once sync.Once
	pool *pgxpool.Pool
	err  error
}

// TestTx begins a transaction in this test binary's shared migrated database, acting as the
// application role (SET LOCAL ROLE TestAppRole, so privileges are exactly the service's), and
// rolls it back when the test ends. It is much cheaper than NewDatabase (a BEGIN instead of
// copying a database), so it is the default for a test that neither commits nor needs a
// second session: domain code takes a pgexec.Executor and runs on the transaction, its own
// transactions becoming savepoints. Committing the returned transaction fails the test.
//
// Tests in one binary share the database's objects and locks, not its rows: rows one test
// writes are invisible to the others and vanish at rollback. So a test must not take a lock
// or a unique key that another running test takes too (use a space id of its own: the chain,
// the graph and the projection lock by space), must not assert on numbers drawn from a
// sequence, and must not run DDL or TRUNCATE (they lock a table against every other test).
// Use NewDatabase where a test commits, watches another session (locks, LISTEN, River
// workers), or changes the schema.
//
// The shared database is created from the migrated template the first time a test asks for
// it. It belongs to a slot the binary holds for its lifetime (an advisory lock in the admin
// database), so binaries running at once never share one; the next binary to take the slot
// drops it and makes a fresh copy, which keeps at most one leftover database per slot.
func TestTx(tb testing.TB) pgx.Tx {
	tb.Helper()
	pool := sharedPool(tb)
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	if err != nil {
		tb.Fatalf("begin test transaction: %v", err)
	}
	tb.Cleanup(func() {
		// A test that cancelled a query mid-flight leaves a closed connection: nothing was
		// committed either way.
		if err := tx.Rollback(context.Background()); err != nil && !errors.Is(err, pgx.ErrTxClosed) {
			tb.Logf("roll back test transaction: %v", err)
		}
	})
	if _, err := tx.Exec(ctx, "SET LOCAL ROLE "+TestAppRole); err != nil {
		tb.Fatalf("act as %s: %v", TestAppRole, err)
	}
	return &testTx{Tx: tx, tb: tb}
}

// AsOwner runs fn while tx, a transaction from TestTx, acts as the schema owner (the cluster
// superuser), then returns it to TestAppRole: for the steps a test takes behind the service's
// back, such as tampering with rows or reading another role's catalog entries. fn must leave
// tx usable (wrap a statement that is meant to fail in a savepoint).
func AsOwner(tb testing.TB, tx pgx.Tx, fn func()) {
	tb.Helper()
	ctx := context.Background()
	if _, err := tx.Exec(ctx, "SET LOCAL ROLE NONE"); err != nil {
		tb.Fatalf("act as the owner: %v", err)
	}
	fn()
	if _, err := tx.Exec(ctx, "SET LOCAL ROLE "+TestAppRole); err != nil {
		tb.Fatalf("act as %s again: %v", TestAppRole, err)
	}
}

// testTx is a TestTx transaction: Commit is refused, so no test leaves rows in the shared
// database. Savepoints (Begin) commit as usual.
type testTx struct {
	pgx.Tx
	tb testing.TB
}

// Commit fails the test: a TestTx transaction is only ever rolled back.
func (t *testTx) Commit(context.Context) error {
	t.tb.Errorf("a TestTx transaction must not be committed; use NewDatabase for a test that commits")
	return errors.New("testcontainers: TestTx transactions are never committed")
}

// sharedPool opens the shared database's pool on first use, as the superuser (TestTx then
// acts as TestAppRole inside each transaction).
func sharedPool(tb testing.TB) *pgxpool.Pool {
	tb.Helper()
	admin := AdminURL(tb)
	shared.once.Do(func() {
		ctx := context.Background()
		var name string
		if name, shared.err = createSharedDatabase(ctx, admin); shared.err == nil {
			shared.pool, shared.err = newPool(ctx, withDatabase(admin, name, nil))
		}
	})
	if shared.err != nil {
		tb.Fatalf("prepare the shared test database: %v", shared.err)
	}
	return shared.pool
}

// createSharedDatabase claims a free slot for this process and copies the migrated template
// into the slot's database, replacing what an earlier binary left there. The connection
// holding the slot's lock stays open until the process exits.
func createSharedDatabase(ctx context.Context, admin string) (string, error) {
	tmpl, err := ensureTemplate(ctx, admin)
	if err != nil {
		return "", fmt.Errorf("prepare template database: %w", err)
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return "", fmt.Errorf("connect to test cluster: %w", err)
	}
	slot := -1
	for k := range maxSharedSlots {
		var got bool
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, $2)`, sharedSlotLockClass, k).Scan(&got); err != nil {
			conn.Close(ctx)
			return "", fmt.Errorf("claim a shared database slot: %w", err)
		}
		if got {
			slot = k
			break
		}
	}
	if slot < 0 {
		conn.Close(ctx)
		return "", fmt.Errorf("all %d shared database slots are taken", maxSharedSlots)
	}
	name := fmt.Sprintf("zaxy_tx_%d", slot)
	for _, q := range []string{
		fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name),
		fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, tmpl),
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			conn.Close(ctx)
			return "", fmt.Errorf("create shared test database %s: %w", name, err)
		}
	}
	return name, nil // conn is left open on purpose: it holds the slot
}
