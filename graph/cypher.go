package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/sql"
)

// ErrAGEOff means Apache AGE is not installed (or cannot be loaded), so the Cypher mirror
// and the Cypher endpoint are off. The relational graph is unaffected.
var ErrAGEOff = errors.New("the Apache AGE graph mirror is off")

// ErrQueryTimeout means a Cypher query ran past its statement timeout.
var ErrQueryTimeout = errors.New("query ran past its statement timeout")

// CypherParams is a read-only Cypher query against one space's graph.
type CypherParams struct {
	// SpaceID scopes the query: each space has its own graph, so nothing else is reachable.
	SpaceID string
	// Query is the Cypher text, e.g. "MATCH (a:Entity)-[f:FACT]->(b) RETURN a.name, f.predicate".
	Query string
	// Columns is how many values each row returns (1–32). Defaults to 1.
	Columns int
	// Timeout is the statement timeout. Defaults to 5s.
	Timeout time.Duration
	// Limit caps the rows returned. Defaults to 1000.
	Limit int
}

// CypherResult holds a Cypher query's rows. Each value is JSON when the agtype value is a
// scalar, map or list, and a string holding AGE's text form for vertices, edges and paths.
type CypherResult struct {
	Graph     string              `json:"graph"`
	Rows      [][]json.RawMessage `json:"rows"`
	Truncated bool                `json:"truncated"`
}

// maxCypherLen caps a query's length.
const maxCypherLen = 10000

// cypherTag quotes the query inside the SQL text; a query containing it is refused.
const cypherTag = "$zaxy_cypher$"

// AGE resolves a schema-qualified call inside Cypher (pg_catalog.f(...)) to that SQL function,
// which runs with the service's database role and so could see more than this space's graph.
// Unqualified calls resolve only to AGE's own functions, so queries may not qualify a call.
// String literals and comments are blanked before the check (in one left-to-right pass, so a
// quote inside a comment cannot hide code), and quoted names become plain ones.
var (
	qualifiedCall = regexp.MustCompile(`[\p{L}_][\p{L}\p{N}_$]*\s*\.\s*[\p{L}_][\p{L}\p{N}_$]*\s*\(`)
	cypherTokens  = regexp.MustCompile(`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|` + "`[^`]*`" + `|//[^\n]*|(?s:/\*.*?\*/)`)
)

// blankLiterals replaces q's string literals by ”, its comments by a space and its quoted
// names by the name q.
func blankLiterals(q string) string {
	return cypherTokens.ReplaceAllStringFunc(q, func(tok string) string {
		switch tok[0] {
		case '\'', '"':
			return "''"
		case '`':
			return "q"
		default:
			return " "
		}
	})
}

// Cypher runs a read-only Cypher query on space's AGE graph, in a READ ONLY transaction with
// a statement timeout. Give every pattern a direction: undirected matches can take minutes.
func Cypher(ctx context.Context, pool *pgxpool.Pool, p CypherParams) (*CypherResult, error) {
	if p.Columns == 0 {
		p.Columns = 1
	}
	if p.Timeout == 0 {
		p.Timeout = 5 * time.Second
	}
	if p.Limit == 0 {
		p.Limit = 1000
	}
	switch q := strings.TrimSpace(p.Query); {
	case q == "":
		return nil, &eventloom.ValidationError{Field: "query", Message: "is required"}
	case utf8.RuneCountInString(q) > maxCypherLen:
		return nil, &eventloom.ValidationError{Field: "query", Message: fmt.Sprintf("must be at most %d characters", maxCypherLen)}
	case strings.Contains(q, cypherTag) || strings.Contains(q, "$$"):
		return nil, &eventloom.ValidationError{Field: "query", Message: "must not contain $$ or " + cypherTag}
	case qualifiedCall.MatchString(blankLiterals(q)):
		return nil, &eventloom.ValidationError{Field: "query", Message: "must not call schema-qualified functions such as pg_catalog.f(...); Cypher's own functions are allowed"}
	}
	if p.Columns < 1 || p.Columns > 32 {
		return nil, &eventloom.ValidationError{Field: "columns", Message: "must be between 1 and 32"}
	}
	var installed bool
	if err := pool.QueryRow(ctx, sql.Query("graph/age_installed")).Scan(&installed); err != nil {
		return nil, fmt.Errorf("check for AGE: %w", err)
	}
	if !installed {
		return nil, fmt.Errorf("%w: the age extension is not installed in this database (see zaxy doctor)", ErrAGEOff)
	}
	res := &CypherResult{Rows: [][]json.RawMessage{}}
	err := pool.QueryRow(ctx, sql.Query("graph/age_graph_name"), p.SpaceID).Scan(&res.Graph)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: space %q has no graph yet (nothing projected)", eventloom.ErrNotFound, p.SpaceID)
	}
	if err != nil {
		return nil, fmt.Errorf("find graph: %w", err)
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("acquire connection: %w", err)
	}
	defer conn.Release()
	if err := loadAGE(ctx, conn.Conn()); err != nil {
		return nil, err
	}
	cols := make([]string, p.Columns)
	for i := range cols {
		cols[i] = fmt.Sprintf("c%d ag_catalog.agtype", i+1)
	}
	// cypher() only accepts its query as a literal, so the text is quoted into the statement;
	// the tag check above keeps it from closing the quote.
	stmt := fmt.Sprintf("SELECT * FROM ag_catalog.cypher('%s', %s%s%s) AS (%s) LIMIT %d",
		res.Graph, cypherTag, p.Query, cypherTag, strings.Join(cols, ", "), p.Limit+1)
	err = pgx.BeginTxFunc(ctx, conn, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, fmt.Sprintf("SET LOCAL statement_timeout = %d", p.Timeout.Milliseconds())); err != nil {
			return err
		}
		// AGE's operators live in ag_catalog; our schema stays first.
		if _, err := tx.Exec(ctx, "SET LOCAL search_path = public, ag_catalog"); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, stmt, pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			vals := make([]*string, p.Columns)
			dest := make([]any, p.Columns)
			for i := range vals {
				dest[i] = &vals[i]
			}
			if err := rows.Scan(dest...); err != nil {
				return err
			}
			if len(res.Rows) == p.Limit {
				res.Truncated = true
				break
			}
			row := make([]json.RawMessage, p.Columns)
			for i, v := range vals {
				row[i] = agtypeJSON(v)
			}
			res.Rows = append(res.Rows, row)
		}
		return rows.Err()
	})
	if err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) {
			switch {
			case pgErr.Code == "57014":
				return nil, fmt.Errorf("%w (%s)", ErrQueryTimeout, p.Timeout)
			case pgErr.Code == "25006":
				return nil, &eventloom.ValidationError{Field: "query", Message: "must only read: the Cypher endpoint is read-only"}
			case strings.HasPrefix(pgErr.Code, "42"):
				return nil, &eventloom.ValidationError{Field: "query", Message: pgErr.Message}
			}
		}
		return nil, fmt.Errorf("run cypher: %w", err)
	}
	return res, nil
}

// loadAGE loads the AGE library into the session, from $libdir/plugins (allowed for any
// role) or by name (superusers).
func loadAGE(ctx context.Context, conn *pgx.Conn) error {
	if _, err := conn.Exec(ctx, `LOAD '$libdir/plugins/age'`); err == nil {
		return nil
	}
	if _, err := conn.Exec(ctx, `LOAD 'age'`); err != nil {
		return fmt.Errorf("%w: cannot load the age library (%v); link age.so into $libdir/plugins or preload it", ErrAGEOff, err)
	}
	return nil
}

// agtypeJSON turns an agtype value's text into JSON: scalars, maps and lists are JSON already;
// vertices, edges and paths carry a ::type suffix and are returned as strings.
func agtypeJSON(v *string) json.RawMessage {
	if v == nil {
		return json.RawMessage("null")
	}
	if json.Valid([]byte(*v)) {
		return json.RawMessage(*v)
	}
	b, _ := json.Marshal(*v)
	return b
}
