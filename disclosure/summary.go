package disclosure

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/vocab"
)

// Label names used in the views.
const (
	LabelInvalidated  = "invalidated"
	LabelSuperseded   = "superseded"
	LabelRetracted    = "retracted"
	LabelInferred     = "inferred"
	LabelNotProjected = "not_projected"
	// LabelConflicted marks a current fact contested by an open proposal (interference).
	LabelConflicted = "conflicted"
)

// Rendering limits.
const (
	// summaryRunes caps an event summary line.
	summaryRunes = 160
	// markerHashHex is how many hex digits of the hash a citation marker shows.
	markerHashHex = 12
)

// marker is the citation marker of an event in rendered text: #seq@<first 12 hex of the hash>.
func marker(seq int64, h eventloom.Hash) string {
	s := h.String()
	if len(s) > markerHashHex {
		s = s[:markerHashHex]
	}
	return "#" + strconv.FormatInt(seq, 10) + "@" + s
}

// renderLine is the line of an event in a listing: marker, time, summary and labels.
func renderLine(l *EventLine) string {
	var b strings.Builder
	b.WriteString(marker(l.Seq, l.Hash))
	b.WriteByte(' ')
	b.WriteString(renderTime(l.OccurredAt))
	b.WriteByte(' ')
	b.WriteString(l.Summary)
	writeLabels(&b, l.Labels)
	return b.String()
}

// renderTime is how timestamps appear in rendered text (UTC, minutes).
func renderTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") }

func writeLabels(b *strings.Builder, labels []string) {
	if len(labels) > 0 {
		b.WriteString(" [")
		b.WriteString(strings.Join(labels, ", "))
		b.WriteByte(']')
	}
}

// firstLine returns the first non-blank line of s, trimmed.
func firstLine(s string) string {
	for s != "" {
		line, rest, _ := strings.Cut(s, "\n")
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
		s = rest
	}
	return ""
}

// clip shortens s to at most n runes, marking a cut with "…", and collapses whitespace.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// summarize is the one-line gist of an event. data is read leniently: events appended before
// their type was validated still summarize, falling back to their text.
func summarize(typ, actor, content string, data []byte) string {
	var d map[string]json.RawMessage
	_ = json.Unmarshal(data, &d)
	str := func(k string) string {
		var s string
		if json.Unmarshal(d[k], &s) != nil {
			return ""
		}
		return strings.TrimSpace(s)
	}
	val := func(k string) string {
		raw, ok := d[k]
		if !ok || string(raw) == "null" {
			return ""
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		return string(raw)
	}
	text := firstLine(content)
	or := func(a, b string) string {
		if a != "" {
			return a
		}
		return b
	}
	join := func(head, tail string) string {
		if tail == "" {
			return head
		}
		return head + ": " + tail
	}
	var s string
	switch typ {
	case vocab.TypeMessage:
		s = or(or(str("name"), str("role")), or(actor, "message")) + ": " + text
	case vocab.TypeDecisionRecorded:
		head := "decision"
		if subj := str("subject"); subj != "" {
			head += " on " + subj
		}
		s = join(head, or(firstLine(str("decision")), text))
	case vocab.TypeTaskUpdated:
		s = join(strings.TrimSpace("task "+str("task_id")+" "+str("status")), or(firstLine(str("title")), text))
	case vocab.TypeToolCallCompleted:
		s = join(strings.TrimSpace("tool "+str("tool")+" "+str("outcome")), or(firstLine(str("error")), text))
	case vocab.TypeFactAsserted:
		s = "fact: " + strings.TrimSpace(str("subject")+" "+str("predicate")+" "+or(str("object"), val("value")))
		if str("subject") == "" {
			s = join("fact", text)
		}
	case vocab.TypeFactRetracted:
		s = "retracted: " + strings.TrimSpace(str("subject")+" "+str("predicate")+" "+or(str("object"), val("value")))
		if str("subject") == "" {
			s = join("retracted", text)
		}
	case vocab.TypeMemoryInvalidated:
		target := str("target_id")
		if t := val("target_seq"); t != "" {
			target = "#" + t
		}
		s = join(strings.TrimSpace("invalidated "+target), or(str("reason"), text))
	case vocab.TypePreferenceStated:
		holder := or(str("holder"), or(actor, "user"))
		s = join(holder+" prefers "+str("topic"), or(str("preference"), text))
	case vocab.TypeDocumentChunk:
		head := "document " + or(str("path"), str("document_id"))
		if i := val("chunk_index"); i != "" {
			head += " chunk " + i
		}
		s = join(strings.TrimSpace(head), text)
	case vocab.TypeFeedbackRecorded:
		var seqs []int64
		_ = json.Unmarshal(d["target_seqs"], &seqs)
		refs := make([]string, len(seqs))
		for i, q := range seqs {
			refs[i] = "#" + strconv.FormatInt(q, 10)
		}
		s = join(strings.TrimSpace(fmt.Sprintf("feedback %s on %s", str("signal"), strings.Join(refs, ","))), or(str("comment"), text))
	default:
		s = join(typ, text)
	}
	return clip(s, summaryRunes)
}

// valueText renders a fact's JSON value for reading: strings without quotes, anything else as
// JSON.
func valueText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}
