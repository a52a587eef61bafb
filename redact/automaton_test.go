package redact

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The automaton never rules out a match the expression finds, and the expression run on
// the text up to the automaton's cut finds what it finds on the whole line: checked from
// every hint of every pattern in random texts made of the patterns' own pieces (their
// continuations, the anchors, secrets of the test cases, quotes, spaces, non-ASCII).
func TestAutomaton_AgreesWithTheExpression(t *testing.T) {
	t.Parallel()
	pieces := append(append(anchors(), continuations(false)...),
		`"`, `'`, `\"`, " ", "  ", "\t", "=", ":", "é", "Ｘ", "a", "0", "Z", "-", "_", ".", "/", "@", "|", ";", "\n",
		"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "0a1b2c3d4e5f67890a1b2c3d4e5f67890a1b2c3d", "dXNlcjpwYXNz",
		strings.Repeat("a", 40), strings.Repeat("Ab1", 12))
	rng := rand.New(rand.NewPCG(30, 6))
	checked := 0
	for range 10000 {
		var b strings.Builder
		for range 2 + rng.IntN(20) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		lower := asciiLower(s)
		for pi := range patterns {
			p := &patterns[pi]
			if p.custom != nil {
				continue
			}
			for _, h := range p.hints {
				for from := 0; ; {
					i := strings.Index(lower[from:], h)
					if i < 0 {
						break
					}
					at := from + i
					from = at + 1
					end := len(s)
					if !p.multiline {
						if j := strings.IndexByte(s[at:], '\n'); j >= 0 {
							end = at + j
						}
					}
					want := p.anchored.FindStringSubmatchIndex(s[at:end])
					follow := followMatch
					if p.failSegment {
						follow = followLazyMatch
					}
					r, ok := p.auto.scan(s, at, end, follow)
					require.True(t, ok)
					if want != nil {
						require.True(t, r.possible, "%s at %d of %q: the automaton rules out %q", p.kind, at, s, s[at:at+want[1]])
					}
					if r.possible {
						got := p.anchored.FindStringSubmatchIndex(s[at:r.cut])
						require.Equal(t, want, got, "%s at %d of %q: cut at %d", p.kind, at, s, r.cut)
					}
					checked++
				}
			}
		}
	}
	require.Greater(t, checked, 10000)
}
