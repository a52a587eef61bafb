package graph

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/validation"
)

// cypherEscapes are the payloads of issue 12 and their variants: each must be refused.
var cypherEscapes = []string{
	"RETURN pg_catalog\u000b.concat(pg_catalog\u000b.to_json(pg_catalog\u000b.version()))",
	"RETURN pg_catalog\f.version()",
	"RETURN pg_catalog.version()",
	"RETURN pg_catalog . current_user ()",
	"RETURN `pg_catalog`.current_user()",
	"RETURN pg_catalog.`current_user`()",
	"RETURN pg_catalog/**/./**/version/**/()",
	"RETURN pg_catalog // x\n.version()",
	"RETURN pg_catalog\u00a0.version()",
	"RETURN pg_catalog\u2003.version()",
	"RETURN pg_catalog\u3000.version()",
	"RETURN pg_catalog\u200b.version()",
	"RETURN pg_catalog\uff0eversion()",
	"RETURN public.zaxy_age_drop('other')",
	"RETURN query_to_xml('select * from api_tokens', true, true, '')",
	"RETURN query_to_xml('select * from events', true, true, '')",
	"RETURN pg_catalog\u000b.query_to_xml('select 1', true, true, '')",
	"RETURN pg_terminate_backend(1)",
	"MATCH (a) RETURN pg_terminate_backend(toInteger(a.id))",
	"RETURN ag_catalog.cypher('zs_000000000000000000000000', 'MATCH (a) SET a.name = 1')",
	"RETURN cypher('zs_000000000000000000000000', 'MATCH (a) SET a.name = 1')",
	"RETURN `cypher`('g', 'MATCH (a) DETACH DELETE a')",
	"MATCH (a:Entity) DETACH DELETE a",
	"MATCH (a:Entity) DELETE a",
	"MATCH (a:Entity) SET a.name = 'x'",
	"MATCH (a:Entity) REMOVE a.name",
	"MATCH (a:Entity)\u000bSET a.name = 'x'",
	"CREATE (a:Entity {name: 'x'})",
	"MERGE (a:Entity {name: 'x'}) RETURN a",
	"MERGE (a:Entity {name: 'x'}) ON CREATE SET a.n = 1 RETURN a",
	"CALL db.labels() YIELD label RETURN label",
	"LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l",
	"UNWIND [1] AS x FOREACH (y IN [1] | CREATE (:E))",
	"RETURN $x",
	"RETURN 1 $$ ) x; select 1 --",
	"RETURN '$zaxy_cypher$'",
	"RETURN 1 /* unterminated",
	"RETURN 'unterminated",
	`RETURN "unterminated\"`,
	"RETURN `unterminated",
	"RETURN ``.f()",
	"RETURN 1::text",
	"RETURN 'a' + pg_catalog.now() + 'b'",
	"RETURN /* ' */ pg_catalog.now() /* ' */",
	"RETURN 1 +/* x */ pg_catalog.now()",
	"RETURN 1 +// x\n pg_catalog.now()",
	"RETURN set_config('role', 'zaxy_app', true)",
	"RETURN current_setting('is_superuser')",
	"RETURN nextval('events_seq_seq')",
	"RETURN lo_import('/etc/passwd')",
	"RETURN age_prepare_cypher('g', 'q')",
	"RETURN create_barbell_graph('g', 1, 'v', null, 1, 'e', null, 'e')",
	"RETURN delete_global_graphs('g')",
	"RETURN 1 @> 2",
	"RETURN 1 OPERATOR(pg_catalog.+) 2",
	"RETURN 'a' || 'b'",
	"RETURN 1 \\ 2",
	"RETURN 1; RETURN 2",
	"EXPLAIN MATCH (a) RETURN a",
	"RETURN 'bad \\x escape'",
	"RETURN count.f(1)",
	"RETURN x.`y`(1)",
	"RETURN a.b.c(1)",
	"RETURN 1\x00",
	"RETURN \xff",
	"",
	"   \v\f ",
	"// only a comment",
	// Backquoted keywords: AGE's scanner looks them up as keywords (issue 30).
	"MATCH (n) `SET` n.x = 1 RETURN n.name, n.x",
	"MATCH (n:Entity) `DETACH` `DELETE` n RETURN count(*)",
	"`CALL` abs(1)",
	"`EXPLAIN` MATCH (n) RETURN n",
	"MATCH (n) `REMOVE` n.name RETURN n",
	"`CREATE` p=(:Entity {name: 'x'}) RETURN p",
	"`MERGE` p=(:Entity {name: 'x'}) RETURN p",
	"MATCH (n) `sEt` n.x = 1 RETURN n",
	"MATCH (n) `set`/**/n.x = 1 RETURN n",
	"MATCH (n:Entity) `delete` n",
	"MATCH (n) RETURN n `yield`",
	"`analyze` `verbose` MATCH (n) RETURN n",
	"MATCH (e:Entity) RETURN e.`set`",
	"MATCH (e:Entity {`create`: 1}) RETURN e",
	"MATCH (e:`Merge`) RETURN e",
	"RETURN pg_catalog.(pi())",
	"RETURN pg_catalog.((pi()))",
	"RETURN pg_catalog . ( pi ( ) )",
	"MATCH (a) RETURN a.[1]",
	"MATCH (a) RETURN a.'x'",
	// Bounds (cypher_bounds.go).
	"RETURN size(range(1,1000000)) + size(range(1,1000000))",
	"RETURN range(1, 10001)",
	"UNWIND range(1, 10000) AS x RETURN range(1, 10000), range(1, 2)",
	"RETURN range(0, 100000, 5)",
	"RETURN range(-10000, 0)",
	"RETURN range(1, 0x7fffffffffffffffff)",
	"MATCH (a) RETURN range(1, a.n)",
	"RETURN range(1, 10.5)",
	"RETURN range(1, 1e9)",
	"RETURN range(1, 5, 0)",
	"RETURN range(1)",
	"RETURN " + strings.Repeat("[", 33) + "1" + strings.Repeat("]", 33),
	"RETURN " + strings.Repeat("(", 4990) + "1" + strings.Repeat(")", 4990),
	"MATCH (a) WHERE " + strings.Repeat("exists(", 40) + "a.name" + strings.Repeat(")", 40) + " RETURN a",
	"RETURN " + strings.Repeat("abs(1) + ", 64) + "abs(1)",
	"RETURN replace('a', 'a', 'aa')",
	"RETURN replace('a', '\\u0061', 'aa')",
	"MATCH (a) RETURN replace(a.name, a.name, 'x')",
	"RETURN replace('a', 'a')",
	"WITH 'xy' AS s WITH s + s AS s WITH s + s AS s WITH s + s AS s WITH s + s AS s RETURN size(s)",
	"WITH 'xy' AS s WITH [s, s] AS s WITH [s, s] AS s WITH {a: s, b: s} AS s WITH [s, s] AS s RETURN s",
	"WITH [1] AS s RETURN [s, s, s, s, s, s, s, s, s]",
	"WITH 'x' AS s, 'y' AS t WITH s + t AS s, s + t AS t WITH s + t AS s, s + t AS t WITH s + t AS s, s + t AS t WITH s + t AS s, s + t AS t RETURN s",
	"UNWIND range(1, 10) AS x WITH collect(x) AS l UNWIND l AS y RETURN collect(l)",
}

// cypherReads are ordinary read queries: each must be accepted.
var cypherReads = []string{
	"MATCH (a:Entity)-[f:FACT]->(b) RETURN a.name, f.predicate",
	"MATCH (e:Entity) WHERE e.name = 'pg_catalog.now()' RETURN e.name",
	`MATCH (e:Entity) WHERE e.name = "x.y(z)" RETURN size(e.name)`,
	"MATCH (e:Entity) RETURN coalesce(e.name, e.id) // pg_catalog.now()",
	"MATCH (e:Entity) RETURN toUpper(e.name), e.`odd name`",
	"MATCH (e:Entity) RETURN e.`delete me`, e.`Entity`, e.`settings`",
	"OPTIONAL MATCH (a:Entity)-[f:FACT]->(b:Entity) WITH a, count(f) AS n WHERE n > 1 RETURN a.name, n ORDER BY n DESC SKIP 1 LIMIT 10",
	"UNWIND range(1, 3) AS x RETURN x * 2.5e1, x % 2, x ^ 2, -x, 0x1F, .5, 1.",
	"MATCH (a:Entity) WHERE a.name STARTS WITH 'A' OR a.name ENDS WITH 'z' AND NOT a.name CONTAINS 'q' RETURN DISTINCT a.name",
	"MATCH (a:Entity) WHERE a.name =~ '.*x.*' AND a.invalidated_seq IS NULL AND a.kinds IS NOT NULL RETURN a",
	"MATCH p = (a:Entity)-[:FACT*1..2]->(b) RETURN length(p), nodes(p), relationships(p)",
	"MATCH (a:Entity)<-[f:FACT]-(b) RETURN CASE WHEN f.version > 1 THEN 'new' ELSE 'old' END",
	"MATCH (a:Entity) RETURN collect(a.name)[0..2], keys(a), properties(a), labels(a), id(a)",
	"RETURN 'it''s', \"say \"\"hi\"\"\", 'tab\\t\\u0024 \\U0001F600', [x IN [1,2,3] WHERE x > 1 | x]",
	"MATCH (a:Entity) /* a comment with pg_catalog.now() and ' and \" */ RETURN a.name",
	"RETURN 'é ünïcødé \u00a0 inside a string is fine'",
	"MATCH (a:Entity)\v\f\r\n\tRETURN a.name",
	"MATCH (a:Entity) WHERE exists(a.name) AND a.version <> 2 AND a.version >= 1 AND a.version <= 9 RETURN a.name",
	"MATCH (a:Entity) WHERE a.version IN [1, 2] XOR true RETURN {name: a.name, v: a.version}",
	"MATCH (a:Entity) RETURN a.name UNION MATCH (b:Value) RETURN b.value",
	"UNWIND range(1, 10000) AS x RETURN x",
	"RETURN range(-5, 5), range(10, 1, -1), range(0, 0x10), range(1, 100000, 10)",
	"UNWIND range(1, 10000) AS x RETURN range(1, 10000)",
	"RETURN replace('abc', 'b', 'x'), replace('a\\u0062c', 'bc', 'x')",
	"RETURN " + strings.Repeat("[", 32) + "1" + strings.Repeat("]", 32),
	"RETURN " + strings.Repeat("abs(1) + ", 63) + "abs(1)",
	"WITH 'xy' AS s WITH s + s AS s WITH s + s AS s RETURN s + s",
	"MATCH (a:Entity)-[f:FACT]->(b) WITH a, count(f) AS n RETURN a.name, n, n * 2, n + 1 ORDER BY n DESC",
	"MATCH (a:Entity) RETURN a, keys(a), labels(a), id(a), properties(a), a.name, a.kinds",
	"MATCH (e:`Entity` {`name`: 'x'}) RETURN e.`name`",
}

func TestCheckCypher_RefusesEveryEscapeOnTheQueryField(t *testing.T) {
	for _, q := range cypherEscapes {
		err := CheckCypher(q)
		require.Error(t, err, "%q", q)
		var ve *validation.Error
		require.True(t, errors.As(err, &ve), "%q: %v", q, err)
		require.Equal(t, "query", ve.Field, "%q", q)
	}
}

func TestCheckCypher_AcceptsReadQueries(t *testing.T) {
	for _, q := range cypherReads {
		require.NoError(t, CheckCypher(q), "%q", q)
	}
}

func TestCheckCypher_SaysWhy(t *testing.T) {
	for q, want := range map[string]string{
		"RETURN pg_catalog\u000b.version()": "qualified function",
		"RETURN query_to_xml('x',1,1,'')":   "not an allowed function",
		"MATCH (a) DETACH DELETE a":         "read-only): DETACH",
		"MATCH (a) SET a.x = 1":             "read-only): SET",
		"MATCH (a) `SeT` a.x = 1":           "AGE's keyword SET even in backquotes",
		"RETURN pg_catalog.(pi())":          "must follow . with a property name",
		"RETURN range(1, 1000000)":          "1000000 elements; at most 10000",
		"RETURN replace('a', 'a', 'aa')":    "replacement longer than its search",
		"RETURN pg_catalog\u00a0.version()": "U+00A0",
		"RETURN $p":                         "must not contain $",
		"RETURN 1 /* open":                  "unterminated /* comment",
		"RETURN 'open":                      "unterminated string",
		"RETURN 1 @> 2":                     `operator "@>"`,
		"RETURN 1::text":                    ":: casts",
	} {
		require.ErrorContains(t, CheckCypher(q), want, q)
	}
}

// The fuzz target's independent check: a second, simpler scanner blanks strings, comments
// and quoted names (a quoted name becomes Q), and regular expressions over what is left look
// for what the filter must never accept.
var (
	ws            = `[\t\n\v\f\r ]`
	fuzzQualified = regexp.MustCompile(`[A-Za-z0-9_Q]` + ws + `*\.` + ws + `*[A-Za-z_Q][A-Za-z0-9_]*` + ws + `*\(`)
	fuzzWrite     = regexp.MustCompile(`(?i)(^|[^A-Za-z0-9_])(create|merge|set|delete|detach|remove|call|yield|foreach|load|operator)([^A-Za-z0-9_]|$)`)
	// fuzzQuotedKeyword is a backquoted name AGE reads as a write or procedural keyword.
	fuzzQuotedKeyword = regexp.MustCompile(`^(?i:create|merge|set|delete|detach|remove|call|yield|explain|analyze|verbose)$`)
	fuzzCall          = regexp.MustCompile(`(?:^|[^A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_]*|Q)` + ws + `*\(`)
	// fuzzNumber is a number literal as AGE reads it (1, 1.5, 1., .5, each with an exponent):
	// "0.e0(" is the float 0.0 and a parenthesis (AGE: a syntax error), not a call of e0 in a
	// namespace 0, so the qualified-call check reads each number as "0 ". A name right after a
	// number still shows as a call ("1.f(" is "0 f(").
	fuzzNumber = regexp.MustCompile(`(^|[^A-Za-z0-9_.])(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?`)
)

// blankNumbers reads each number literal of code as "0 " (fuzzNumber). A range's ".." is no
// decimal point ("0..e(" is 0, .., a call of e), so it is set aside first; code holds no
// control character by then.
func blankNumbers(code string) string {
	code = strings.ReplaceAll(code, "..", "\x01\x01")
	code = fuzzNumber.ReplaceAllString(code, "${1}0 ")
	return strings.ReplaceAll(code, "\x01", ".")
}

// blankForFuzz blanks q's strings, comments and quoted names (kept in quoted, unescaped).
func blankForFuzz(q string) (code string, quoted []string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'' || c == '"':
			b.WriteString("''")
			i++
			for ; i < len(q); i++ {
				if q[i] == '\\' {
					i++
				} else if q[i] == c {
					if i+1 < len(q) && q[i+1] == c {
						i++
						continue
					}
					break
				}
			}
			if i >= len(q) {
				return "", nil, false
			}
		case c == '`':
			b.WriteString("Q")
			start := i + 1
			for i++; i < len(q); i++ {
				if q[i] == '`' {
					if i+1 < len(q) && q[i+1] == '`' {
						i++
						continue
					}
					break
				}
			}
			if i >= len(q) {
				return "", nil, false
			}
			quoted = append(quoted, strings.ReplaceAll(q[start:i], "``", "`"))
		case strings.HasPrefix(q[i:], "/*"):
			end := strings.Index(q[i+2:], "*/")
			if end < 0 {
				return "", nil, false
			}
			b.WriteByte(' ')
			i += 2 + end + 1
		case strings.HasPrefix(q[i:], "//"):
			for i < len(q) && q[i] != '\n' && q[i] != '\r' {
				i++
			}
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), quoted, true
}

// FuzzCypherFilter checks what the filter accepts against an independent scanner (above) and
// against AGE itself: an accepted query must never plan a write node (the runner's plan
// check, run here as a superuser on a graph of the fuzz process's own database).
func FuzzCypherFilter(f *testing.F) {
	for _, q := range append(append([]string{}, cypherEscapes...), cypherReads...) {
		f.Add(q)
	}
	plans := newPlanOracle(f)
	f.Fuzz(func(t *testing.T, q string) {
		err := CheckCypher(q)
		if err != nil {
			var ve *validation.Error
			if !errors.As(err, &ve) || ve.Field != "query" {
				t.Fatalf("%q: error %v is not a ValidationError on query", q, err)
			}
			return
		}
		if !utf8.ValidString(q) || strings.ContainsAny(q, "$\x00") {
			t.Fatalf("%q: accepted invalid UTF-8, NUL or $", q)
		}
		code, quoted, ok := blankForFuzz(q)
		if !ok {
			t.Fatalf("%q: accepted an unterminated string, comment or quoted name", q)
		}
		for i := 0; i < len(code); i++ {
			if c := code[i]; c >= 0x7f || c < 0x20 && !strings.ContainsRune("\t\n\v\f\r", rune(c)) {
				t.Fatalf("%q: accepted byte %#x outside strings", q, c)
			}
		}
		if m := fuzzQualified.FindString(blankNumbers(code)); m != "" {
			t.Fatalf("%q: accepted a qualified call %q", q, m)
		}
		if m := fuzzWrite.FindString(code); m != "" {
			t.Fatalf("%q: accepted a write or procedural word %q", q, m)
		}
		for _, name := range quoted {
			if fuzzQuotedKeyword.MatchString(name) {
				t.Fatalf("%q: accepted the backquoted keyword %q", q, name)
			}
		}
		if node := plans.writeNode(t, q); node != "" {
			t.Fatalf("%q: accepted a query AGE plans with %s", q, node)
		}
		if strings.Contains(code, "::") {
			t.Fatalf("%q: accepted a cast", q)
		}
		for _, m := range fuzzCall.FindAllStringSubmatch(code, -1) {
			name := strings.ToLower(m[1])
			if name == "q" {
				continue // a quoted name: the filter checks its text, which blanking hid
			}
			if !cypherFunctions[name] && !cypherReadKeywords[name] {
				t.Fatalf("%q: accepted a call of %q", q, m[1])
			}
		}
	})
}

// planOracle plans queries with AGE: EXPLAIN of the runner's statement on a graph of its own.
type planOracle struct {
	conn *pgx.Conn
}

func newPlanOracle(tb testing.TB) *planOracle {
	tb.Helper()
	ctx := context.Background()
	db := testcontainers.NewDatabase(tb)
	conn, err := pgx.Connect(ctx, db.AdminURL)
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = conn.Close(context.Background()) })
	require.NoError(tb, loadAGE(ctx, conn))
	_, err = conn.Exec(ctx, `SET statement_timeout = 5000`)
	require.NoError(tb, err)
	_, err = conn.Exec(ctx, `SELECT ag_catalog.create_graph('fuzz_graph')`)
	require.NoError(tb, err)
	_, err = conn.Exec(ctx, `SELECT * FROM ag_catalog.cypher('fuzz_graph', $$CREATE (:Entity {name: 'alice'})-[:FACT]->(:Value)$$) AS (a ag_catalog.agtype)`)
	require.NoError(tb, err)
	return &planOracle{conn: conn}
}

// writeNode returns the write node AGE plans for q ("" when none, or when AGE refuses q).
// The column count is unknown, so it tries 1 to 8 columns while AGE says they do not match.
func (o *planOracle) writeNode(tb testing.TB, q string) string {
	tb.Helper()
	ctx := context.Background()
	for cols := 1; cols <= 8; cols++ {
		defs := make([]string, cols)
		for k := range defs {
			defs[k] = fmt.Sprintf("c%d ag_catalog.agtype", k)
		}
		var plan string
		err := o.conn.QueryRow(ctx, fmt.Sprintf(`EXPLAIN (FORMAT JSON) SELECT * FROM ag_catalog.cypher('fuzz_graph', $zq$%s$zq$) AS (%s)`,
			q, strings.Join(defs, ", "))).Scan(&plan)
		if err != nil {
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && strings.Contains(pgErr.Message, "column definition list") {
				continue
			}
			if !errors.As(err, &pgErr) {
				tb.Fatalf("%q: plan: %v", q, err)
			}
			return ""
		}
		if i := strings.Index(plan, `"Custom Plan Provider": "`); i >= 0 {
			return plan[i+len(`"Custom Plan Provider": "`):][:strings.IndexByte(plan[i+len(`"Custom Plan Provider": "`):], '"')]
		}
		return ""
	}
	return ""
}
