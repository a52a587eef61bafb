package projection

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestValueSignature_AdversarialPairs: pairs an embedding puts next to each other but that
// state another value differ in their value signature, so the gate never merges them; the
// same values said in another order or with other function words do not.
func TestValueSignature_AdversarialPairs(t *testing.T) {
	differ := [][2]string{
		{"I have 2 cats.", "I have 3 cats."},
		{"I have two cats.", "I have three cats."},
		{"I paid 40 dollars for it.", "I paid 40 euros for it."},
		{"I paid $40 for it.", "I paid $400 for it."},
		{"We met at 9:30.", "We met at 10:30."},
		{"The meeting is at 7 am.", "The meeting is at 7 pm."},
		{"It ran for 5 minutes.", "It ran for 5 hours."},
		{"We met on Monday.", "We met on Tuesday."},
		{"We met yesterday.", "We meet tomorrow."},
		{"It is due next week.", "It is due this week."},
		{"I moved to Berlin.", "I moved to Munich."},
		{"Berlin is where I live.", "Munich is where I live."},
		{"I switched from Android to iPhone.", "I switched from iPhone to Android."},
		{"Read config/prod.yaml first.", "Read config/dev.yaml first."},
		{"Run go test ./projection now.", "Run go test ./checkout now."},
		{"Set ZAXY_GATE to on.", "Set ZAXY_TOKENIZER to on."},
		{"The tests pass.", "The tests do not pass."},
		{"I think it works.", "I don't think it works."},
		{"Use staging, not production.", "Use production, not staging."},
		{"Latency went up.", "Latency went down."},
		{"I love spicy food.", "I hate spicy food."},
		{"The migration succeeded.", "The migration failed."},
		{"Please enable the lane.", "Please disable the lane."},
		{"All tests pass.", "Some tests pass."},
		{"I only eat fish.", "I eat fish."},
		{"I always take the train.", "I sometimes take the train."},
		{"The build got faster.", "The build got slower."},
	}
	for _, p := range differ {
		require.False(t, valueSignature(p[0]).equal(valueSignature(p[1])), "%q and %q", p[0], p[1])
	}
	same := [][2]string{
		{"Last year I moved to Berlin.", "I moved to Berlin last year."},
		{"On Saturday my sister Anna visits.", "My sister Anna visits on Saturday."},
		{"Thai green curry is my favourite food.", "My favourite food is Thai green curry."},
		{"Please always run the linter.", "Always run the linter, please."},
		{"I have not started the report, due Friday.", "The report is due Friday and I have not started it."},
		{"I started a new job at Acme.", "I began a new job at Acme."},
		{"The latency went up after the deploy.", "After the deploy the latency increased."},
		{"I really enjoy hiking.", "I really love hiking."},
		{"I have two cats.", "I have 2 cats."},
	}
	for _, p := range same {
		require.True(t, valueSignature(p[0]).equal(valueSignature(p[1])), "%q and %q: %+v, %+v", p[0], p[1], valueSignature(p[0]), valueSignature(p[1]))
	}
}

// Case, punctuation and spacing never change a text's values, as they never change its words.
func TestValueSignature_PunctuationAndCaseNeverCount(t *testing.T) {
	for _, text := range []string{
		"Ask Priya before merging; the standup moved to 9:30 on Monday, see config/prod.yaml.",
		"I paid $40 for the tickets (not $45) and CollectRows failed in pgx.",
		"Last year I moved to Berlin. Anna's flat is on ZAXY_GATE street!",
	} {
		words := gateWords(text)
		require.True(t, valueSignature(text).equal(valueSignature(strings.Join(words, "  "))), text)
		require.True(t, valueSignature(strings.Join(words, "  ")).equal(valueSignature(text)), text)
	}
}
