package checkout

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTasteAndResolutionRules: which questions ask for a taste or an outcome, and which turns
// state one.
func TestTasteAndResolutionRules(t *testing.T) {
	for q, want := range map[string]bool{
		"Can you recommend a book for my trip?":  true,
		"Any suggestions for dinner?":            true,
		"What should I cook tonight?":            true,
		"What would I enjoy doing this weekend?": true,
		"When did I buy the tent?":               false,
		"How many books have I read?":            false,
		"What did Maren paint last summer?":      false,
	} {
		require.Equal(t, want, seeksTaste.MatchString(q), q)
	}
	for s, want := range map[string]bool{
		"I really can't stand horror films.":       true,
		"My favourite is pho, always has been.":    true,
		"I've been really into bouldering lately.": true,
		"I usually run before work.":               true,
		"Not a fan of cruises.":                    true,
		"I bought a tent yesterday.":               false,
		"The weather was lovely in Lisbon.":        false,
	} {
		require.Equal(t, want, statesTaste.MatchString(s), s)
	}
	for q, want := range map[string]bool{
		"How did we fix the flaky test?":    true,
		"What did we decide about retries?": true,
		"Which library did we settle on?":   true,
		"What caused the crash?":            true,
		"Show me the upload worker's code.": false,
		"Who is on call for payments?":      false,
	} {
		require.Equal(t, want, asksResolution.MatchString(q), q)
	}
	for s, want := range map[string]bool{
		"The fix was to sort the keys first.":          true,
		"Decision: exponential backoff with jitter.":   true,
		"We'll use slog with the JSON handler.":        true,
		"It turned out the ticker was never stopped.":  true,
		"level=error msg=\"deliver failed\" attempt=3": false,
		"Here is the current code.":                    false,
	} {
		require.Equal(t, want, statesResolution.MatchString(s), s)
	}
}
