// Package sql embeds the queries Zaxy runs, one named query per .sql file, grouped by the
// domain package that owns them (sql/<package>/<name>.sql). DDL never lives here: it belongs
// to migrations/. Queries are fixed text with positional parameters; the one exception is the
// vector lane's, whose dimension is formatted in as an integer literal (%[1]d) because the
// HNSW index is on an expression of that dimension and the query must name the same one; and
// graph/cypher_run, whose function (a space's Cypher runner) is a quoted identifier formatted in.
package sql

import (
	"embed"
	"fmt"
)

//go:embed */*.sql
var files embed.FS

// Query returns the text of sql/<name>.sql, e.g. Query("eventloom/append"). It panics when the
// file does not exist, which is a programming error caught by any test that runs the query.
func Query(name string) string {
	b, err := files.ReadFile(name + ".sql")
	if err != nil {
		panic(fmt.Sprintf("sql: no query %q: %v", name, err))
	}
	return string(b)
}
