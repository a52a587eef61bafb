package graph

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/zaxy/zaxy/validation"
)

// The Cypher filter. AGE hands any function name it does not know to Postgres, so
// RETURN query_to_xml(...) or pg_catalog.f(...) inside cypher() runs SQL; and AGE executes
// SET, REMOVE and DETACH DELETE whatever the transaction's access mode. The filter therefore
// tokenizes the query the way AGE's scanner does (src/backend/parser/ag_scanner.l: its
// whitespace set, '…' and "…" strings with backslash escapes and doubled quotes, `…`
// identifiers, /* */ and // comments, $parameters, numbers, operator runs; a `backquoted`
// name is looked up in AGE's keyword table like a bare one) and accepts only read clauses, an
// allowlist of AGE's own side-effect-free functions and plain operators, within the bounds of
// cypher_bounds.go. Where AGE versions differ (for example, whether an operator run may
// swallow a comment start), the filter refuses rather than guesses. It is the first of four
// walls: the runner then refuses any plan with a write node, the query runs as the space's
// own sandbox role, and in a transaction that is always rolled back.

// cypherWhitespace is AGE's whitespace set: [\t\n\v\f\r ].
func cypherWhitespace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// cypherOpChar is AGE's op_chars set; a run of them is one operator token.
func cypherOpChar(c byte) bool { return strings.IndexByte("!@#^&|~?+*/%<>=", c) >= 0 }

// cypherSelf holds the one-character tokens that are not operator characters.
const cypherSelf = "(),-.:[]{}"

func identStart(c byte) bool { return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
func identCont(c byte) bool  { return identStart(c) || c >= '0' && c <= '9' }
func digit(c byte) bool      { return c >= '0' && c <= '9' }
func hexDigit(c byte) bool   { return digit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

type cypherTokenKind int

const (
	tokWord   cypherTokenKind = iota // an unquoted identifier or keyword
	tokQuoted                        // a `backquoted` identifier
	tokString                        // a '…' or "…" string
	tokNumber                        // an integer or decimal literal
	tokPunct                         // one of cypherSelf, or ".."
	tokOp                            // a run of operator characters
)

// cypherToken is one token of a query; text is the identifier (unescaped for a quoted one),
// the operator, the punctuation, a number's digits or a string's body between its quotes
// (escapes kept).
type cypherToken struct {
	kind cypherTokenKind
	text string
	pos  int
}

// cypherOps are the operator tokens a read query needs.
var cypherOps = set("=", "<>", "<", ">", "<=", ">=", "+", "*", "/", "%", "^", "=~", "|")

// ageKeywords is AGE 1.5's keyword table (src/include/parser/cypher_kwlist.h). AGE's scanner
// looks every identifier up in it, a `backquoted` one too, comparing after folding ASCII
// A-Z to lower case: `SET` is the keyword SET.
var ageKeywords = set("all", "analyze", "and", "as", "asc", "ascending", "by", "call", "case",
	"coalesce", "contains", "create", "delete", "desc", "descending", "detach", "distinct", "else",
	"end", "ends", "exists", "explain", "false", "in", "is", "limit", "match", "merge", "not", "null",
	"optional", "or", "order", "remove", "return", "set", "skip", "starts", "then", "true", "union",
	"unwind", "verbose", "when", "where", "with", "xor", "yield")

// asciiLower folds A-Z to a-z and leaves every other byte alone, as Postgres'
// ScanKeywordLookup does (strings.ToLower would also fold the Kelvin sign to k).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// cypherReadKeywords are AGE's keywords a read query may use.
var cypherReadKeywords = set("all", "and", "any", "as", "asc", "ascending", "by", "case", "coalesce",
	"contains", "count", "desc", "descending", "distinct", "else", "end", "ends", "exists", "false",
	"in", "is", "limit", "match", "none", "not", "null", "optional", "or", "order", "reduce", "return",
	"single", "skip", "starts", "then", "true", "union", "unwind", "when", "where", "with", "xor")

// cypherRefusedWords are AGE's write and procedural keywords, and the clauses of other Cypher
// dialects, refused wherever they appear unquoted (quote a property of that name: a.`set`).
var cypherRefusedWords = set("analyze", "call", "create", "delete", "detach", "explain", "merge", "on",
	"operator", "remove", "set", "verbose", "yield", "foreach", "load", "drop", "use", "grant",
	"revoke", "alter", "insert", "update", "truncate", "copy", "execute", "do")

// cypherFunctions is the allowlist of callable functions: AGE's own scalar, list, string,
// math and aggregate functions that only compute a value (each exists as ag_catalog.age_<name>,
// so the name never falls through to a Postgres function). count, coalesce and exists are
// keywords and are allowed as such.
var cypherFunctions = set("abs", "acos", "asin", "atan", "atan2", "avg", "ceil", "collect", "cos", "cot",
	"degrees", "e", "end_id", "endnode", "exp", "floor", "head", "id", "isempty", "keys", "label",
	"labels", "last", "left", "length", "log", "log10", "ltrim", "max", "min", "nodes",
	"percentilecont", "percentiledisc", "pi", "properties", "radians", "rand", "range",
	"relationships", "replace", "reverse", "right", "round", "rtrim", "sign", "sin", "size", "split",
	"sqrt", "start_id", "startnode", "stdev", "stdevp", "substring", "sum", "tail", "tan", "timestamp",
	"toboolean", "tobooleanlist", "tofloat", "tofloatlist", "tointeger", "tointegerlist", "tolower",
	"tostring", "tostringlist", "toupper", "trim", "type")

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// refuse is the filter's error: always on the field query.
func refuse(format string, args ...any) error {
	return &validation.Error{Field: "query", Message: fmt.Sprintf(format, args...)}
}

// tokenizeCypher splits q into tokens as AGE's scanner would, dropping whitespace and
// comments, and refuses what the filter never lets through: $ anywhere, NUL and invalid
// UTF-8, characters other than printable ASCII and AGE's whitespace outside strings,
// unterminated strings, comments and quoted names, invalid escapes and :: casts.
func tokenizeCypher(q string) ([]cypherToken, error) {
	if !utf8.ValidString(q) {
		return nil, refuse("must be valid UTF-8")
	}
	if i := strings.IndexByte(q, 0); i >= 0 {
		return nil, refuse("must not contain NUL (offset %d)", i)
	}
	if i := strings.IndexByte(q, '$'); i >= 0 {
		return nil, refuse("must not contain $ (offset %d): parameters and dollar quoting are not supported; write \\u0024 inside a string", i)
	}
	var toks []cypherToken
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case cypherWhitespace(c):
			i++
		case c >= 0x80 || c < 0x20 || c == 0x7f:
			r, _ := utf8.DecodeRuneInString(q[i:])
			return nil, refuse("must contain only printable ASCII and whitespace outside strings: U+%04X at offset %d", r, i)
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			end := strings.Index(q[i+2:], "*/")
			if end < 0 {
				return nil, refuse("has an unterminated /* comment at offset %d", i)
			}
			i += 2 + end + 2
		case c == '/' && i+1 < len(q) && q[i+1] == '/':
			for i < len(q) && q[i] != '\n' && q[i] != '\r' {
				i++
			}
		case digit(c) || c == '.' && i+1 < len(q) && digit(q[i+1]):
			n, err := scanNumber(q, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, cypherToken{kind: tokNumber, text: q[i:n], pos: i})
			i = n
		case c == '\'' || c == '"':
			n, err := scanString(q, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, cypherToken{kind: tokString, text: q[i+1 : n-1], pos: i})
			i = n
		case identStart(c):
			j := i + 1
			for j < len(q) && identCont(q[j]) {
				j++
			}
			toks = append(toks, cypherToken{kind: tokWord, text: q[i:j], pos: i})
			i = j
		case c == '`':
			var name strings.Builder
			j := i + 1
			for {
				k := strings.IndexByte(q[j:], '`')
				if k < 0 {
					return nil, refuse("has an unterminated `quoted name` at offset %d", i)
				}
				name.WriteString(q[j : j+k])
				j += k + 1
				if j < len(q) && q[j] == '`' {
					name.WriteByte('`')
					j++
					continue
				}
				break
			}
			if name.Len() == 0 {
				return nil, refuse("has an empty `` name at offset %d", i)
			}
			// A quoted name glued to a name or number ("`a`b", "x`a`", "`0`0(") could be read
			// as one name or as two tokens; refuse rather than guess how AGE joins them.
			if j < len(q) && identCont(q[j]) || i > 0 && identCont(q[i-1]) {
				return nil, refuse("has a `quoted name` glued to a name or number at offset %d; put a space between them", i)
			}
			toks = append(toks, cypherToken{kind: tokQuoted, text: name.String(), pos: i})
			i = j
		case c == ':' && i+1 < len(q) && q[i+1] == ':':
			return nil, refuse("must not use :: casts (offset %d); use toInteger, toFloat, toString or toBoolean", i)
		case c == '.' && i+1 < len(q) && q[i+1] == '.':
			toks = append(toks, cypherToken{kind: tokPunct, text: "..", pos: i})
			i += 2
		case cypherOpChar(c):
			j := i
			for j < len(q) && cypherOpChar(q[j]) {
				j++
			}
			op := q[i:j]
			if strings.Contains(op, "/*") || strings.Contains(op, "//") {
				return nil, refuse("has a comment glued to an operator at offset %d; put a space before the comment", i)
			}
			if !cypherOps[op] {
				return nil, refuse("uses the operator %q (offset %d), which is not allowed", op, i)
			}
			toks = append(toks, cypherToken{kind: tokOp, text: op, pos: i})
			i = j
		case strings.IndexByte(cypherSelf, c) >= 0:
			toks = append(toks, cypherToken{kind: tokPunct, text: string(c), pos: i})
			i++
		default:
			return nil, refuse("must not contain %q outside strings (offset %d)", c, i)
		}
	}
	return toks, nil
}

// scanNumber returns the end of the number starting at i: an integer, 0x hex, a decimal
// (1.5, 1., .5; "1.." is 1 followed by ..) or scientific notation, as AGE's scanner reads it.
func scanNumber(q string, i int) (int, error) {
	start := i
	if q[i] == '0' && i+1 < len(q) && (q[i+1] == 'x' || q[i+1] == 'X') {
		i += 2
		if i >= len(q) || !hexDigit(q[i]) {
			return 0, refuse("has an invalid hexadecimal literal at offset %d", start)
		}
		for i < len(q) && hexDigit(q[i]) {
			i++
		}
		return i, nil
	}
	for i < len(q) && digit(q[i]) {
		i++
	}
	if i < len(q) && q[i] == '.' && !(i+1 < len(q) && q[i+1] == '.') {
		i++
		for i < len(q) && digit(q[i]) {
			i++
		}
	}
	if i < len(q) && (q[i] == 'e' || q[i] == 'E') {
		i++
		if i < len(q) && (q[i] == '+' || q[i] == '-') {
			i++
		}
		if i >= len(q) || !digit(q[i]) {
			return 0, refuse("has an invalid number at offset %d", start)
		}
		for i < len(q) && digit(q[i]) {
			i++
		}
	}
	return i, nil
}

// scanString returns the end of the string literal starting at i (q[i] is its quote): a
// backslash escape is one of \" \' \/ \\ \b \f \n \r \t \uXXXX \UXXXXXXXX, and a doubled
// quote stands for itself.
func scanString(q string, i int) (int, error) {
	quote, start := q[i], i
	for i++; i < len(q); i++ {
		switch q[i] {
		case '\\':
			if i+1 >= len(q) {
				return 0, refuse("has an unterminated string at offset %d", start)
			}
			switch e := q[i+1]; e {
			case '"', '\'', '/', '\\', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u', 'U':
				n := 4
				if e == 'U' {
					n = 8
				}
				for k := 0; k < n; k++ {
					if i+2+k >= len(q) || !hexDigit(q[i+2+k]) {
						return 0, refuse("has an invalid \\%c escape at offset %d", e, i)
					}
				}
				i += 1 + n
			default:
				return 0, refuse("has an invalid escape at offset %d", i)
			}
		case quote:
			if i+1 < len(q) && q[i+1] == quote {
				i++
				continue
			}
			return i + 1, nil
		}
	}
	return 0, refuse("has an unterminated string at offset %d", start)
}

// CheckCypher refuses a query that is anything but a bounded read of the space's own graph:
// a write or procedural clause (bare or `backquoted`), a qualified function name, a function
// outside the allowlist, a parameter, a cast, text AGE would read differently from the filter,
// or a query past the bounds of checkCypherBounds. The error is an *validation.Error
// on the field query.
func CheckCypher(q string) error {
	toks, err := tokenizeCypher(q)
	if err != nil {
		return err
	}
	if len(toks) == 0 {
		return refuse("is required")
	}
	if err := checkCypherWords(toks); err != nil {
		return err
	}
	return checkCypherBounds(toks)
}

// checkCypherWords refuses write and procedural keywords, bare or backquoted (AGE's scanner
// looks a backquoted name up as a keyword too), a "." followed by anything but a name
// (AGE reads a.(f(x)) as the qualified call a.f(x)), qualified calls and calls of functions
// outside the allowlist.
func checkCypherWords(toks []cypherToken) error {
	for i, t := range toks {
		if t.kind == tokPunct && t.text == "." && (i+1 >= len(toks) || toks[i+1].kind != tokWord && toks[i+1].kind != tokQuoted) {
			return refuse("must follow . with a property name (offset %d): AGE reads a.(f(x)) as a call of a schema-qualified function", t.pos)
		}
		if t.kind != tokWord && t.kind != tokQuoted {
			continue
		}
		lower := asciiLower(t.text)
		if t.kind == tokWord && cypherRefusedWords[lower] {
			return refuse("must only read (the Cypher endpoint is read-only): %s (offset %d) is not allowed; use MATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND, RETURN, ORDER BY, SKIP and LIMIT", strings.ToUpper(t.text), t.pos)
		}
		if t.kind == tokQuoted && ageKeywords[lower] && !cypherReadKeywords[lower] {
			return refuse("must only read (the Cypher endpoint is read-only): `%s` (offset %d) is AGE's keyword %s even in backquotes, and it is not allowed", t.text, t.pos, strings.ToUpper(lower))
		}
		if i+1 >= len(toks) || toks[i+1].kind != tokPunct || toks[i+1].text != "(" {
			continue
		}
		// t is followed by "(": a function call, or a keyword that opens a parenthesis.
		// A number right before a name is never valid Cypher, and "1.f(" might read as a
		// qualified call to a reader that does not split numbers the same way: refuse both.
		if i > 0 && (toks[i-1].kind == tokPunct && toks[i-1].text == "." || toks[i-1].kind == tokNumber) {
			return refuse("must not call a schema-qualified function (%s at offset %d); call AGE's functions by their plain name", t.text, t.pos)
		}
		if t.kind == tokWord && cypherReadKeywords[lower] {
			continue
		}
		if !cypherFunctions[lower] {
			return refuse("calls %s (offset %d), which is not an allowed function; allowed: %s", t.text, t.pos, allowedFunctionList())
		}
	}
	return nil
}

// allowedFunctionList names the allowed functions for error messages, sorted.
func allowedFunctionList() string {
	return "count, coalesce, exists and " + strings.Join(slices.Sorted(maps.Keys(cypherFunctions)), ", ")
}
