package checkout

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// excerptWindow returns where a window of width runes of text should start to show the most of
// words (lower-case query words, contentWords), placed by the first m.MaxExcerptWords of them
// and each one's first m.MaxExcerptOccurrences occurrences: it finds the most distinct words a window
// holds, then the shortest run of text holding that many (the earliest of equal ones), and
// starts a quarter of its width before that run, within the text; 0 when no word occurs or the
// text fits.
//
// A test run's log names the test in its first line and explains the failure pages later, so
// the window follows the words, not the first of them. The shortest run, not the window with the
// most occurrences: a word every line
// repeats ("refund_test.go") would pull the window to where it is densest and leave the
// explanation at its cut edge.
func excerptWindow(m *Mechanism, text []rune, words []string, width int) int {
	if len(text) <= width || len(words) == 0 {
		return 0
	}
	words = words[:min(len(words), m.MaxExcerptWords)]
	// One rune for one rune, so offsets in lower are offsets in text.
	lower := make([]rune, len(text))
	for i, r := range text {
		lower[i] = unicode.ToLower(r)
	}
	s := string(lower)
	type occurrence struct{ at, word int } // at: byte offset in s, then rune offset
	var occ []occurrence
	for w, word := range words {
		if word == "" {
			continue
		}
		for from, n := 0, 0; n < m.MaxExcerptOccurrences; n++ {
			i := strings.Index(s[from:], word)
			if i < 0 {
				break
			}
			occ = append(occ, occurrence{from + i, w})
			from += i + len(word)
		}
	}
	if len(occ) == 0 {
		return 0
	}
	slices.SortFunc(occ, func(a, b occurrence) int { return cmp.Compare(a.at, b.at) })
	// Byte offsets to rune offsets, in one pass.
	runes, b := 0, 0
	for i := range occ {
		runes += utf8.RuneCountInString(s[b:occ[i].at])
		b = occ[i].at
		occ[i].at = runes
	}
	// The most distinct words a window shows: slide over the occurrences, the window anchored at
	// occ[i] showing what lies within the three quarters of its width after it (less the
	// longest word, so the last one found is shown whole).
	longest := 0
	for _, w := range words {
		longest = max(longest, utf8.RuneCountInString(w))
	}
	reach := max(1, width-width/4-longest)
	counts := make([]int, len(words))
	distinct, most, j := 0, 0, 0
	for i := range occ {
		for j < len(occ) && occ[j].at < occ[i].at+reach {
			if counts[occ[j].word] == 0 {
				distinct++
			}
			counts[occ[j].word]++
			j++
		}
		most = max(most, distinct)
		if counts[occ[i].word]--; counts[occ[i].word] == 0 {
			distinct--
		}
	}
	// The shortest run of occurrences holding that many distinct words.
	clear(counts)
	distinct, first, span := 0, 0, -1
	i := 0
	for j := range occ {
		if counts[occ[j].word] == 0 {
			distinct++
		}
		counts[occ[j].word]++
		for distinct == most {
			if d := occ[j].at - occ[i].at; span < 0 || d < span {
				first, span = i, d
			}
			if counts[occ[i].word]--; counts[occ[i].word] == 0 {
				distinct--
			}
			i++
		}
	}
	return max(0, min(occ[first].at-width/4, len(text)-width))
}

// cutAround returns text cut to width runes around words (excerptWindow with m), with an ellipsis on
// each side where text was cut, and the range [start, end) it kept; text whole when it fits.
func cutAround(m *Mechanism, text []rune, words []string, width int) (out string, start, end int) {
	if len(text) <= width {
		return string(text), 0, len(text)
	}
	start = excerptWindow(m, text, words, width)
	end = start + width
	out = string(text[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out, start, end
}
