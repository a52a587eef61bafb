package checkout

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// phraseRule is a case-insensitive phrase pattern over an item's text, matched cheaply: every
// match of re contains one of the cue words, so the text is searched for the cues first (a
// substring search), and re runs only on a short window around each cue found, widened to whole
// words so that re's \b sees what it would see in the whole text. A candidate's text is up to a
// few thousand characters and a checkout reads a couple of hundred; re over all of it cost tens
// of milliseconds (BenchmarkPriors_200Items).
type phraseRule struct {
	re   *regexp.Regexp
	cues []string
	// before and after are how far a match reaches before and after its cue, in bytes.
	before, after int
}

// match reports whether re matches text.
func (r *phraseRule) match(text string) bool {
	low := strings.ToLower(text)
	for _, cue := range r.cues {
		for off := 0; off < len(low); {
			k := strings.Index(low[off:], cue)
			if k < 0 {
				break
			}
			pos := off + k
			if r.re.MatchString(wordWindow(low, pos-r.before, pos+len(cue)+r.after)) {
				return true
			}
			off = pos + len(cue)
		}
	}
	return false
}

// wordWindow is s[from:to] clamped to s and widened to word boundaries on both sides.
func wordWindow(s string, from, to int) string {
	from, to = max(from, 0), min(to, len(s))
	for from > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:from])
		if !isWordRune(r) {
			break
		}
		from -= n
	}
	for to < len(s) {
		r, n := utf8.DecodeRuneInString(s[to:])
		if !isWordRune(r) {
			break
		}
		to += n
	}
	return s[from:to]
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
