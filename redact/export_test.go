package redact

import "regexp"

// PatternBound is a pattern's expression and the length bound init computed for it.
type PatternBound struct {
	Kind   string
	Re     *regexp.Regexp
	MinLen int
}

// PatternBounds lists every pattern with its bound, for the tests that check the bound holds.
func PatternBounds() []PatternBound {
	out := make([]PatternBound, len(patterns))
	for i, p := range patterns {
		out[i] = PatternBound{Kind: p.kind, Re: p.re, MinLen: p.minLen}
	}
	return out
}
