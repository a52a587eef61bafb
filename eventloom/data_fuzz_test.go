package eventloom_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// FuzzEventData: an event's data comes from any caller of the Go API (zaxy append, the
// workers), not only through the HTTP body check. Whatever ValidateBatch accepts, Postgres's
// jsonb stores (the oracle is the database itself: a lone surrogate escape, \u0000, an
// out-of-range number or a leading vertical tab once passed here and failed the INSERT) and Go
// decodes (numbers as json.Number); whatever it refuses is a ValidationError naming data or a field under it.
func FuzzEventData(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"a":"\ud83d\ude00"}`, `{"a":"\ud800"}`, `{"a":"\udc00\ud800"}`, `{"a":"x\u0000"}`, `{"a":"\\u0000"}`,
		"\v{}", " \t\r\n{}\n", `{"a":1,"a":2}`, `{"n":1e1000000}`, `{"n":1e-16383}`, `{"n":0.1e-16383}`, `{"a":[{"b":null}]}`,
		"{\"a\":\"\xff\"}", `[1]`, `null`, ``, `{"a":"\u00e9"}`,
	} {
		f.Add([]byte(seed))
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testcontainers.AdminURL(f))
	if err != nil {
		f.Fatalf("connect: %v", err)
	}
	f.Cleanup(func() { conn.Close(context.Background()) })
	f.Fuzz(func(t *testing.T, raw []byte) {
		err := eventloom.ValidateBatch([]eventloom.NewEvent{{Type: "note", Content: "x", Data: json.RawMessage(raw)}})
		if err != nil {
			var ve *eventloom.ValidationError
			if !errors.As(err, &ve) || (ve.Field != "data" && !strings.HasPrefix(ve.Field, "data.")) {
				t.Fatalf("%q: refused with %v, not a ValidationError on data", raw, err)
			}
			return
		}
		// Numbers as json.Number: jsonb holds numbers far past float64 (1e1000), as documented.
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%q: accepted but Go does not decode it: %v", raw, err)
		}
		var stored string
		if err := conn.QueryRow(ctx, `SELECT $1::text::jsonb::text`, string(raw)).Scan(&stored); err != nil {
			t.Fatalf("%q: accepted but jsonb refuses it: %v", raw, err)
		}
	})
}
