package redact

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// secretKey matches lowercased JSON keys whose string values are secrets whatever they look
// like: "password", "db_password", "apiKey", "client_secret", "accessToken", "GH_PAT"...
var secretKey = regexp.MustCompile(
	`^(?:.*(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|account[_-]?key|private[_-]?key|credentials?|authorization|cookie)|.*[_.-](?:pwd|pass|pw|pat))$`)

// JSON redacts a JSON object: every string value at any depth goes through String, and the
// whole string value of a key that names a secret (secretKey: "password", "api_key",
// "X-Api-Key", "token", ...) is replaced with "[REDACTED:secret]" (or ":password"). A key
// holding a secret is renamed the same way (numbered " (2)", " (3)" if that name is taken).
// Numbers, booleans and nulls are kept. It returns raw itself when nothing was redacted (so
// formatting and number spelling are untouched), otherwise the object re-encoded, and how
// many values it replaced. The replacements share one growth allowance (see String), so the
// document grows by at most 4 KiB less its size. nil stays nil. raw must be valid JSON.
func JSON(raw json.RawMessage) (json.RawMessage, int, error) {
	return JSONContext(context.Background(), raw)
}

// JSONContext is JSON that gives up with ctx's error when ctx is done.
func JSONContext(ctx context.Context, raw json.RawMessage) (json.RawMessage, int, error) {
	if raw == nil {
		return nil, 0, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, 0, fmt.Errorf("redact json: %w", err)
	}
	r := jsonRedactor{sc: &scanner{ctx: ctx}, bud: newBudget(len(raw))}
	v, n := r.value(v, "")
	if r.err != nil {
		return nil, 0, fmt.Errorf("redact json: %w", r.err)
	}
	if n == 0 {
		return raw, 0, nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, 0, fmt.Errorf("redact json: %w", err)
	}
	return bytes.TrimRight(b.Bytes(), "\n"), n, nil
}

// jsonRedactor redacts one document's strings with one scanner and one growth allowance; err
// is the first error (the context's).
type jsonRedactor struct {
	sc  *scanner
	bud *budget
	err error
}

func (r *jsonRedactor) str(s string) (string, int) {
	if r.err != nil {
		return s, 0
	}
	out, n, err := redactString(r.sc, r.bud, s)
	if err != nil {
		r.err = err
		return s, 0
	}
	return out, n
}

// value redacts v, the value of key (lowercased; "" for array items and the top level).
func (r *jsonRedactor) value(v any, key string) (any, int) {
	switch x := v.(type) {
	case string:
		if key != "" && x != "" && !isMarker(x) && secretKey.MatchString(key) {
			kind := "secret"
			if strings.Contains(key, "pass") || strings.Contains(key, "pwd") || strings.HasSuffix(key, "pw") {
				kind = "password"
			}
			return r.bud.replacement(kind, len(x)), 1
		}
		return r.str(x)
	case map[string]any:
		total := 0
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // renamed keys are numbered in a stable order
		for _, k := range keys {
			item, n := r.value(x[k], strings.ToLower(k))
			total += n
			nk, m := r.str(k)
			if m == 0 {
				x[k] = item
				continue
			}
			// A secret in a key: the key is renamed, numbered if the name is taken.
			delete(x, k)
			total += m
			name := nk
			for i := 2; ; i++ {
				if _, taken := x[name]; !taken {
					break
				}
				name = fmt.Sprintf("%s (%d)", nk, i)
			}
			x[name] = item
		}
		return x, total
	case []any:
		total := 0
		for i, item := range x {
			var n int
			x[i], n = r.value(item, key)
			total += n
		}
		return x, total
	}
	return v, 0
}
