package checkout

import (
	"math/rand/v2"
	"strings"
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
		require.Equal(t, want, statesTaste.match(s), s)
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
		require.Equal(t, want, statesResolution.match(s), s)
	}
}

// BenchmarkPriors_200Items: what the taste and resolution rules cost a checkout whose question
// asks for both, over 200 candidates of about 1,500 characters (Go's regexp is linear in the text).
func BenchmarkPriors_200Items(b *testing.B) {
	text := strings.Repeat("level=info component=uploader msg=\"request handled\" duration_ms=12 attempt=1 trace=0a1b2c3d\n", 16)
	for b.Loop() {
		n := 0
		for range 200 {
			if statesTaste.match(text) || statesResolution.match(text) {
				n++
			}
		}
		_ = n
	}
}

// TestPhraseRules_AgreeWithTheirPatterns: matching around the cue words answers as the whole
// pattern over the whole text, on texts made of the patterns' words, near misses and noise.
func TestPhraseRules_AgreeWithTheirPatterns(t *testing.T) {
	words := strings.Fields(`i I i'm I’m am i've been have got gotten really absolutely so a big huge fan of not much the biggest
		love loved like liked dislike enjoy prefer adore hate hated detest loathe can't cant cannot can not don't do never stand eat watch
		my all-time favourite favorite go-to into obsessed with hooked on allergic to sick tired isn't is aren't are for me thing cup tea
		usually always tend often rarely avoid stick only fix fixed prefix fixes solved resolved root cause caused by decided decision
		agreed settled chose going go we'll we’ll use keep make switch standardise let's let’s switched replaced changed it problem was
		turned out level=info msg="ok" x_y 42 café über . , ; ! ? " ( )`)
	words = append(words, "\n", "\n\n", "  ")
	r := rand.New(rand.NewPCG(35, 8))
	for n := range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(40) {
			b.WriteString(words[r.IntN(len(words))])
			if r.IntN(5) > 0 {
				b.WriteByte(' ')
			}
		}
		text := b.String()
		for _, rule := range []*phraseRule{statesTaste, statesResolution} {
			require.Equal(t, rule.re.MatchString(text), rule.match(text), "text %d: %q", n, text)
		}
	}
}

// TestPriors_TypedEventsCount: a preference.stated event is a statement of taste and a
// decision.recorded event a statement of a decision by their type, whatever their text; a
// question asking for neither lifts nothing.
func TestPriors_TypedEventsCount(t *testing.T) {
	p := BuiltinPolicy()
	taste := &question{seeksTaste: true}
	outcome := &question{asksResolution: true}
	pref := &rankedItem{Item: Item{Text: "preference.stated {\"topic\":\"code examples\"}"}, boostKind: "preference.stated"}
	dec := &rankedItem{Item: Item{Text: "Use pgx v5 with pgxpool"}, boostKind: "decision.recorded"}
	require.Equal(t, p.TasteBoost, tastePrior(p, taste, pref))
	require.True(t, statesResolutionItem(dec))
	require.False(t, statesResolutionItem(pref))
	require.Equal(t, 1.0, tastePrior(p, outcome, pref))
	require.Equal(t, 1.0, tastePrior(BuiltinPolicyOf("builtin-7"), taste, pref))
}
