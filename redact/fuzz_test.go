package redact_test

import (
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
// the input never survives.
func FuzzRedact(f *testing.F) {
	for _, tc := range patternCases {
		f.Add(tc.input, uint16(len(tc.input)/2), uint8(len(tc.name)))
	}
	f.Add(fakePEM+"\nhttps://u:p@h Authorization: Bearer x", uint16(3), uint8(1))
	f.Add(fakePGP, uint16(40), uint8(2))
	f.Add(`{"client_secret": "abcdefgh\"ij"} AKIAIOSFODNN7EXAMPLE`, uint16(9), uint8(3))
	f.Add("ｐａｓｓｗｏｒｄ＝ｈｕｎｔｅｒ\u200b２２ https://u:p@ss@w0rd@h", uint16(5), uint8(4))
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
		if got, _ := redact.String(mixed); strings.Contains(got, secret) {
			t.Fatalf("planted secret survived:\n in  %q\n out %q", mixed, got)
		}
	})
}
