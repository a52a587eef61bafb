// Package strictjson is the one strict check every request body passes before it is decoded:
// encoding/json silently keeps the last of duplicate keys, turns invalid UTF-8 and lone UTF-16
// surrogate escapes into U+FFFD, and accepts numbers Postgres cannot store, so two readers of
// the same bytes (Go, jsonb, a verifier) could see different values. Check refuses all of these
// and names where, as a field path ("events[2].data.tags[0]").
//
// Check only checks; it never rewrites the input, and it expects a syntactically valid JSON
// text (syntax errors are reported without detail). The decoders build on it, and are the one
// way Zaxy reads a JSON object it was sent: DecodeObject for a reader that takes the fields
// one by one and names them in its own errors (the append body and its events, the ingest
// bodies, MCP tool arguments, a documented event type's data), Decode for a request body
// decoded into a struct (the HTTP API's checkout, graph and erasure requests).
package strictjson

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Limits of Postgres numeric (and so jsonb numbers), as Postgres 17 enforces them on input;
// the boundaries are tested against the real database.
const (
	// MaxIntegerDigits is the most digits a number may have before its decimal point
	// (NUMERIC_WEIGHT_MAX: 32768 base-10000 digits).
	MaxIntegerDigits = 131072
	// MaxScale is the most digits a number may carry after its decimal point, counted as
	// Postgres counts them: fraction digits as written minus the exponent (NUMERIC_DSCALE_MAX).
	MaxScale = 16383
	// maxExponent bounds the written exponent (Postgres refuses |e| >= INT_MAX/2 even on 0).
	maxExponent = 1<<30 - 1
	// MaxDepth bounds nesting, as encoding/json does.
	MaxDepth = 10000
)

// Error says where a JSON text breaks the strict rules: Path is the field ("" for the whole
// text), Message what is wrong with it.
type Error struct {
	Path    string
	Message string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Message
	}
	return e.Path + ": " + e.Message
}

// Check reports the first place where data breaks a rule: a duplicate key in an object (keys
// compared after unescaping), invalid UTF-8 in a string or key, a lone UTF-16 surrogate escape
// (\ud800 not followed by a low surrogate, or a low surrogate alone), a \u0000 escape (neither
// text nor jsonb can store NUL), or a number outside Postgres numeric's range. It returns nil
// for a text that passes and an *Error otherwise; a syntax error is reported at the path where
// it was found, without detail (callers check syntax first).
func Check(data []byte) error {
	c := checker{data: data}
	c.skipSpace()
	if err := c.value("", 0); err != nil {
		return err
	}
	c.skipSpace()
	if c.pos != len(c.data) {
		return &Error{Message: "must hold exactly one JSON value"}
	}
	return nil
}

type checker struct {
	data []byte
	pos  int
}

func (c *checker) syntax(path string) error {
	return &Error{Path: path, Message: fmt.Sprintf("is not valid JSON (at byte %d)", c.pos)}
}

func (c *checker) skipSpace() {
	for c.pos < len(c.data) {
		switch c.data[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

func (c *checker) value(path string, depth int) error {
	if depth > MaxDepth {
		return &Error{Path: path, Message: fmt.Sprintf("nests deeper than %d levels", MaxDepth)}
	}
	if c.pos >= len(c.data) {
		return c.syntax(path)
	}
	switch b := c.data[c.pos]; {
	case b == '{':
		return c.object(path, depth)
	case b == '[':
		return c.array(path, depth)
	case b == '"':
		_, err := c.str(path)
		return err
	case b == '-' || (b >= '0' && b <= '9'):
		return c.number(path)
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if len(c.data)-c.pos >= len(lit) && string(c.data[c.pos:c.pos+len(lit)]) == lit {
				c.pos += len(lit)
				return nil
			}
		}
		return c.syntax(path)
	}
}

func (c *checker) object(path string, depth int) error {
	c.pos++ // {
	seen := map[string]bool{}
	c.skipSpace()
	if c.pos < len(c.data) && c.data[c.pos] == '}' {
		c.pos++
		return nil
	}
	for {
		c.skipSpace()
		if c.pos >= len(c.data) || c.data[c.pos] != '"' {
			return c.syntax(path)
		}
		start := c.pos
		key, err := c.str(path)
		if err != nil {
			if e, ok := err.(*Error); ok && e.Path == path && c.pos > start {
				// A bad key is named by the object holding it.
				e.Message = "has a key that " + e.Message
			}
			return err
		}
		child := join(path, key)
		if seen[key] {
			return &Error{Path: child, Message: "is a duplicate key (each key may appear once in an object)"}
		}
		seen[key] = true
		c.skipSpace()
		if c.pos >= len(c.data) || c.data[c.pos] != ':' {
			return c.syntax(path)
		}
		c.pos++
		c.skipSpace()
		if err := c.value(child, depth+1); err != nil {
			return err
		}
		if done, err := c.separator(path, '}'); done || err != nil {
			return err
		}
	}
}

func (c *checker) array(path string, depth int) error {
	c.pos++ // [
	c.skipSpace()
	if c.pos < len(c.data) && c.data[c.pos] == ']' {
		c.pos++
		return nil
	}
	for i := 0; ; i++ {
		c.skipSpace()
		if err := c.value(path+"["+strconv.Itoa(i)+"]", depth+1); err != nil {
			return err
		}
		if done, err := c.separator(path, ']'); done || err != nil {
			return err
		}
	}
}

// separator reads what follows a member or element: a comma (more follow) or closer (the
// object or array ends, done).
func (c *checker) separator(path string, closer byte) (done bool, err error) {
	c.skipSpace()
	if c.pos >= len(c.data) {
		return false, c.syntax(path)
	}
	switch c.data[c.pos] {
	case ',':
		c.pos++
		return false, nil
	case closer:
		c.pos++
		return true, nil
	}
	return false, c.syntax(path)
}

// str reads a string token and returns its unescaped value.
func (c *checker) str(path string) (string, error) {
	c.pos++ // opening quote
	var out []byte
	for {
		if c.pos >= len(c.data) {
			return "", c.syntax(path)
		}
		b := c.data[c.pos]
		switch {
		case b == '"':
			c.pos++
			return string(out), nil
		case b < 0x20:
			return "", c.syntax(path)
		case b == '\\':
			if c.pos+1 >= len(c.data) {
				return "", c.syntax(path)
			}
			esc := c.data[c.pos+1]
			c.pos += 2
			switch esc {
			case '"', '\\', '/':
				out = append(out, esc)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := c.hex4()
				if !ok {
					return "", c.syntax(path)
				}
				switch {
				case r == 0:
					return "", &Error{Path: path, Message: `must not contain \u0000 (NUL): Postgres cannot store it`}
				case utf16.IsSurrogate(r) && r < 0xdc00:
					lo := rune(-1)
					if c.pos+1 < len(c.data) && c.data[c.pos] == '\\' && c.data[c.pos+1] == 'u' {
						c.pos += 2
						if lo, ok = c.hex4(); !ok {
							return "", c.syntax(path)
						}
					}
					if lo < 0xdc00 || lo > 0xdfff {
						return "", &Error{Path: path, Message: `must not contain a lone UTF-16 surrogate escape (a \ud800-\udbff must be followed by a \udc00-\udfff)`}
					}
					out = utf8.AppendRune(out, utf16.DecodeRune(r, lo))
				case utf16.IsSurrogate(r):
					return "", &Error{Path: path, Message: `must not contain a lone UTF-16 surrogate escape (a \udc00-\udfff must follow a \ud800-\udbff)`}
				default:
					out = utf8.AppendRune(out, r)
				}
			default:
				return "", c.syntax(path)
			}
		case b < utf8.RuneSelf:
			out = append(out, b)
			c.pos++
		default:
			r, size := utf8.DecodeRune(c.data[c.pos:])
			if r == utf8.RuneError && size <= 1 {
				return "", &Error{Path: path, Message: "must be valid UTF-8"}
			}
			out = append(out, c.data[c.pos:c.pos+size]...)
			c.pos += size
		}
	}
}

func (c *checker) hex4() (rune, bool) {
	if c.pos+4 > len(c.data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(c.data[c.pos:c.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	c.pos += 4
	return rune(n), true
}

// number reads a number token and checks it against Postgres numeric's input limits: at most
// MaxIntegerDigits significant digits before the decimal point and MaxScale after it.
func (c *checker) number(path string) error {
	start := c.pos
	if c.data[c.pos] == '-' {
		c.pos++
	}
	intStart := c.pos
	for c.pos < len(c.data) && isDigit(c.data[c.pos]) {
		c.pos++
	}
	intDigits := c.data[intStart:c.pos]
	if len(intDigits) == 0 {
		return c.syntax(path)
	}
	var fracDigits []byte
	if c.pos < len(c.data) && c.data[c.pos] == '.' {
		c.pos++
		fs := c.pos
		for c.pos < len(c.data) && isDigit(c.data[c.pos]) {
			c.pos++
		}
		fracDigits = c.data[fs:c.pos]
		if len(fracDigits) == 0 {
			return c.syntax(path)
		}
	}
	exp := int64(0)
	if c.pos < len(c.data) && (c.data[c.pos] == 'e' || c.data[c.pos] == 'E') {
		c.pos++
		neg := false
		if c.pos < len(c.data) && (c.data[c.pos] == '+' || c.data[c.pos] == '-') {
			neg = c.data[c.pos] == '-'
			c.pos++
		}
		es := c.pos
		for c.pos < len(c.data) && isDigit(c.data[c.pos]) {
			if exp <= maxExponent {
				exp = exp*10 + int64(c.data[c.pos]-'0')
			}
			c.pos++
		}
		if c.pos == es {
			return c.syntax(path)
		}
		if exp > maxExponent {
			return c.outOfRange(path, start)
		}
		if neg {
			exp = -exp
		}
	}
	if scale := int64(len(fracDigits)) - exp; scale > MaxScale {
		return c.outOfRange(path, start)
	}
	// The significant integer digits: the position of the first non-zero digit relative to
	// the decimal point, moved by the exponent. Zero has none, whatever its exponent.
	lead, nonZero := 0, false
	for i, d := range intDigits {
		if d != '0' {
			lead, nonZero = len(intDigits)-i, true
			break
		}
	}
	for i := 0; !nonZero && i < len(fracDigits); i++ {
		if fracDigits[i] != '0' {
			lead, nonZero = -i, true
		}
	}
	if !nonZero {
		return nil
	}
	if int64(lead)+exp > MaxIntegerDigits {
		return c.outOfRange(path, start)
	}
	return nil
}

func (c *checker) outOfRange(path string, start int) error {
	lit := string(c.data[start:c.pos])
	if len(lit) > 40 {
		lit = lit[:37] + "..."
	}
	return &Error{Path: path, Message: fmt.Sprintf("is a number Postgres cannot store (at most %d digits before the decimal point and %d after): %s", MaxIntegerDigits, MaxScale, lit)}
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// join appends key to path as a field name.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
