package sql_test

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	zsql "github.com/zaxy/zaxy/sql"
)

// TestQueryIdent_QuotesTheIdentifier checks that a name with a quote lands in the statement as
// one quoted identifier, and that no placeholder is left.
func TestQueryIdent_QuotesTheIdentifier(t *testing.T) {
	q := zsql.QueryIdent("graph/cypher_run", pgx.Identifier{"zaxy_cypher", `g"; DROP TABLE events; --`})
	if !strings.Contains(q, `FROM "zaxy_cypher"."g""; DROP TABLE events; --"($1`) {
		t.Fatalf("identifier not quoted in:\n%s", q)
	}
	if strings.Contains(q, "{{ident}}") {
		t.Fatalf("placeholder left in:\n%s", q)
	}
}
