package testcontainers

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
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
	// slot holds the slot's advisory lock until the process exits (kept here so that the
	// garbage collector never closes it).
	slot *pgx.Conn
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
// writes are invisible to the others and vanish at rollback. Locks are held until a test
// ends, so a test that takes a lock (or writes a unique key) another running test holds waits
// for that test: give each test a space id of its own (the chain, the graph and the
// projection lock by space; the first graph of a transaction also takes one lock for every
// new graph, so graph-creating tests run one after another), and never have two tests take
// two such locks in opposite orders. Do not assert on numbers drawn from a sequence (they are
// not rolled back), and do not change tables other tests use (DDL and TRUNCATE lock the
// whole table). Use NewDatabase where a test commits, watches another session (locks,
// LISTEN, River workers), or changes a shared table's schema.
//
// The shared database is a copy of the migrated template, made the first time a test of the
// binary asks for it. It belongs to a slot the binary holds for its lifetime (an advisory lock
// in the admin database), so binaries running at once never share one. Since nothing is ever
// committed to it, the next binary to take the slot reuses it as long as the migrations are
// the same, and otherwise replaces it: one database per slot stays on the cluster.
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
		if shared.slot, name, shared.err = createSharedDatabase(ctx, admin); shared.err == nil {
			shared.pool, shared.err = newPool(ctx, withDatabase(admin, name, nil))
		}
	})
	if shared.err != nil {
		tb.Fatalf("prepare the shared test database: %v", shared.err)
	}
	return shared.pool
}

// createSharedDatabase claims a free slot for this process and returns the connection holding
// its lock (to be kept open until the process exits) and the slot's database: the one an
// earlier binary left when it was made from the same migrations, otherwise a new copy of the
// migrated template (dropping the slot's stale one).
func createSharedDatabase(ctx context.Context, admin string) (*pgx.Conn, string, error) {
	tmpl, err := ensureTemplate(ctx, admin)
	if err != nil {
		return nil, "", fmt.Errorf("prepare template database: %w", err)
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return nil, "", fmt.Errorf("connect to test cluster: %w", err)
	}
	slot := -1
	for k := range maxSharedSlots {
		var got bool
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, $2)`, sharedSlotLockClass, k).Scan(&got); err != nil {
			conn.Close(ctx)
			return nil, "", fmt.Errorf("claim a shared database slot: %w", err)
		}
		if got {
			slot = k
			break
		}
	}
	if slot < 0 {
		conn.Close(ctx)
		return nil, "", fmt.Errorf("all %d shared database slots are taken", maxSharedSlots)
	}
	name := fmt.Sprintf("zaxy_tx_%s_%d", schemaDigest(), slot)
	rows, err := conn.Query(ctx, `SELECT datname FROM pg_database WHERE datname ~ ('^zaxy_tx_[0-9a-f]{16}_' || $1 || '$')`, strconv.Itoa(slot))
	var names []string
	if err == nil {
		names, err = pgx.CollectRows(rows, pgx.RowTo[string])
	}
	if err == nil && !slices.Contains(names, name) {
		for _, stale := range names {
			if _, err = conn.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", stale)); err != nil {
				break
			}
		}
		if err == nil {
			_, err = conn.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, tmpl))
		}
	}
	if err != nil {
		conn.Close(ctx)
		return nil, "", fmt.Errorf("prepare shared test database %s: %w", name, err)
	}
	return conn, name, nil
}
