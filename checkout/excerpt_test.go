package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

// testLog is a long test run: it names the test in its first line, then pages of passing
// output, then the failure's explanation.
func testLog() string {
	var b strings.Builder
	b.WriteString("=== RUN   TestRefundIdempotency\n")
	for i := range 120 {
		fmt.Fprintf(&b, "    refund_test.go:%d: step %d ok (charge created, webhook delivered)\n", 10+i, i)
	}
	b.WriteString("    refund_test.go:412: second refund of the same charge was not idempotent: got 2 refunds, want 1 (the idempotency key was dropped by retryClient)\n")
	b.WriteString("--- FAIL: TestRefundIdempotency (3.21s)\nFAIL\nexit status 1\n")
	for i := range 40 {
		fmt.Fprintf(&b, "teardown %d\n", i)
	}
	return b.String()
}

// TestExcerpt_ALongToolOutputIsShownAroundWhatTheQuestionAsks: a tool call's long output was
// shown whole (documents and messages became excerpts, tool calls did not), so a 9,000-character
// log cost more than a 2,000-token packet and was left out of it. It is now an excerpt, and
// the window is the one holding the most of the question's words, not the first line that
// names one.
func TestExcerpt_ALongToolOutputIsShownAroundWhatTheQuestionAsks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	const space = "long-output"
	out := testLog()
	require.Greater(t, utf8.RuneCountInString(out), 8000)
	f.append(t, space,
		said("s1", "user", "Run the refund tests please.", 0),
		eventloom.NewEvent{Type: "tool_call.completed", SessionID: "s1", Content: out,
			Data: json.RawMessage(`{"tool":"bash","arguments":"go test ./refund/...","outcome":"failure","error":"exit status 1"}`)},
		said("s1", "assistant", "The refund tests failed; looking at it.", 2),
	)
	f.index(t, space)
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "Why was the second refund not idempotent in TestRefundIdempotency?", NoRecord: true})
	require.NoError(t, err)
	var found *checkout.Item
	for _, tier := range p.Tiers {
		for _, it := range tier.Items {
			if it.Kind == "tool_call.completed" {
				found = it
			}
		}
	}
	require.NotNil(t, found, "the log is in the packet: %s", p.Text)
	require.Contains(t, found.Text, "the idempotency key was dropped by retryClient", "the window holds the failure's explanation")
	require.Contains(t, found.Text, "— tool bash failure go test ./refund/... exit status 1")
	require.LessOrEqual(t, utf8.RuneCountInString(found.Text), 1300)
	c := found.Citations[0]
	require.NotNil(t, c.Start)
	require.NotNil(t, c.End)
	require.Equal(t, []rune(out)[*c.Start:*c.End], []rune(strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(found.Text, " — tool", 2)[0], "…"), "…")),
		"the citation's range is the excerpt")
}

// TestExcerptWindow_PrefersTheWindowWithTheMostWords: the window holding the most distinct query
// words wins over the first occurrence, then the one with most occurrences, then the earliest.
func TestExcerptWindow_PrefersTheWindowWithTheMostWords(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("x", 200)
	text := []rune("alpha " + pad + " alpha beta " + pad + " alpha beta gamma " + pad)
	start := checkout.ExcerptWindow(text, []string{"alpha", "beta", "gamma"}, 40)
	require.Contains(t, string(text[start:start+40]), "alpha beta gamma")
	// None occurs, or the text fits: the start.
	require.Zero(t, checkout.ExcerptWindow(text, []string{"delta"}, 40))
	require.Zero(t, checkout.ExcerptWindow([]rune("alpha beta"), []string{"beta"}, 40))
	// A word repeated more often than the occurrences read does not hide rarer ones after it.
	text = []rune(strings.Repeat("refund ok\n", 5000) + "second refund was not idempotent")
	start = checkout.ExcerptWindow(text, []string{"refund", "second", "idempotent"}, 200)
	require.Contains(t, string(text[start:start+200]), "second refund was not idempotent")
	// Upper case and letters that change length when lower-cased keep their offsets.
	text = []rune(strings.Repeat("İ", 100) + " GAMMA " + strings.Repeat("y", 100))
	start = checkout.ExcerptWindow(text, []string{"gamma"}, 20)
	require.Contains(t, string(text[start:start+20]), "GAMMA")
}

// FuzzExcerptWindow: any text and words give a window inside the text, showing an occurrence
// of a word when one occurs.
func FuzzExcerptWindow(f *testing.F) {
	f.Add("alpha beta gamma alpha", "beta", 5)
	f.Add(strings.Repeat("İı", 50)+"x", "i", 7)
	f.Add("\xff\xfe abc", "abc", 2)
	f.Add("", "", 0)
	f.Fuzz(func(t *testing.T, text, word string, width int) {
		if width < 1 || width > 10000 {
			return
		}
		runes := []rune(text)
		words := strings.Fields(strings.ToLower(word))
		start := checkout.ExcerptWindow(runes, words, width)
		if len(runes) <= width {
			require.Zero(t, start)
			return
		}
		require.GreaterOrEqual(t, start, 0)
		require.LessOrEqual(t, start+width, len(runes))
		// One short word that occurs is in the window.
		if len(words) == 1 && utf8.RuneCountInString(words[0]) <= width/2 {
			lower := make([]rune, len(runes))
			for i, r := range runes {
				lower[i] = unicode.ToLower(r)
			}
			if strings.Contains(string(lower), words[0]) {
				require.Contains(t, string(lower[start:start+width]), words[0])
			}
		}
	})
}

// BenchmarkExcerptWindow_1MB places a window in a megabyte of log whose every line holds a
// query word (the occurrences capped at Mechanism.MaxExcerptOccurrences).
func BenchmarkExcerptWindow_1MB(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString("    refund_test.go:12: step ok (charge created, webhook delivered)\n")
	}
	sb.WriteString("second refund was not idempotent\n")
	text := []rune(sb.String())
	words := []string{"refund", "second", "idempotent"}
	start := checkout.ExcerptWindow(text, words, 1200)
	if !strings.Contains(string(text[start:start+1200]), "second refund was not idempotent") {
		b.Fatal("the rare words after a megabyte of the common one are not in the window")
	}
	for b.Loop() {
		checkout.ExcerptWindow(text, words, 1200)
	}
}

// BenchmarkExcerptWindow_1MBLongQuery: the longest query (4,000 characters, hundreds of
// distinct words) against a megabyte of log.
func BenchmarkExcerptWindow_1MBLongQuery(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString("    refund_test.go:12: step ok (charge created, webhook delivered)\n")
	}
	text := []rune(sb.String())
	var words []string
	for i := 0; len(strings.Join(words, " ")) < 4000; i++ {
		words = append(words, fmt.Sprintf("word%d", i))
	}
	words = append(words, "refund", "step", "charge", "webhook")
	for b.Loop() {
		checkout.ExcerptWindow(text, words, 1200)
	}
}
