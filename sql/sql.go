// Package sql holds the queries Zaxy runs, one named query per .sql file, grouped by the
// domain package that owns them (sql/<package>/<name>.sql). DDL never lives here: it belongs
// to migrations/.
//
// Most files are compiled by sqlc (sqlc.yaml, `make generate`) into <package>/internal/dbsqlc,
// typed methods that take the caller's executor; the Go internal rule means only the owning
// package can run them. The queries sqlc cannot take live in sql/<package>/handwritten/ and are
// read here by name: the vector lane's, whose dimension is formatted in as an integer literal
// (%[1]d) because the HNSW index is on an expression of that dimension and the query must name
// the same one; graph/cypher_run, whose function (a space's Cypher runner) is an identifier
// quoted in by QueryIdent; queries whose rows map onto a type shared across packages (the
// event row, eventloom.Row) through pgx.RowToStructByName; and statements sqlc's analyzer
// cannot type (checkout's exact, graph and keyword lanes, among others).
package sql

import (
	"embed"
	"fmt"
)

//go:embed */handwritten/*.sql
var files embed.FS

// Query returns the text of a hand-written query, e.g. Query("graph/cypher_run") reads
// sql/graph/handwritten/cypher_run.sql. A query compiled by sqlc is not found here: only its
// package runs it, through <package>/internal/dbsqlc. It panics when the file does not exist,
// which is a programming error caught by any test that runs the query (and by
// TestQuery_EveryNamedQueryExists).
func Query(name string) string {
	pkg, base, _ := cut(name)
	b, err := files.ReadFile(pkg + "/handwritten/" + base + ".sql")
	if err != nil {
		panic(fmt.Sprintf("sql: no query %q: %v", name, err))
	}
	return string(b)
}

func cut(name string) (pkg, base string, ok bool) {
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			return name[:i], name[i+1:], true
		}
	}
	return "", "", false
}
