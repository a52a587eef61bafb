package checkout

import (
	"regexp"
	"strings"
	"time"
	"unicode"
)

// lineWhoWhen opens an event's line when a checkout asks for who_when (Request.WhoWhen): the
// UTC day the event happened and, for a message, who said it, its speaker (data.name, else
// the actor) or else its role: "2023-05-08 Caroline: ", "2026-03-02 user: "; the day alone
// for another event ("2026-03-02 " before a tool call's output). Lines are ranked, not in time
// order, and a text says neither who said it nor when ("Thanks! I painted it after my visit"),
// which a model answering from the packet needs. A name is whatever the appender wrote: it is
// shown as remembered text (remembered).
func lineWhoWhen(at time.Time, kind, speaker, role string) string {
	s := at.UTC().Format(time.DateOnly) + " "
	if kind != "message" {
		return s
	}
	if who := strings.TrimSpace(remembered(speaker)); who != "" {
		return s + who + ": "
	}
	if who := strings.TrimSpace(remembered(role)); who != "" {
		return s + who + ": "
	}
	return s
}

// flatLine is a text as one line of the packet's text: each line break of any kind (\n, \r,
// vertical tab, form feed, U+0085, U+2028, U+2029) a space, so a remembered text cannot start a
// line of its own ("\r## Stable facts") in the packet, and each invisible control (invisible)
// dropped; other characters are kept.
func flatLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case isLineBreak(r):
			return ' '
		case invisible(r):
			return -1
		}
		return r
	}, s)
}

func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
		return true
	}
	return false
}

// invisible reports whether r is a control a packet never shows: a bidirectional control
// (embeddings and overrides U+202A-U+202E, isolates U+2066-U+2069, the marks U+200E, U+200F
// and U+061C), which would make a line read in another order than it is written, or a
// zero-width character (U+200B-U+200D, U+2060, U+FEFF), which would split a word or a marker
// without a trace.
func invisible(r rune) bool {
	switch {
	case unicode.Is(unicode.Bidi_Control, r):
		return true
	case r >= '\u200b' && r <= '\u200d', r == '\u2060', r == '\ufeff':
		return true
	}
	return false
}

// Marker shapes a remembered text could imitate: an item or evidence marker ("[3]", "[W3]",
// also with spaces of any kind or a lowercase w inside), and a citation ("seq 2 #7ff7e891", in
// any case, Unicode's folding included ("ſeq"), and with spaces of any kind anywhere in it,
// "se q 2 #" too).
var (
	markerShape   = regexp.MustCompile(`\[[\s\p{Z}]*[Ww]?[\s\p{Z}]*[0-9][0-9\s\p{Z}]*\]`)
	citationShape = regexp.MustCompile(`(?i)s[\s\p{Z}]*e[\s\p{Z}]*q[\s\p{Z}]*[0-9][0-9\s\p{Z}]*#`)
)

// remembered is a remembered text (an event's content, a speaker's name, a reason, a summary,
// a tool's name or error) as the packet's text shows it, so that it reads as what was said and
// never as the packet's own structure: one line (flatLine, its invisible controls dropped
// first, so they cannot hide a shape), and each shape of the packet's markers written with
// fullwidth brackets or number sign instead ("[99]" as "［99］", "seq 2 #7ff7e891" as
// "seq 2 ＃7ff7e891"). Only the rendered text changes: items keep their text as remembered,
// and ranking and retrieval never see this.
func remembered(s string) string {
	s = flatLine(s)
	if strings.ContainsRune(s, '[') {
		s = markerShape.ReplaceAllStringFunc(s, func(m string) string {
			return "［" + m[1:len(m)-1] + "］"
		})
	}
	if strings.ContainsRune(s, '#') {
		s = citationShape.ReplaceAllStringFunc(s, func(m string) string {
			return m[:len(m)-1] + "＃"
		})
	}
	return s
}

// Remembered is a remembered text as a packet's text shows it (remembered): one line, with no
// shape of the packet's markers or citations. The session lifecycle renders its recovery
// packet's entries with it.
func Remembered(s string) string { return remembered(s) }
