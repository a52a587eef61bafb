package graph

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/validation"
)

// sandboxSpace appends an event to space (so it exists), creates its AGE graph and puts one
// Entity vertex named name in it, as a superuser behind the service's back.
func sandboxSpace(t *testing.T, app, admin *pgxpool.Pool, space, name string) string {
	t.Helper()
	ctx := context.Background()
	g := newGraph(t, app, space)
	conn, err := admin.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()
	require.NoError(t, loadAGE(ctx, conn.Conn()))
	createEntity(t, conn, g, name)
	return g
}

// sandboxSpaceTx is sandboxSpace inside a test transaction (testcontainers.TestTx), which
// acts as the owner for the vertex.
func sandboxSpaceTx(t *testing.T, tx pgx.Tx, space, name string) string {
	t.Helper()
	g := newGraph(t, tx, space)
	testcontainers.AsOwner(t, tx, func() {
		require.NoError(t, loadAGE(context.Background(), tx))
		createEntity(t, tx, g, name)
	})
	return g
}

// newGraph appends an event to space (so it exists) and creates its AGE graph, as the service.
func newGraph(t *testing.T, app Querier, space string) string {
	t.Helper()
	ctx := context.Background()
	_, err := eventloom.NewStore(app, nil, nil).Append(ctx, &eventloom.AppendParams{
		SpaceID: space, Events: []eventloom.NewEvent{{Type: "note", Content: "secret of " + space}}})
	require.NoError(t, err)
	var g string
	require.NoError(t, app.QueryRow(ctx, `SELECT zaxy_age_graph($1)`, space).Scan(&g))
	return g
}

// createEntity puts an Entity vertex named name in graph g; admin has AGE loaded.
func createEntity(t *testing.T, admin Querier, g, name string) {
	t.Helper()
	_, err := admin.Exec(context.Background(), fmt.Sprintf(`SELECT * FROM ag_catalog.cypher('%s', $$CREATE (:Entity {name: '%s'})$$) AS (a ag_catalog.agtype)`, g, name))
	require.NoError(t, err)
}

// runRaw runs q through space's runner as the service does, but without the filter.
func runRaw(t *testing.T, app Querier, space, q string) (*CypherResult, error) {
	t.Helper()
	return runCypher(context.Background(), app, CypherParams{SpaceID: space, Query: q, Columns: 1,
		Timeout: DefaultCypherTimeout, Limit: 10, MaxBytes: DefaultCypherMaxBytes, MaxValueBytes: DefaultCypherMaxValueBytes})
}

func requireDenied(t *testing.T, err error, q string) {
	t.Helper()
	require.Error(t, err, q)
	var ve *validation.Error
	require.True(t, errors.As(err, &ve), "%s: %v", q, err)
	require.Equal(t, "query", ve.Field)
}

func TestCypherSandbox_RoleCannotReachBeyondItsGraph(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t) // own database: a second session of the service is the victim
	app, admin := db.AppPool(t), db.AdminPool(t)
	ctx := context.Background()
	sandboxSpace(t, app, admin, "sbx-a", "alice")
	gB := sandboxSpace(t, app, admin, "sbx-b", "bob")
	_, err := admin.Exec(ctx, `INSERT INTO api_tokens (token_id, hash, scope, spaces) VALUES ('0123456789ab', sha256('x'), 'read', '{sbx-b}')`)
	require.NoError(t, err)

	// Its own graph is readable.
	res, err := runRaw(t, app, "sbx-a", "MATCH (a:Entity) RETURN a.name")
	require.NoError(t, err)
	require.Equal(t, `"alice"`, string(res.Rows[0][0]))

	// Everything else is refused, each with a 400 on query (permission denied is SQLSTATE 42501).
	for _, q := range []string{
		"RETURN query_to_xml('SELECT count(*) FROM events', true, true, '')",
		"RETURN query_to_xml('SELECT * FROM api_tokens', true, true, '')",
		"RETURN query_to_xml('SELECT * FROM entities', true, true, '')",
		fmt.Sprintf(`RETURN query_to_xml('SELECT * FROM %s."Entity"', true, true, '')`, gB),
		"RETURN query_to_xml('SELECT zaxy_age_drop(''sbx-b'')', true, true, '')",
		"RETURN query_to_xml('SELECT set_config(''role'', ''zaxy_app'', true)', true, true, '')",
		"RETURN query_to_xml('SET ROLE zaxy_app', true, true, '')",
		"RETURN query_to_xml('CREATE TABLE public.owned (x int)', true, true, '')",
	} {
		_, err := runRaw(t, app, "sbx-a", q)
		requireDenied(t, err, q)
	}

	// It cannot terminate the service's own backends.
	victim, err := app.Acquire(ctx)
	require.NoError(t, err)
	defer victim.Release()
	var pid int
	require.NoError(t, victim.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid))
	_, err = runRaw(t, app, "sbx-a", fmt.Sprintf("RETURN pg_terminate_backend(%d)", pid))
	requireDenied(t, err, "pg_terminate_backend")
	var one int
	require.NoError(t, victim.QueryRow(ctx, `SELECT 1`).Scan(&one), "the service's backend survived")

	// It runs as a role that owns only its runner and belongs to no role.
	var owned, memberOf int
	require.NoError(t, admin.QueryRow(ctx, `
		SELECT (SELECT count(*) FROM pg_class WHERE relowner = r.oid) + (SELECT count(*) FROM pg_namespace WHERE nspowner = r.oid)
		       + (SELECT count(*) FROM pg_proc WHERE proowner = r.oid) - 1,
		       (SELECT count(*) FROM pg_auth_members WHERE member = r.oid)
		FROM pg_roles r WHERE rolname = 'zaxy_cy_' || substr((SELECT graph_name FROM age_graphs WHERE space_id = 'sbx-a'), 4)`).Scan(&owned, &memberOf))
	require.Zero(t, owned)
	require.Zero(t, memberOf)
}

// On the service's path (a READ ONLY transaction of its own on a pool) and inside a caller's
// transaction (a savepoint set READ ONLY) alike, the runner's writes are undone.
func TestCypherSandbox_WritesAreAlwaysRolledBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// AGE ignores grants and READ ONLY for these; whatever they did, nothing is committed.
	writes := []string{
		"MATCH (a:Entity) SET a.name = 'pwned' RETURN a.name",
		"MATCH (a:Entity) REMOVE a.name RETURN a",
		"MATCH (a:Entity) DETACH DELETE a RETURN 1",
		"CREATE (a:Entity {name: 'mallory'}) RETURN a.name",
	}
	entityNames := func(t *testing.T, admin Querier, g string) []string {
		t.Helper()
		rows, err := admin.Query(ctx, fmt.Sprintf(`SELECT ag_catalog.agtype_out(properties)::text FROM %s."Entity"`, pgx.Identifier{g}.Sanitize()))
		require.NoError(t, err)
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return names
	}
	t.Run("pool", func(t *testing.T) {
		t.Parallel()
		db := testcontainers.NewDatabase(t) // own database: the runner's own transaction on the pool is under test
		app, admin := db.AppPool(t), db.AdminPool(t)
		g := sandboxSpace(t, app, admin, "sbx-w", "alice")
		for _, q := range writes {
			_, _ = runRaw(t, app, "sbx-w", q)
		}
		names := entityNames(t, admin, g)
		require.Len(t, names, 1)
		require.Contains(t, names[0], `"alice"`)
	})
	t.Run("transaction", func(t *testing.T) {
		t.Parallel()
		tx := testcontainers.TestTx(t)
		g := sandboxSpaceTx(t, tx, "sbx-w", "alice")
		for _, q := range writes {
			_, _ = runRaw(t, tx, "sbx-w", q)
		}
		var names []string
		testcontainers.AsOwner(t, tx, func() { names = entityNames(t, tx, g) })
		require.Len(t, names, 1)
		require.Contains(t, names[0], `"alice"`)
		_, err := eventloom.NewStore(tx, nil, nil).Append(ctx, &eventloom.AppendParams{
			SpaceID: "sbx-w", Events: []eventloom.NewEvent{{Type: "note", Content: "after"}}})
		require.NoError(t, err, "the caller's transaction is writable again")
	})
}

func TestCypher_CapsBytesAndValues(t *testing.T) {
	t.Parallel()
	app := testcontainers.TestTx(t)
	ctx := context.Background()
	sandboxSpaceTx(t, app, "sbx-cap", "alice")

	// One value over the per-value cap is refused in Postgres.
	_, err := Cypher(ctx, app, CypherParams{SpaceID: "sbx-cap", Query: "RETURN range(1, 10000)", MaxValueBytes: 1000})
	require.ErrorIs(t, err, ErrResponseTooLarge)
	require.ErrorContains(t, err, "1000")

	// Many small rows stop at the byte cap, marked truncated with the reason.
	res, err := Cypher(ctx, app, CypherParams{SpaceID: "sbx-cap", Query: "UNWIND range(1, 500) AS x RETURN range(1, 20)", MaxBytes: 2000})
	require.NoError(t, err)
	require.True(t, res.Truncated)
	require.Equal(t, "max_bytes", res.TruncatedReason)
	require.NotEmpty(t, res.Rows)
	require.Less(t, len(res.Rows), 500)

	// The row cap still applies.
	res, err = Cypher(ctx, app, CypherParams{SpaceID: "sbx-cap", Query: "UNWIND range(1, 50) AS x RETURN x", Limit: 7})
	require.NoError(t, err)
	require.Len(t, res.Rows, 7)
	require.Equal(t, "limit", res.TruncatedReason)

	// Client errors raised while running the query are 400s on query, not 500s.
	for _, q := range []string{"RETURN 1 / 0", "MATCH (a:Entity) RETURN a.name + [1] * 'x'"} {
		_, err := Cypher(ctx, app, CypherParams{SpaceID: "sbx-cap", Query: q})
		var ve *validation.Error
		var pgErr *pgconn.PgError
		require.True(t, errors.As(err, &ve), "%s: %v (pg %v)", q, err, errors.As(err, &pgErr))
		require.Equal(t, "query", ve.Field)
	}
}

func TestCypher_WithoutItsSandboxFailsClosed(t *testing.T) {
	t.Parallel()
	tx := testcontainers.TestTx(t)
	ctx := context.Background()
	g := sandboxSpaceTx(t, tx, "sbx-none", "alice")
	// As when the migrating role could not create the sandbox: the graph exists, the runner not.
	// (The runner was created in this transaction, so dropping it locks nothing of other tests.)
	testcontainers.AsOwner(t, tx, func() {
		_, err := tx.Exec(ctx, fmt.Sprintf(`DROP FUNCTION zaxy_cypher.%s`, pgx.Identifier{g}.Sanitize()))
		require.NoError(t, err)
	})
	_, err := Cypher(ctx, tx, CypherParams{SpaceID: "sbx-none", Query: "MATCH (a:Entity) RETURN a.name"})
	require.ErrorIs(t, err, ErrAGEOff)
	require.ErrorContains(t, err, "no Cypher sandbox")
	// The service cannot run cypher() itself either way: it has no EXECUTE on other runners
	// and the runners are not executable by PUBLIC.
	var public bool
	testcontainers.AsOwner(t, tx, func() {
		require.NoError(t, tx.QueryRow(ctx, `SELECT bool_or(has_function_privilege('public', p.oid, 'EXECUTE'))
		FROM pg_proc p WHERE p.prosecdef AND p.prorettype <> 'trigger'::regtype AND p.pronamespace IN ('public'::regnamespace, 'zaxy_cypher'::regnamespace)`).Scan(&public))
	})
	require.False(t, public, "no SECURITY DEFINER function of ours (triggers aside, which cannot be called) is executable by PUBLIC")
}

// The runner's plan check is a wall of its own: writes that get past a bypassed filter
// (backquoted or not) are refused before they run, each a 400 on query naming the write node.
func TestCypherPlanCheck_RefusesWritesTheFilterMissed(t *testing.T) {
	t.Parallel()
	tx := testcontainers.TestTx(t)
	sandboxSpaceTx(t, tx, "sbx-plan", "alice")
	for q, node := range map[string]string{
		"MATCH (n) `SET` n.x = 1 RETURN [n.name, n.x]":             "Cypher Set",
		"MATCH (n:Entity) SET n.name = 'pwned' RETURN n.name":      "Cypher Set",
		"MATCH (n:Entity) `REMOVE` n.name RETURN n":                "Cypher Set",
		"MATCH (n:Entity) `DETACH` `DELETE` n RETURN count(*)":     "Cypher Delete",
		"MATCH (n:Entity) DELETE n":                                "Cypher Delete",
		"`CREATE` p=(:Entity {name: 'mallory'}) RETURN p":          "|",
		"`MERGE` p=(:Entity {name: 'mallory'}) RETURN p":           "|",
		"MATCH (n:Entity) WITH n CREATE (m:Entity) RETURN 1":       "|",
		"MATCH (n:Entity) RETURN n.name UNION CREATE (m) RETURN 1": "|",
	} {
		_, err := runRaw(t, tx, "sbx-plan", q)
		requireDenied(t, err, q)
		if node == "|" {
			// AGE checks INSERT on the label's table while it plans CREATE and MERGE, which
			// the sandbox role lacks: refused before the plan check even sees them.
			require.True(t, strings.Contains(err.Error(), "permission denied") || strings.Contains(err.Error(), "must only read"), "%s: %v", q, err)
			continue
		}
		require.ErrorContains(t, err, "must only read", q)
		require.ErrorContains(t, err, node, q)
	}
	// Reads still run.
	res, err := runRaw(t, tx, "sbx-plan", "MATCH (n:Entity) RETURN n.name")
	require.NoError(t, err)
	require.Equal(t, `"alice"`, string(res.Rows[0][0]))
}

// A Cypher read never queues for a lock the projector holds: it gives up after the runner's
// 500 ms lock timeout (well before its statement timeout) instead of waiting in the lock
// queue, where the projector's next lock requests would line up behind it.
func TestCypher_GivesUpOnALockTheProjectorHolds(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t) // own database: a table lock is held across sessions
	app, admin := db.AppPool(t), db.AdminPool(t)
	ctx := context.Background()
	g := sandboxSpace(t, app, admin, "sbx-lock", "alice")
	holder, err := admin.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = holder.Rollback(ctx) }()
	// As the projector's AGE sync does when it creates a label: an exclusive lock, held
	// until its transaction ends.
	_, err = holder.Exec(ctx, fmt.Sprintf(`LOCK TABLE %s IN ACCESS EXCLUSIVE MODE`, pgx.Identifier{g, "Entity"}.Sanitize()))
	require.NoError(t, err)
	_, err = runCypher(ctx, app, CypherParams{SpaceID: "sbx-lock", Query: "MATCH (a:Entity) RETURN a.name", Columns: 1,
		Timeout: MaxCypherTimeout, Limit: 10, MaxBytes: DefaultCypherMaxBytes, MaxValueBytes: DefaultCypherMaxValueBytes})
	require.ErrorIs(t, err, ErrQueryTimeout)
	require.ErrorContains(t, err, "lock timeout")
	// The holder (the projector) was never in its way and goes on.
	_, err = holder.Exec(ctx, fmt.Sprintf(`SELECT count(*) FROM %s`, pgx.Identifier{g, "Entity"}.Sanitize()))
	require.NoError(t, err)
}

// pidGone reports whether backend pid is no longer in pg_stat_activity.
func pidGone(t *testing.T, admin Querier, pid uint32) bool {
	t.Helper()
	var alive bool
	require.NoError(t, admin.QueryRow(context.Background(), `SELECT EXISTS (SELECT FROM pg_stat_activity WHERE pid = $1)`, int32(pid)).Scan(&alive))
	return !alive
}

// A query that never checks for interrupts (one expression building lists, as the filter's
// bounds would refuse) runs past its statement timeout; when Cypher returns, its backend has
// been ended and is gone, and the pool hands out a new connection.
func TestCypher_DeadlineEndsTheBackend(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t) // own database: its backends are counted
	app, admin := db.AppPool(t), db.AdminPool(t)
	ctx := context.Background()
	sandboxSpace(t, app, admin, "sbx-kill", "alice")
	cfg, err := pgxpool.ParseConfig(db.AppURL)
	require.NoError(t, err)
	cfg.MaxConns = 1
	one, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	defer one.Close()
	backend := func() uint32 {
		c, err := one.Acquire(ctx)
		require.NoError(t, err)
		defer c.Release()
		return c.Conn().PgConn().PID()
	}
	// ~10 M list elements in one expression: seconds of work that no interrupt stops.
	slow := "RETURN " + strings.Repeat("size(range(1,1000000)) + ", 9) + "size(range(1,1000000))"
	t.Run("timeout", func(t *testing.T) {
		pid := backend()
		_, err := runCypher(ctx, one, CypherParams{SpaceID: "sbx-kill", Query: slow, Columns: 1,
			Timeout: 50 * time.Millisecond, Limit: 10, MaxBytes: DefaultCypherMaxBytes, MaxValueBytes: DefaultCypherMaxValueBytes})
		require.ErrorIs(t, err, ErrQueryTimeout)
		require.True(t, pidGone(t, admin, pid), "the backend is gone when Cypher returns")
		require.NotEqual(t, pid, backend(), "the pool made a new connection")
	})
	t.Run("request context", func(t *testing.T) {
		pid := backend()
		rctx, cancel := context.WithCancel(ctx)
		go func() {
			// Cancel once the query is running (its backend is active in the runner's call,
			// "zaxy_cypher"."<graph>"(...), not in the lookup of the runner, whose text names
			// zaxy_cypher too: cancelled there, pgx returns before its backend has seen the cancel).
			for {
				var active bool
				if err := admin.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND query LIKE '%"zaxy_cypher".%')`, int32(pid)).Scan(&active); err != nil || active {
					cancel()
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		}()
		_, err := runCypher(rctx, one, CypherParams{SpaceID: "sbx-kill", Query: slow, Columns: 1,
			Timeout: MaxCypherTimeout, Limit: 10, MaxBytes: DefaultCypherMaxBytes, MaxValueBytes: DefaultCypherMaxValueBytes})
		require.ErrorIs(t, err, context.Canceled)
		// Cancelled in the runner's plan check, which Postgres can interrupt, the backend stays
		// and is idle; cancelled in the uninterruptible expression, the watchdog has ended it.
		// Either way nothing of the request runs on when Cypher returns.
		var running bool
		require.NoError(t, admin.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_stat_activity WHERE pid = $1 AND state = 'active')`, int32(pid)).Scan(&running))
		require.False(t, running, "the backend runs nothing when Cypher returns")
	})
}

// backendMemory reads backend pid's private memory as the superuser admin (-1 where /proc
// cannot be read).
func backendMemory(ctx context.Context, admin Querier, pid uint32) (int64, error) {
	var used int64
	err := admin.QueryRow(ctx, `SELECT coalesce(substring(pg_read_file('/proc/' || $1::int || '/status', true) FROM 'RssAnon:\s+([0-9]+) kB')::bigint * 1024, -1)`, int32(pid)).Scan(&used)
	return used, err
}

// sampleMemory watches backend pid from admin until stop is called and returns the most
// private memory it saw. As a guard for the shared test cluster, it ends the backend itself
// once it passes guard bytes, and says so (which fails the test: the cap did not hold).
func sampleMemory(t *testing.T, admin *pgxpool.Pool, pid uint32, guard int64) (stop func() (peak int64, guarded bool)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var peak int64
	var guarded bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			used, err := backendMemory(ctx, admin, pid)
			if err == nil && used > peak {
				peak = used
			}
			if used > guard && !guarded {
				guarded = true
				_, _ = admin.Exec(context.Background(), `SELECT pg_terminate_backend($1)`, int32(pid))
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return func() (int64, bool) {
		cancel()
		<-done
		return peak, guarded
	}
}

// Queries the filter accepts, which grow a backend per row between interrupts without a limit
// of their own: collect() over a cartesian product (the 912 MB reproduction of issue 30), and
// agtype comparisons in a sort and in count(DISTINCT ...). Each is ended once its backend's
// private memory passes the cap, with a 400 naming query, and the backend is gone when
// Cypher returns. (On the old code they ran on to their timeout: the test's guard ends them
// at 512 MiB and fails.)
func TestCypher_MemoryCapEndsTheBackend(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t) // own database: its backends are measured and ended
	app, admin := db.AppPool(t), db.AdminPool(t)
	ctx := context.Background()
	sandboxSpace(t, app, admin, "sbx-mem", "alice")
	var self uint32
	require.NoError(t, admin.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&self))
	if used, err := backendMemory(ctx, admin, self); err != nil || used < 0 {
		t.Skipf("the database cannot read /proc (%v): its memory cap is off", err)
	}
	cfg, err := pgxpool.ParseConfig(db.AppURL)
	require.NoError(t, err)
	cfg.MaxConns = 1
	one, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	defer one.Close()
	backend := func() uint32 {
		c, err := one.Acquire(ctx)
		require.NoError(t, err)
		defer c.Release()
		return c.Conn().PgConn().PID()
	}
	const maxMemory = 64 << 20
	cross := "UNWIND range(1,10000) AS i UNWIND range(1,10000) AS j "
	for name, q := range map[string]string{
		"collect":        cross + "RETURN size(collect('" + strings.Repeat("x", 9000) + "'))",
		"order by":       cross + "WITH j ORDER BY j SKIP 100000000 RETURN j",
		"count distinct": cross + "RETURN count(DISTINCT j)",
	} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, CheckCypher(q), "the filter accepts it")
			pid := backend()
			stop := sampleMemory(t, admin, pid, 512<<20)
			_, err := Cypher(ctx, one, CypherParams{SpaceID: "sbx-mem", Query: q, Timeout: 20 * time.Second, MaxMemory: maxMemory})
			peak, guarded := stop()
			require.False(t, guarded, "the test's guard had to end the backend at %d MiB", peak>>20)
			requireDenied(t, err, q)
			require.ErrorContains(t, err, "64 MiB of database memory")
			require.True(t, pidGone(t, admin, pid), "the backend is gone when Cypher returns")
			// The watchdog reads the memory every 50 ms; at ~400 MB/s (the fastest growth
			// measured) it passes the cap by ~20 MB before it is seen. The margin allows for
			// a loaded machine.
			require.Less(t, peak, int64(maxMemory+192<<20), "peak private memory %d MiB", peak>>20)
			t.Logf("%s: peak private memory seen %d MiB", name, peak>>20)
		})
	}
	// A query within the cap runs as before on the same pool.
	res, err := Cypher(ctx, one, CypherParams{SpaceID: "sbx-mem", Query: "UNWIND range(1,1000) AS i RETURN size(collect(i))", MaxMemory: maxMemory})
	require.NoError(t, err)
	require.Equal(t, "1000", string(res.Rows[0][0]))
}
