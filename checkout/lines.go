package checkout

import (
	"strings"
	"time"
)

// lineWhoWhen opens an event's line when a checkout asks for who_when (Request.WhoWhen): the
// UTC day the event happened and, for a message, who said it, its speaker (data.name, else
// the actor) or else its role: "2023-05-08 Caroline: ", "2026-03-02 user: "; the day alone
// for another event ("2026-03-02 " before a tool call's output). Lines are ranked, not in time
// order, and a text says neither who said it nor when ("Thanks! I painted it after my visit"),
// which a model answering from the packet needs. A name is whatever the appender wrote: the
// line it opens is flattened whole (flatLine) by renderLine and evidenceLine.
func lineWhoWhen(at time.Time, kind, speaker, role string) string {
	s := at.UTC().Format(time.DateOnly) + " "
	if kind != "message" {
		return s
	}
	if who := strings.TrimSpace(speaker); who != "" {
		return s + who + ": "
	}
	if who := strings.TrimSpace(role); who != "" {
		return s + who + ": "
	}
	return s
}

// flatLine is a text as one line of the packet's text: each line break of any kind (\n, \r,
// vertical tab, form feed, U+0085, U+2028, U+2029) a space, so a remembered text cannot start a
// line of its own ("\r## Stable facts") in the packet; other characters are kept.
func flatLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
			return ' '
		}
		return r
	}, s)
}
