package graph

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph/internal/dbsqlc"
	"github.com/zaxy/zaxy/sql"
	"github.com/zaxy/zaxy/validation"
)

// ErrAGEOff means Apache AGE is not installed (or cannot be loaded), so the Cypher mirror
// and the Cypher endpoint are off. The relational graph is unaffected.
var ErrAGEOff = errors.New("the Apache AGE graph mirror is off")

// ErrQueryTimeout means a Cypher query ran past its statement timeout.
var ErrQueryTimeout = errors.New("query ran past its statement timeout")

// ErrResponseTooLarge means one value of a Cypher result is larger than the per-value cap;
// the query is refused rather than pulled into memory (HTTP 413 response_too_large).
var ErrResponseTooLarge = errors.New("a value of the response is over the size limit")

// Cypher limits and their defaults.
const (
	// DefaultCypherTimeout is the statement timeout when none is given.
	DefaultCypherTimeout = 5 * time.Second
	// MaxCypherTimeout is the longest statement timeout a query may ask for.
	MaxCypherTimeout = 30 * time.Second
	// DefaultCypherLimit is the row cap when none is given.
	DefaultCypherLimit = 1000
	// DefaultCypherMaxBytes caps the bytes of a result's values (their text, summed): past it
	// the result stops and is marked truncated with reason "max_bytes".
	DefaultCypherMaxBytes = 8 << 20
	// DefaultCypherMaxValueBytes caps one value's text; a larger value refuses the query with
	// ErrResponseTooLarge. Postgres measures it, so the value never reaches the service.
	DefaultCypherMaxValueBytes = 1 << 20
	// DefaultCypherMaxMemory caps the private memory of a query's backend: past it the
	// watchdog ends the backend and the query is refused (cypher_deadline.go).
	DefaultCypherMaxMemory = 512 << 20
)

// CypherParams is a read-only Cypher query against one space's graph.
type CypherParams struct {
	// SpaceID scopes the query: each space has its own graph, so nothing else is reachable.
	SpaceID string
	// Query is the Cypher text, e.g. "MATCH (a:Entity)-[f:FACT]->(b) RETURN a.name, f.predicate".
	// It must pass CheckCypher.
	Query string
	// Columns is how many values each row returns (1–32). Defaults to 1.
	Columns int
	// Timeout is the statement timeout. Defaults to DefaultCypherTimeout.
	Timeout time.Duration
	// Limit caps the rows returned. Defaults to DefaultCypherLimit.
	Limit int
	// MaxBytes caps the result's bytes. Defaults to DefaultCypherMaxBytes.
	MaxBytes int64
	// MaxValueBytes caps one value's bytes. Defaults to DefaultCypherMaxValueBytes.
	MaxValueBytes int
	// MaxMemory caps the private memory (bytes) of the query's backend while it runs on a
	// pool. Defaults to DefaultCypherMaxMemory.
	MaxMemory int64
}

// maxCypherLen caps a query's length.
const maxCypherLen = 10000

// Cypher runs a read-only Cypher query on space's AGE graph. The query must pass CheckCypher;
// it then runs through the graph's runner (zaxy_cypher.<graph>, owned by the space's sandbox
// role, which can read that graph and nothing else), which refuses a plan with a write node,
// with a statement timeout and a 500 ms lock timeout, in a transaction that is always rolled
// back, so even a write that got past both leaves nothing behind. On a pool or a connection
// that is a READ ONLY transaction of its own; inside a caller's transaction it is a savepoint
// made read-only. On a pool the deadline and the memory cap hold (cypher_deadline.go): past
// the timeout, when ctx ends, or once the backend's private memory passes MaxMemory, the
// query's backend is ended and Cypher returns once it is gone. Give every
// pattern a direction: undirected matches can take minutes.
func Cypher(ctx context.Context, db Querier, p CypherParams) (*CypherResult, error) {
	p.Columns = cmp.Or(p.Columns, 1)
	p.Timeout = cmp.Or(p.Timeout, DefaultCypherTimeout)
	p.Limit = cmp.Or(p.Limit, DefaultCypherLimit)
	p.MaxBytes = cmp.Or(p.MaxBytes, DefaultCypherMaxBytes)
	p.MaxValueBytes = cmp.Or(p.MaxValueBytes, DefaultCypherMaxValueBytes)
	p.MaxMemory = cmp.Or(p.MaxMemory, DefaultCypherMaxMemory)
	q := strings.TrimSpace(p.Query)
	switch {
	case q == "":
		return nil, &validation.Error{Field: "query", Message: "is required"}
	case utf8.RuneCountInString(q) > maxCypherLen:
		return nil, &validation.Error{Field: "query", Message: fmt.Sprintf("must be at most %d characters", maxCypherLen)}
	}
	if p.Timeout < time.Millisecond || p.Timeout > MaxCypherTimeout {
		return nil, &validation.Error{Field: "timeout_ms", Message: fmt.Sprintf("must be between 1 and %d", MaxCypherTimeout.Milliseconds())}
	}
	if err := CheckCypher(p.Query); err != nil {
		return nil, err
	}
	if p.Columns < 1 || p.Columns > 32 {
		return nil, &validation.Error{Field: "columns", Message: "must be between 1 and 32"}
	}
	return runCypher(ctx, db, p)
}

// runCypher runs a query that passed the filter (tests call it with one that did not, to
// prove the walls behind the filter).
func runCypher(ctx context.Context, db Querier, p CypherParams) (*CypherResult, error) {
	installed, err := AGEInstalled(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("check for AGE: %w", err)
	}
	if !installed {
		return nil, fmt.Errorf("%w: the age extension is not installed in this database (see zaxy doctor)", ErrAGEOff)
	}
	res := &CypherResult{Rows: [][]json.RawMessage{}}
	var hasRunner bool
	runner, err := queries.CypherRunner(ctx, db, p.SpaceID)
	res.Graph, hasRunner = runner.GraphName, runner.HasRunner
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: space %q has no graph yet (nothing projected)", eventloom.ErrNotFound, p.SpaceID)
	}
	if err != nil {
		return nil, fmt.Errorf("find graph: %w", err)
	}
	if !hasRunner {
		return nil, fmt.Errorf("%w: space %q has no Cypher sandbox (the migrating role could not create its role; see docs/operations.md, then zaxy migrate as a superuser and zaxy rebuild --space)", ErrAGEOff, p.SpaceID)
	}
	stmt := cypherRunStmt(res.Graph)
	if pool, ok := db.(*pgxpool.Pool); ok {
		if err := runOnPool(ctx, pool, stmt, p, res); err != nil {
			return nil, err
		}
		return res, nil
	}
	tx, done, err := beginCypher(ctx, db)
	if err != nil {
		return nil, err
	}
	// Never committed: whatever the query did is undone.
	defer done()
	if err := runInTx(ctx, tx, stmt, p, res); err != nil {
		return nil, err
	}
	return res, nil
}

// runInTx runs the runner in tx with the statement timeout, unless the space has an erasure
// whose purge is pending (eventloom.ErrErasurePending: the mirror may still hold what was
// derived from the erased text): read in the same snapshot as the query (tx is
// REPEATABLE READ, or a caller's transaction), so a query that starts once an erasure has
// committed never reads the mirror before the purge.
func runInTx(ctx context.Context, tx pgx.Tx, stmt string, p CypherParams, res *CypherResult) error {
	pending, err := queries.ErasurePending(ctx, tx, p.SpaceID)
	if err != nil {
		return fmt.Errorf("check for a pending erasure: %w", err)
	}
	if pending {
		return fmt.Errorf("%w (Cypher reads the graph mirror as it is)", eventloom.ErrErasurePending)
	}
	if err := queries.StatementTimeoutSet(ctx, tx, p.Timeout.Milliseconds()); err != nil {
		return fmt.Errorf("set timeout: %w", err)
	}
	if err := readCypherRows(ctx, tx, stmt, p, res); err != nil {
		return cypherError(err, p)
	}
	return nil
}

// cypherRunStmt is cypher_run.sql for the runner of graph, zaxy_cypher.<graph>, quoted in by
// sql.QueryIdent.
func cypherRunStmt(graph string) string {
	return sql.QueryIdent("graph/cypher_run", pgx.Identifier{"zaxy_cypher", graph})
}

// queryCypherRun runs stmt (cypherRunStmt) with p's Query, Columns, Limit, MaxValueBytes and
// MaxBytes as its parameters; its rows, streamed, are each one row's values.
func queryCypherRun(ctx context.Context, tx pgx.Tx, stmt string, p *CypherParams) (pgx.Rows, error) {
	return tx.Query(ctx, stmt, p.Query, p.Columns, p.Limit, p.MaxValueBytes, p.MaxBytes)
}

// readCypherRows runs the runner and collects its rows into res, stopping at the row and
// byte caps.
func readCypherRows(ctx context.Context, tx pgx.Tx, stmt string, p CypherParams, res *CypherResult) error {
	rows, err := queryCypherRun(ctx, tx, stmt, &p)
	if err != nil {
		return err
	}
	defer rows.Close()
	var total int64
	for rows.Next() {
		var vals []pgtype.Text
		if err := rows.Scan(&vals); err != nil {
			return err
		}
		if len(res.Rows) == p.Limit {
			res.Truncated, res.TruncatedReason = true, "limit"
			break
		}
		row := make([]json.RawMessage, len(vals))
		size := int64(0)
		for i, v := range vals {
			row[i] = agtypeJSON(v)
			size += int64(len(row[i]))
		}
		if total+size > p.MaxBytes {
			res.Truncated, res.TruncatedReason = true, "max_bytes"
			break
		}
		total += size
		res.Rows = append(res.Rows, row)
	}
	return rows.Err()
}

// cypherError maps a failure of the user's query: a timeout (statement or lock), a value
// over the cap, and the errors Postgres and AGE raise for bad input (data exceptions, syntax
// and access errors, an unknown schema, AGE's internal errors on odd queries, the runner's
// plan check, a stack too deep or memory exhausted) become errors on the field query.
func cypherError(err error, p CypherParams) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return fmt.Errorf("run cypher: %w", err)
	}
	switch {
	case pgErr.Code == "57014":
		return fmt.Errorf("%w (%s)", ErrQueryTimeout, p.Timeout)
	case pgErr.Code == "ZX021":
		return fmt.Errorf("%w: %s (max_value_bytes %d)", ErrResponseTooLarge, pgErr.Message, p.MaxValueBytes)
	case pgErr.Code == "25006":
		return &validation.Error{Field: "query", Message: "must only read: the Cypher endpoint is read-only"}
	case pgErr.Code == "ZX022":
		return &validation.Error{Field: "query", Message: "must only read: " + pgErr.Message}
	case pgErr.Code == "55P03":
		return fmt.Errorf("%w: it waited over the 500 ms lock timeout (the graph is being written by the projector); retry", ErrQueryTimeout)
	case strings.HasPrefix(pgErr.Code, "54"), pgErr.Code == "53200":
		// 54001 stack depth limit exceeded, 54000 program limits, 53200 out of memory.
		return &validation.Error{Field: "query", Message: "is too complex to run: " + pgErr.Message}
	case strings.HasPrefix(pgErr.Code, "22"), strings.HasPrefix(pgErr.Code, "42"),
		pgErr.Code == "3F000", pgErr.Code == "XX000", pgErr.Code == "2202E", pgErr.Code == "0A000":
		return &validation.Error{Field: "query", Message: pgErr.Message}
	}
	return fmt.Errorf("run cypher: %w", err)
}

// beginCypher loads AGE into a session of db and begins the read-only transaction a Cypher
// query runs in (REPEATABLE READ, so runInTx's check and the query share one snapshot): on a
// pool, on a connection acquired for it; on a connection, there; in a
// caller's transaction, as a savepoint set READ ONLY (allowed at any point, and undone with
// the savepoint). done rolls it back and releases what was acquired.
func beginCypher(ctx context.Context, db Querier) (pgx.Tx, func(), error) {
	var conn *pgx.Conn
	release := func() {}
	switch d := db.(type) {
	case *pgxpool.Pool:
		c, err := d.Acquire(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("acquire connection: %w", err)
		}
		conn, release = c.Conn(), c.Release
	case *pgx.Conn:
		conn = d
	case pgx.Tx:
		if err := loadAGE(ctx, d); err != nil {
			return nil, nil, err
		}
		sp, err := d.Begin(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("begin: %w", err)
		}
		done := func() { _ = sp.Rollback(context.WithoutCancel(ctx)) }
		if err := queries.TransactionReadOnly(ctx, sp); err != nil {
			done()
			return nil, nil, fmt.Errorf("begin: %w", err)
		}
		return sp, done, nil
	default:
		return nil, nil, fmt.Errorf("run cypher: unsupported executor %T", db)
	}
	if err := loadAGE(ctx, conn); err != nil {
		release()
		return nil, nil, err
	}
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead})
	if err != nil {
		release()
		return nil, nil, fmt.Errorf("begin: %w", err)
	}
	return tx, func() {
		_ = tx.Rollback(context.WithoutCancel(ctx))
		release()
	}, nil
}

// loadAGE loads the AGE library into the session, from $libdir/plugins (allowed for any
// role) or by name (superusers). In a transaction each attempt runs in a savepoint, so a
// failed one leaves the transaction usable.
func loadAGE(ctx context.Context, db Querier) error {
	load := func(run func(context.Context, dbsqlc.DBTX) error) error {
		if _, inTx := db.(pgx.Tx); inTx {
			return pgx.BeginFunc(ctx, db, func(sp pgx.Tx) error { return run(ctx, sp) })
		}
		return run(ctx, db)
	}
	if err := load(queries.AgeLoadPlugins); err == nil {
		return nil
	}
	if err := load(queries.AgeLoad); err != nil {
		return fmt.Errorf("%w: cannot load the age library (%v); link age.so into $libdir/plugins or preload it", ErrAGEOff, err)
	}
	return nil
}

// agtypeJSON turns an agtype value's text into JSON: scalars, maps and lists are JSON already;
// vertices, edges and paths carry a ::type suffix and are returned as strings.
func agtypeJSON(v pgtype.Text) json.RawMessage {
	if !v.Valid {
		return json.RawMessage("null")
	}
	if json.Valid([]byte(v.String)) {
		return json.RawMessage(v.String)
	}
	b, _ := json.Marshal(v.String)
	return b
}

// AGEInstalled reports whether the age extension is installed in the database.
func AGEInstalled(ctx context.Context, db Querier) (bool, error) {
	return queries.AGEInstalled(ctx, db)
}
