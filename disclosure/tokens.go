package disclosure

import "unicode/utf8"

// Token budgets of the views.
const (
	// MinMaxTokens is the smallest max_tokens a view accepts.
	MinMaxTokens = 20
	// MaxMaxTokens is the largest max_tokens a view accepts.
	MaxMaxTokens = 20000
	// DefaultIndexTokens is the index's budget when none is given.
	DefaultIndexTokens = 100
	// DefaultTimelineTokens is the timeline's budget when none is given.
	DefaultTimelineTokens = 500
)

// EstimateTokens is Zaxy's deterministic token estimate of a rendered text: its length in
// Unicode characters divided by four, rounded up (ceil(characters/4)). It needs no tokenizer,
// so every view, checkout and any client compute the same number for the same text.
func EstimateTokens(s string) int {
	return (utf8.RuneCountInString(s) + 3) / 4
}
