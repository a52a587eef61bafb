package redact

import (
	"regexp"
	"regexp/syntax"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMinMatchLen_IsTheShortestMatch(t *testing.T) {
	for _, c := range []struct {
		expr     string
		shortest string // a text the expression matches whole, of the bound's length
	}{
		{`abc`, "abc"},
		{`a{3}b?`, "aaa"},
		{`(?:ab|c)+x*`, "c"},
		{`\bx\b`, "x"},
		{`^$`, ""},
		{`(?i:pass)=[^\s]{8,}`, "PaSs=12345678"},
		{`é`, "é"},
		{`(?P<s>[0-9]{4})|\d{2}`, "12"},
	} {
		require.Equal(t, len(c.shortest), minMatchLen(syntax.Parse(c.expr, syntax.Perl)), c.expr)
		require.True(t, regexp.MustCompile(`^(?:`+c.expr+`)$`).MatchString(c.shortest), c.expr)
	}
}

// The length skip keeps the shortest texts that do hold secrets.
func TestMinMatchLen_ShortSecretsAreStillFound(t *testing.T) {
	require.Equal(t, 6, minSecretLen, "the least bound (a_pw=x)")
	for _, s := range []string{"a_pw=x", "DB_PWD=hunter22", "://u:p@h", "token=abcdefgh"} {
		_, n := String(s)
		require.Equal(t, 1, n, s)
	}
}
