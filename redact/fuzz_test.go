package redact_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/zaxy/zaxy/redact"
)

// planted are secrets FuzzRedact puts into random text; each must be redacted wherever it
// lands (between newlines, so no earlier text can glue onto it).
var planted = []string{fakeAWSID, fakeGitHub, fakeAnthropic, fakeSlackApp, fakeHF, fakeNPM, fakeZaxy, fakeSendGrid, fakeStripeTest, fakeJWT}

// FuzzRedact checks String's invariants on any input: no panic; idempotent (redacting the
// output again changes nothing and counts nothing); valid UTF-8 in, valid UTF-8 out; a
// count that matches the markers added; and a known secret planted at a position chosen by
// the input never survives (the input may itself hold the secret's text inside a longer
// token, which is no secret: only those occurrences may remain).
func FuzzRedact(f *testing.F) {
	for _, tc := range patternCases {
		f.Add(tc.input, uint16(len(tc.input)/2), uint8(len(tc.name)))
	}
	f.Add(fakePEM+"\nhttps://u:p@h Authorization: Bearer x", uint16(3), uint8(1))
	f.Add(fakePGP, uint16(40), uint8(2))
	f.Add(`{"client_secret": "abcdefgh\"ij"} AKIAIOSFODNN7EXAMPLE`, uint16(9), uint8(3))
	f.Add("ｐａｓｓｗｏｒｄ＝ｈｕｎｔｅｒ\u200b２２ https://u:p@ss@w0rd@h", uint16(5), uint8(4))
	// Issue 30: adversarial repetitions and the shapes that reached the log.
	f.Add(strings.Repeat("sk-", 341)+"\n"+strings.Repeat("https://", 127), uint16(100), uint8(5))
	f.Add(strings.Repeat("eyJ-", 64)+strings.Repeat("://a:", 50)+"@h", uint16(7), uint8(6))
	f.Add("aws key "+fakeAWSID+" secret "+fakeAWSSecret, uint16(8), uint8(7))
	f.Add(`{\"password\": \"hunter2\"} docker login -p S3cret r.io; curl -u admin:S3cret https://x`, uint16(2), uint8(8))
	f.Add("X-Api-Key: abcdef0123456789\nAuthorization: Basic dXNlcjpwYXNz\nBasic dXNlcjpwYXNz", uint16(30), uint8(9))
	f.Add(strings.Repeat("a_pw=x\n", 800), uint16(1), uint8(0))
	f.Fuzz(func(t *testing.T, in string, at uint16, which uint8) {
		out, n := redact.String(in)
		again, n2 := redact.String(out)
		if again != out || n2 != 0 {
			t.Fatalf("not idempotent:\n in  %q\n out %q\n again %q (%d)", in, out, again, n2)
		}
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of valid input %q: %q", in, out)
		}
		if n == 0 && out != in {
			t.Fatalf("changed without counting: %q -> %q", in, out)
		}
		if got := strings.Count(out, redact.Marker) - strings.Count(in, redact.Marker); n > 0 && got > n {
			t.Fatalf("%d markers added for %d redactions", got, n)
		}

		secret := planted[int(which)%len(planted)]
		pos := min(int(at), len(in))
		for pos > 0 && !utf8.RuneStart(in[pos%len(in)]) && pos < len(in) {
			pos--
		}
		mixed := in[:pos] + "\n" + secret + "\n" + in[pos:]
		// The input may hold the secret's text inside a longer token (no secret there): only
		// those occurrences may survive, never the planted one.
		if got, _ := redact.String(mixed); strings.Count(got, secret) > strings.Count(in, secret) {
			t.Fatalf("planted secret survived:\n in  %q\n out %q", mixed, got)
		}
	})
}

// FuzzJSON checks JSON's invariants on any JSON object: no panic; the result is a JSON
// object again; idempotent; a planted secret value never survives.
func FuzzJSON(f *testing.F) {
	f.Add(`{"name":"Ann ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789","n":1.50,"env":{"DB_PASSWORD":"short","list":["x",{"note":"pw AKIAIOSFODNN7EXAMPLE"}]}}`, uint8(0))
	f.Add(`{"AKIAIOSFODNN7EXAMPLE":1,"[REDACTED:aws_access_key_id]":2}`, uint8(1))
	f.Add(`{"a":"ｐａｓｓｗｏｒｄ＝ｈｕｎｔｅｒ２２","b":[[[{"token":"x"}]]]}`, uint8(2))
	f.Add(`{}`, uint8(3))
	f.Add(`{"X-Api-Key":"k","x-auth-token":"t","note":"{\\\"password\\\": \\\"hunter2\\\"}"}`, uint8(4))
	f.Add(`{"a":"`+strings.Repeat("sk-", 300)+`","b":["Basic dXNlcjpwYXNz","curl -u a:b https://x"]}`, uint8(5))
	f.Fuzz(func(t *testing.T, in string, which uint8) {
		var obj map[string]any
		if json.Unmarshal([]byte(in), &obj) != nil || obj == nil {
			return
		}
		out, _, err := redact.JSON([]byte(in))
		if err != nil {
			t.Fatalf("error on valid JSON %q: %v", in, err)
		}
		var back map[string]any
		if err := json.Unmarshal(out, &back); err != nil || back == nil {
			t.Fatalf("not a JSON object: %q -> %q", in, out)
		}
		again, n, err := redact.JSON(out)
		if err != nil || n != 0 || string(again) != string(out) {
			t.Fatalf("not idempotent: %q -> %q -> %q (%d)", in, out, again, n)
		}
		secret := planted[int(which)%len(planted)]
		obj["planted"] = []any{"\n" + secret + "\n"}
		raw, err := json.Marshal(obj)
		if err != nil {
			return
		}
		if got, _, _ := redact.JSON(raw); strings.Count(string(got), secret) > strings.Count(in, secret) {
			t.Fatalf("planted secret survived: %q", got)
		}
	})
}
