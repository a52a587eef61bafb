package graph

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestQualifiedCallsAreFoundOutsideLiteralsOnly(t *testing.T) {
	refused := []string{
		"RETURN pg_catalog.current_user()",
		"RETURN pg_catalog . current_user ()",
		"RETURN `pg_catalog`.current_user()",
		"RETURN public.zaxy_verify('x')",
		"RETURN 1 // it's\nRETURN pg_catalog.now() // '",
		"RETURN 'a' + pg_catalog.now() + 'b'",
		"RETURN /* ' */ pg_catalog.now() /* ' */",
		"RETURN 'unterminated pg_catalog.now()",
	}
	for _, q := range refused {
		require.True(t, qualifiedCall.MatchString(blankLiterals(q)), q)
	}
	allowed := []string{
		"MATCH (a:Entity)-[f:FACT]->(b) RETURN a.name, f.predicate",
		"MATCH (e:Entity) WHERE e.name = 'pg_catalog.now()' RETURN e.name",
		`MATCH (e:Entity) WHERE e.name = "x.y(z)" RETURN size(e.name)`,
		"MATCH (e:Entity) RETURN coalesce(e.name, e.id) // pg_catalog.now()",
		"MATCH (e:Entity) RETURN toUpper(e.name), e.`odd name`",
	}
	for _, q := range allowed {
		require.False(t, qualifiedCall.MatchString(blankLiterals(q)), q)
	}
}
