package graph

import (
	"math/big"
	"strings"
)

// The Cypher bounds. Inside one expression AGE never checks for interrupts, so neither
// statement_timeout nor pg_terminate_backend stops it, and its values are wasteful (a string
// built by + takes ~200 bytes of backend memory per character; a list ~65 bytes per element):
// RETURN size(range(1,10000000)) grows a backend by 630 MB, and a chain of WITH s + s AS s
// doubles a string per clause until the machine runs out of memory. The filter therefore
// refuses what can allocate without bound inside one expression, each bound measured on AGE
// 1.5 (docs/security.md lists the measurements):
//   - range() only with integer literal bounds (and step), at most maxCypherRange elements
//     each and maxCypherRangeTotal in all;
//   - replace() only with literal search and replacement strings, the replacement no longer
//     than the search, so it never grows its input;
//   - at most maxCypherCalls function calls and at most maxCypherDepth nested brackets;
//   - a value named with AS copied at most maxCypherCopies times over the WITH, UNWIND and
//     RETURN projections (checkCopies), so no chain of clauses can double a value step by
//     step (WITH s + s AS s, WITH [s, s] AS s, {a: s, b: s});
//   - at most one collect(), so no collected list is collected again.
//
// What is left allocates linearly in the query's length or one row at a time, where the
// executor checks for interrupts: the deadline and the memory cap of cypher_deadline.go stop
// it (collect() and agtype's sort comparisons grow a backend per row, by the rows' count,
// which no bound on the query's text can hold).
const (
	// maxCypherRange caps the elements of one range().
	maxCypherRange = 10000
	// maxCypherRangeTotal caps the elements of all of a query's range() calls.
	maxCypherRangeTotal = 20000
	// maxCypherCalls caps the function calls of a query.
	maxCypherCalls = 64
	// maxCypherDepth caps the nesting of (, [ and {.
	maxCypherDepth = 32
	// maxCypherCopies caps how many times the projections can copy a value named with AS.
	maxCypherCopies = 8
	// maxCypherCollects caps the collect() calls of a query.
	maxCypherCollects = 1
)

// cypherProjections are the clauses whose expressions compute values passed on.
var cypherProjections = set("with", "return", "unwind")

// cypherClauseStarts are the words that end a projection's expressions at the top level.
var cypherClauseStarts = set("match", "optional", "with", "return", "unwind", "where", "order",
	"skip", "limit", "union")

// checkCypherBounds refuses a query past the bounds above.
func checkCypherBounds(toks []cypherToken) error {
	depth, calls, collects, ranged := 0, 0, 0, int64(0)
	for i, t := range toks {
		if t.kind == tokPunct {
			switch t.text {
			case "(", "[", "{":
				if depth++; depth > maxCypherDepth {
					return refuse("nests brackets more than %d deep (offset %d)", maxCypherDepth, t.pos)
				}
			case ")", "]", "}":
				depth--
			}
			continue
		}
		if t.kind != tokWord && t.kind != tokQuoted || !isCall(toks, i) {
			continue
		}
		if calls++; calls > maxCypherCalls {
			return refuse("calls more than %d functions (offset %d)", maxCypherCalls, t.pos)
		}
		switch asciiLower(t.text) {
		case "range":
			n, err := checkRange(toks, i)
			if err != nil {
				return err
			}
			if ranged += n; ranged > maxCypherRangeTotal {
				return refuse("calls range with more than %d elements in all (offset %d)", maxCypherRangeTotal, t.pos)
			}
		case "replace":
			if err := checkReplace(toks, i); err != nil {
				return err
			}
		case "collect":
			if collects++; collects > maxCypherCollects {
				return refuse("calls collect() more than %d time (offset %d)", maxCypherCollects, t.pos)
			}
		}
	}
	return checkCopies(toks)
}

// isCall reports whether toks[i] is a name followed by "(".
func isCall(toks []cypherToken, i int) bool {
	return i+1 < len(toks) && toks[i+1].kind == tokPunct && toks[i+1].text == "("
}

// callArgs splits the arguments of the call at toks[i] (a name followed by "(") at their
// top-level commas; ok is false when the call is not closed.
func callArgs(toks []cypherToken, i int) (args [][]cypherToken, ok bool) {
	depth, start := 0, i+2
	for j := i + 1; j < len(toks); j++ {
		t := toks[j]
		if t.kind != tokPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				if j > start || len(args) > 0 {
					args = append(args, toks[start:j])
				}
				return args, true
			}
		case ",":
			if depth == 1 {
				args = append(args, toks[start:j])
				start = j + 1
			}
		}
	}
	return nil, false
}

// intLiteral reads an argument that is an integer literal, with an optional minus sign.
func intLiteral(arg []cypherToken) (*big.Int, bool) {
	neg := false
	if len(arg) == 2 && arg[0].kind == tokPunct && arg[0].text == "-" {
		neg, arg = true, arg[1:]
	}
	if len(arg) != 1 || arg[0].kind != tokNumber || strings.ContainsAny(arg[0].text, ".eE") && !strings.HasPrefix(strings.ToLower(arg[0].text), "0x") {
		return nil, false
	}
	n, ok := new(big.Int).SetString(strings.ToLower(arg[0].text), 0)
	if !ok {
		return nil, false
	}
	if neg {
		n.Neg(n)
	}
	return n, true
}

// checkRange refuses a range() whose bounds and step are not integer literals or that has
// more than maxCypherRange elements, and returns its elements.
func checkRange(toks []cypherToken, i int) (int64, error) {
	args, ok := callArgs(toks, i)
	if !ok || len(args) < 2 || len(args) > 3 {
		return 0, refuse("calls range (offset %d) with other than 2 or 3 arguments", toks[i].pos)
	}
	var vals [3]*big.Int
	vals[2] = big.NewInt(1)
	for k, a := range args {
		v, ok := intLiteral(a)
		if !ok {
			return 0, refuse("calls range (offset %d) with an argument that is not an integer literal; range takes literal bounds, e.g. range(1, 100)", toks[i].pos)
		}
		vals[k] = v
	}
	if vals[2].Sign() == 0 {
		return 0, refuse("calls range (offset %d) with a step of 0", toks[i].pos)
	}
	// Elements: (end - start) / step + 1 when that is positive.
	n := new(big.Int).Sub(vals[1], vals[0])
	n.Quo(n, vals[2])
	n.Add(n, big.NewInt(1))
	if n.Cmp(big.NewInt(maxCypherRange)) > 0 {
		return 0, refuse("calls range (offset %d) with %s elements; at most %d", toks[i].pos, n.String(), maxCypherRange)
	}
	return max(n.Int64(), 0), nil
}

// checkReplace refuses a replace() that could grow its input: its search and replacement
// must be string literals, the replacement's text (escapes as written) no longer than the
// search's characters (each escape counted as one).
func checkReplace(toks []cypherToken, i int) error {
	args, ok := callArgs(toks, i)
	if !ok || len(args) != 3 || len(args[1]) != 1 || args[1][0].kind != tokString || len(args[2]) != 1 || args[2][0].kind != tokString {
		return refuse("calls replace (offset %d) with a search or replacement that is not a string literal", toks[i].pos)
	}
	if len(args[2][0].text) > minStringLen(args[1][0].text) {
		return refuse("calls replace (offset %d) with a replacement longer than its search; replace may only keep or shrink a text", toks[i].pos)
	}
	return nil
}

// minStringLen is a lower bound of the bytes a string literal's body stands for: each
// escape and each doubled quote counts as one.
func minStringLen(body string) int {
	n := 0
	for i := 0; i < len(body); i++ {
		n++
		switch body[i] {
		case '\\':
			switch body[i+1] {
			case 'u':
				i += 5
			case 'U':
				i += 9
			default:
				i++
			}
		case '\'', '"':
			i++ // a doubled quote
		}
	}
	return n
}

// checkCopies refuses a query whose WITH, UNWIND and RETURN projections could copy a value
// named with AS more than maxCypherCopies times in all. A projection's values are at most as
// large as what it reads times the most uses of one named value in it (plus its literals), so
// the product of those counts over the clauses bounds how far a chain of clauses can grow a
// value (WITH s + s AS s doubles it; WITH [s, s] AS s and {a: s, b: s} too).
func checkCopies(toks []cypherToken) error {
	named := map[string]bool{}
	for i, t := range toks {
		if (t.kind == tokWord || t.kind == tokQuoted) && asciiLower(t.text) == "as" && i+1 < len(toks) {
			named[toks[i+1].text] = true
		}
	}
	if len(named) == 0 {
		return nil
	}
	depth, projecting, growth, most := 0, false, 1, 1
	uses := map[string]int{}
	for i, t := range toks {
		switch {
		case t.kind == tokPunct && (t.text == "(" || t.text == "[" || t.text == "{"):
			depth++
			continue
		case t.kind == tokPunct && (t.text == ")" || t.text == "]" || t.text == "}"):
			depth--
			continue
		}
		if t.kind != tokWord && t.kind != tokQuoted {
			continue
		}
		lower := asciiLower(t.text)
		if depth == 0 && cypherClauseStarts[lower] {
			growth, most = growth*most, 1
			projecting = cypherProjections[lower]
			clear(uses)
			continue
		}
		if !projecting || !named[t.text] || t.kind == tokWord && ageKeywords[lower] || isCall(toks, i) {
			continue
		}
		if i > 0 {
			// A property key or the name an AS gives is no use of a value (a name after ":"
			// may be a map's value, so it counts even where it is a label).
			if p := toks[i-1]; p.kind == tokPunct && p.text == "." ||
				(p.kind == tokWord || p.kind == tokQuoted) && asciiLower(p.text) == "as" {
				continue
			}
		}
		if i+1 < len(toks) && toks[i+1].kind == tokPunct && toks[i+1].text == ":" {
			continue // a map key
		}
		uses[t.text]++
		most = max(most, uses[t.text])
		if growth*most > maxCypherCopies {
			return refuse("could copy a value named with AS more than %d times (%s used %d times at offset %d, after clauses that already copy %d times); use each such value fewer times per WITH, UNWIND or RETURN", maxCypherCopies, t.text, uses[t.text], t.pos, growth)
		}
	}
	return nil
}
