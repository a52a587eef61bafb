package sql

import (
	"strings"

	"github.com/jackc/pgx/v5"
)

// identPlaceholder marks where a hand-written query takes an identifier only known at run time.
const identPlaceholder = "{{ident}}"

// QueryIdent returns the hand-written query name with its identifier placeholder, {{ident}},
// replaced by id quoted as a Postgres identifier (pgx.Identifier.Sanitize), so a name from data
// cannot change the statement. It panics when the query has no placeholder, a programming error
// any test that runs the query catches.
func QueryIdent(name string, id pgx.Identifier) string {
	q := Query(name)
	if !strings.Contains(q, identPlaceholder) {
		panic("sql: query " + name + " has no " + identPlaceholder)
	}
	return strings.ReplaceAll(q, identPlaceholder, id.Sanitize())
}
