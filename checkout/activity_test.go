package checkout

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestActivityRules: which questions gather what their asker has done, and which turns tell of
// something their speaker did.
func TestActivityRules(t *testing.T) {
	for q, want := range map[string]bool{
		"Which cities have I been to this year?":         true,
		"How much have I spent on the car so far?":       true,
		"List everything I've signed up for.":            true,
		"Where did I buy my bike?":                       true,
		"What has my cat eaten today?":                   true,
		"How many plants are there in total?":            true,
		"I've been sneezing lately, any idea why?":       false,
		"Can you recommend a film for tonight?":          false,
		"What did we decide about retries?":              false,
		"What did Maren paint last summer?":              false,
		"How do I get a stain out of a wool jumper?":     false,
		"Remind me what you said about the Lisbon trip.": false,
	} {
		require.Equal(t, want, asksActivity.MatchString(q), q)
	}
	for s, want := range map[string]bool{
		"I finally sold the old piano for $900.":                      true,
		"Can you proofread my CV? I just got back from Ghent.":        true,
		"Repainted the shed on Sunday. Why is the sky blue?":          true,
		"Just ordered a camp stove online.":                           true,
		"We took the dog in for its jabs, $85.":                       true,
		"I've booked the flights!":                                    true,
		"My sister told me about a piano for $900, sounded nice.":     false,
		"How can I keep up a language I learned at school?":           false,
		"Did you see the match?":                                      false,
		"I need to draft a note to my landlord.":                      false,
		"I'm interested in a pottery class.":                          false,
		"I usually run before work.":                                  false,
		"The weekend in Ghent was wonderful.":                         false,
		"Leaves are turning yellow, what's wrong? I water it weekly.": false,
	} {
		require.Equal(t, want, tellsActivity(s), s)
	}
}

// TestActivityPrior_OnlyTheAskersAccounts: the prior lifts a user's account of something done
// for a question that gathers what the user did, and nothing else: not the assistant's turns,
// not the user's other turns, not for another question, not under builtin-9.
func TestActivityPrior_OnlyTheAskersAccounts(t *testing.T) {
	p := BuiltinPolicy()
	gathers := &question{asksActivity: true}
	other := &question{}
	account := &rankedItem{Item: Item{Text: "Tax help first, please. I just got back from Kyoto."}, role: "user"}
	request := &rankedItem{Item: Item{Text: "How do I file my taxes?"}, role: "user"}
	said := &rankedItem{Item: Item{Text: "I finished the report and sent it over."}, role: "assistant"}
	require.Equal(t, 1.25, activityPrior(p, gathers, account))
	require.Equal(t, 1.0, activityPrior(p, gathers, request))
	require.Equal(t, 1.0, activityPrior(p, gathers, said))
	require.Equal(t, 1.0, activityPrior(p, other, account))
	require.Equal(t, 1.0, activityPrior(BuiltinPolicyOf("builtin-9"), gathers, account))
}

// BenchmarkActivity_200Items: what the activity rule costs a checkout whose question gathers
// what its asker did, over 200 user turns of about 1,500 characters that tell of nothing done
// (the rule reads every sentence of each).
func BenchmarkActivity_200Items(b *testing.B) {
	text := strings.Repeat("Can you help me plan a small birthday party for my cousin, with games that let people mingle? ", 16)
	for b.Loop() {
		n := 0
		for range 200 {
			if tellsActivity(text) {
				n++
			}
		}
		_ = n
	}
}
