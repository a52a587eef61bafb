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

// Every pattern's bound is at most the length of the secrets the tests know it finds: the
// length skip in find never hides one of them.
func TestMinMatchLen_NoKnownSecretIsShorterThanItsPatternsBound(t *testing.T) {
	require.Positive(t, minSecretLen)
	for _, p := range patterns {
		require.Positive(t, p.minLen, p.kind)
		require.LessOrEqual(t, minSecretLen, p.minLen)
	}
	for _, s := range []string{"a_pw=x", "DB_PWD=hunter22", "://u:p@h", "token=abcdefgh"} {
		_, n := String(s)
		require.Equal(t, 1, n, s)
		require.GreaterOrEqual(t, len(s), minSecretLen, s)
	}
}
