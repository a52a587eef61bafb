package redact

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Marker is how every replacement starts: a secret becomes "[REDACTED:<kind>]".
const Marker = "[REDACTED:"

// compactMarker replaces a secret once the text has grown by its growth allowance (see
// String): it names no kind, so it is as short as a marker can be.
const compactMarker = "[REDACTED]"

// growthFloor is the size up to which redaction may lengthen a text: the result of String is
// never longer than the larger of the input and growthFloor bytes (JSON: the document).
const growthFloor = 4096

// isMarker reports whether s is exactly one replacement: "[REDACTED:<kind>]", "[REDACTED]",
// or a mask of "*".
func isMarker(s string) bool {
	if s == compactMarker || (s != "" && strings.Trim(s, "*") == "") {
		return true
	}
	kind, ok := strings.CutPrefix(s, Marker)
	if !ok {
		return false
	}
	if kind, ok = strings.CutSuffix(kind, "]"); !ok || kind == "" {
		return false
	}
	for i := 0; i < len(kind); i++ {
		if c := kind[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// budget is how many bytes the replacements may still add to a text (or JSON document).
type budget struct{ left int }

func newBudget(size int) *budget { return &budget{left: max(0, growthFloor-size)} }

// replacement returns what replaces a secret of n bytes: its marker while the budget allows,
// then "[REDACTED]", then (for a secret shorter than that) as many "*" as it has bytes. A
// replacement shorter than its secret gives the difference back to the budget.
func (b *budget) replacement(kind string, n int) string {
	for _, r := range []string{Marker + kind + "]", compactMarker} {
		if grow := len(r) - n; grow <= b.left {
			b.left -= grow
			return r
		}
	}
	return strings.Repeat("*", n)
}

// maxPasses bounds the passes String makes until nothing more is found.
const maxPasses = 3

// String replaces the secrets it recognises in s with "[REDACTED:<kind>]" and returns the
// result and how many it replaced. The whole value of a secret is replaced, never a prefix.
// Matching sees through full-width forms (e.g. "＝" for "="), other Unicode spaces and
// invisible format characters (zero-width spaces, joiners, soft hyphens, bidi controls),
// which are normalised for matching only: what is replaced is the original span. Every
// pattern runs only from its literal hints: an automaton decides at a few nanoseconds a byte
// whether a match can start there and where it is decided, and only then does the
// expression run, on that much of the line; a match, and a failure of a pattern that scans
// on, rule out the hints they cover, so String runs in time linear in len(s). All but the
// private key block match within one line. The result is never
// longer than max(len(s), 4 KiB): past that, secrets become "[REDACTED]" or, if shorter,
// "*" masks. Invalid UTF-8 is left as it is (Postgres text cannot hold it, so callers reject
// it first). String(String(s)) == String(s).
func String(s string) (string, int) {
	out, n, _ := redactString(&scanner{}, newBudget(len(s)), s)
	return out, n
}

// StringContext is String that gives up with ctx's error when ctx is done (it checks ctx
// every few hundred attempts to match), so a deadline holds on any input.
func StringContext(ctx context.Context, s string) (string, int, error) {
	return redactString(&scanner{ctx: ctx}, newBudget(len(s)), s)
}

func redactString(sc *scanner, bud *budget, s string) (string, int, error) {
	if len(s) < minSecretLen {
		return s, 0, nil
	}
	out, total := sc.pass(bud, s)
	if sc.err != nil {
		return "", 0, fmt.Errorf("redact: %w", sc.err)
	}
	if total == 0 {
		return s, 0, nil
	}
	// A replacement can only make a new match on its own line (the one pattern that spans
	// lines starts with a literal no replacement contains), so later passes look only there.
	for range maxPasses - 1 {
		var b strings.Builder
		b.Grow(len(out))
		n := 0
		for rest := out; rest != ""; {
			line, tail, cut := strings.Cut(rest, "\n")
			if strings.Contains(line, Marker) || strings.Contains(line, compactMarker) || strings.Contains(line, "*") {
				var k int
				line, k = sc.pass(bud, line)
				n += k
			}
			b.WriteString(line)
			if cut {
				b.WriteByte('\n')
			}
			rest = tail
		}
		if sc.err != nil {
			return "", 0, fmt.Errorf("redact: %w", sc.err)
		}
		if n == 0 {
			break
		}
		out, total = b.String(), total+n
	}
	return out, total, nil
}

// pass finds and replaces secrets once.
func (sc *scanner) pass(bud *budget, s string) (string, int) {
	norm, idx := normalize(s)
	found := sc.find(norm)
	if len(found) == 0 {
		return s, 0
	}
	var b strings.Builder
	b.Grow(len(s))
	prev, n := 0, 0
	for _, r := range found {
		start, end := r.start, r.end
		if idx != nil {
			start, end = idx[start], idx[end]
		}
		if end <= prev {
			continue // inside a secret already replaced
		}
		if start < prev {
			start = prev // runs on past a secret already replaced: replace the rest too
		}
		b.WriteString(s[prev:start])
		b.WriteString(bud.replacement(r.kind, end-start))
		prev = end
		n++
	}
	b.WriteString(s[prev:])
	return b.String(), n
}

// asciiLower lowercases ASCII letters only, so byte offsets stay the same.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// normalize returns the text the patterns match against: full-width ASCII forms (U+FF01 to
// U+FF5E) become ASCII, Unicode spaces other than "\n" become " ", and format characters
// (category Cf: zero-width spaces and joiners, soft hyphens, bidi controls, BOM) are dropped.
// idx maps each byte offset of the result (and its length) to the offset in s where that
// character starts; it is nil when nothing changed (the result is s).
func normalize(s string) (string, []int) {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) || !needsNormalizing(s[i:]) {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	idx := make([]int, 0, len(s)+1)
	for j := 0; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteByte(s[j])
			idx = append(idx, j)
		case r >= 0xFF01 && r <= 0xFF5E:
			b.WriteByte(byte(r - 0xFEE0))
			idx = append(idx, j)
		case r >= utf8.RuneSelf && unicode.IsSpace(r):
			b.WriteByte(' ')
			idx = append(idx, j)
		case r >= utf8.RuneSelf && unicode.Is(unicode.Cf, r):
			// dropped
		default:
			b.WriteString(s[j : j+size])
			for k := range size {
				idx = append(idx, j+k)
			}
		}
		j += size
	}
	idx = append(idx, len(s))
	// A span ends at idx[end], where the next kept character starts, so invisible characters
	// just after a secret are replaced with it.
	return b.String(), idx
}

// needsNormalizing reports whether s has a character normalize changes.
func needsNormalizing(s string) bool {
	for _, r := range s {
		if r < utf8.RuneSelf {
			continue
		}
		if (r >= 0xFF01 && r <= 0xFF5E) || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			return true
		}
	}
	return false
}
