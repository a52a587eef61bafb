package strictjson_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/internal/strictjson"
	"github.com/zaxy/zaxy/testcontainers"
)

func TestCheck_AcceptsOrdinaryJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{}`, `[]`, `"x"`, `0`, `-0.5e-3`, `true`, `null`,
		`{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}`,
		`{"A":1,"a":2}`,
		`{"emoji":"\ud83d\ude00 😀","tab":"\t","quote":"\"","slash":"\/"}`,
		`{"big":1e131071,"small":1e-16383,"zero":0e1073741823}`,
		" \n{ \"a\" : [ 1 , 2 ] } \t",
	} {
		require.NoError(t, strictjson.Check([]byte(in)), in)
	}
}

func TestCheck_RefusesAndNamesThePath(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, path, msg string
	}{
		{"duplicate top-level key", `{"type":"note","type":"x"}`, "type", "duplicate key"},
		{"duplicate after unescaping", `{"a":1,"\u0061":2}`, "a", "duplicate key"},
		{"duplicate deep", `{"events":[{"data":{"x":{"k":1,"k":2}}}]}`, "events[0].data.x.k", "duplicate key"},
		{"invalid utf-8 in a value", "{\"content\":\"a\xffb\"}", "content", "valid UTF-8"},
		{"invalid utf-8 deep", "{\"data\":{\"tags\":[\"ok\",\"\xc3\x28\"]}}", "data.tags[1]", "valid UTF-8"},
		{"overlong utf-8", "{\"x\":\"\xc0\xaf\"}", "x", "valid UTF-8"},
		{"utf-8 encoded surrogate", "{\"x\":\"\xed\xa0\x80\"}", "x", "valid UTF-8"},
		{"invalid utf-8 in a key", "{\"data\":{\"k\xff\":1}}", "data", "key that must be valid UTF-8"},
		{"lone high surrogate", `{"content":"\ud800"}`, "content", "lone UTF-16 surrogate"},
		{"high surrogate then text", `{"content":"\ud800x"}`, "content", "lone UTF-16 surrogate"},
		{"high surrogate then high", `{"content":"\ud800\ud800"}`, "content", "lone UTF-16 surrogate"},
		{"lone low surrogate", `{"data":{"a":"\udc00"}}`, "data.a", "lone UTF-16 surrogate"},
		{"NUL escape", `{"query":"a\u0000b"}`, "query", `\u0000`},
		{"huge exponent", `{"data":{"n":1e1000000}}`, "data.n", "number Postgres cannot store"},
		{"one digit too many", `{"data":{"n":[1e131072]}}`, "data.n[0]", "number Postgres cannot store"},
		{"scale too large", `{"cues":{"n":1e-16384}}`, "cues.n", "number Postgres cannot store"},
		{"zero with too large a scale", `{"n":0e-16384}`, "n", "number Postgres cannot store"},
		{"exponent beyond int range", `{"n":0e1073741824}`, "n", "number Postgres cannot store"},
		{"exponent with many digits", `{"n":1e99999999999999999999999999}`, "n", "number Postgres cannot store"},
		{"trailing value", `{} {}`, "", "exactly one"},
	}
	for _, tc := range cases {
		err := strictjson.Check([]byte(tc.in))
		var e *strictjson.Error
		require.True(t, errors.As(err, &e), "%s: %v", tc.name, err)
		require.Equal(t, tc.path, e.Path, tc.name)
		require.Contains(t, e.Message, tc.msg, tc.name)
	}
}

func TestCheck_DepthIsBounded(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", strictjson.MaxDepth+2) + strings.Repeat("]", strictjson.MaxDepth+2)
	require.ErrorContains(t, strictjson.Check([]byte(deep)), "nests deeper")
	ok := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	require.NoError(t, strictjson.Check([]byte(ok)))
}

// TestCheck_NumberLimitsMatchPostgres runs each boundary through the real jsonb input function:
// a number Check accepts must be stored, and one it refuses must be refused by Postgres with
// SQLSTATE 22003 (numeric value out of range), so the check is neither looser nor stricter.
func TestCheck_NumberLimitsMatchPostgres(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testcontainers.AdminURL(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close(ctx) })
	nums := []string{
		"1e1000000", "1e131071", "1e131072", "1e+131071", "1e+131072", "12e131070", "123e131070",
		"0.5e131072", "0.5e131073", "10.0e131070", "10.0e131071", "0.001e131074", "0.001e131075",
		"1e-16383", "1e-16384", "0.1e-16383", "100e-16385", "1.5e-16382", "0e-16383", "0e-16384",
		"0.0000000000001e-16370", "0.0000000000001e-16371", "0e1000000", "0.0e99999", "0.00e131072",
		"0e1073741823", "0e1073741824", "0e-99999999", "1e2147483648", "-1e131071", "-1e131072",
		"1" + strings.Repeat("0", 131071), "1" + strings.Repeat("0", 131072),
		"0." + strings.Repeat("1", 16383), "0." + strings.Repeat("1", 16384),
		"1." + strings.Repeat("0", 16383), "1." + strings.Repeat("0", 16384),
		"1E5", "-0", "3.14",
	}
	for _, n := range nums {
		doc := `{"n":` + n + `}`
		require.True(t, json.Valid([]byte(doc)))
		checkErr := strictjson.Check([]byte(doc))
		var out string
		pgErr := conn.QueryRow(ctx, `SELECT left($1::jsonb::text, 8)`, doc).Scan(&out)
		label := n
		if len(label) > 30 {
			label = label[:30] + "..."
		}
		if checkErr == nil {
			require.NoError(t, pgErr, "Check accepted %s but Postgres refused it", label)
			continue
		}
		var pe *pgconn.PgError
		require.True(t, errors.As(pgErr, &pe), "Check refused %s (%v) but Postgres accepted it", label, checkErr)
		require.Equal(t, "22003", pe.Code, label)
	}
}

// TestCheck_LoneSurrogatesArePostgresErrorsToo shows why lone surrogates are refused: jsonb
// refuses them too, so accepting one would only move the failure to the insert.
func TestCheck_LoneSurrogatesArePostgresErrorsToo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testcontainers.AdminURL(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close(ctx) })
	for _, doc := range []string{`{"a":"\ud800"}`, `{"a":"\udc00"}`, `{"a":"\ud800x"}`} {
		require.Error(t, strictjson.Check([]byte(doc)), doc)
		var out string
		require.Error(t, conn.QueryRow(ctx, `SELECT $1::jsonb::text`, doc).Scan(&out), doc)
	}
	var out string
	require.NoError(t, conn.QueryRow(ctx, `SELECT $1::jsonb->>'a'`, `{"a":"\ud83d\ude00"}`).Scan(&out))
	require.Equal(t, "😀", out)
	require.NoError(t, strictjson.Check([]byte(`{"a":"\ud83d\ude00"}`)))
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, "{\"a\":\"\xff\"}", `{"a":"\ud800"}`, `{"n":1e1000000}`, `[1,{"b":[2]}]`, `"\u0000"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		err := strictjson.Check(b)
		if !json.Valid(b) {
			return
		}
		if err == nil {
			// An accepted text has no invalid UTF-8 and decodes to the same value after a
			// round trip through encoding/json (no silent replacement happened).
			require.True(t, strings.ToValidUTF8(string(b), "\uFFFD") == string(b))
			var v any
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.UseNumber()
			require.NoError(t, dec.Decode(&v))
			out, mErr := json.Marshal(v)
			if mErr == nil {
				require.NoError(t, strictjson.Check(out), "re-encoded %q", out)
			}
		}
	})
}
