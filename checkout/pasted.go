package checkout

import (
	"regexp"
	"strings"
)

// A pasted item is a message that is mostly machine text: log lines, code, a stack trace. It
// shares a component's and an error's names with a question many times over, but it states
// no outcome: a fix or a decision is said in prose around it. pastedLine tells such a line by
// its form only (indentation, braces and semicolons, timestamps, key=value fields, stack
// frames), not by any word.

var (
	// timestampLine matches a date with a time, or a clock time with seconds.
	timestampLine = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}|\b\d{2}:\d{2}:\d{2}\b`)
	// keyValueField matches one key=value field of a structured log line.
	keyValueField = regexp.MustCompile(`\b[\w.]+=\S`)
	// stackFrame matches a stack trace's frame or header.
	stackFrame = regexp.MustCompile(`^(at |goroutine \d|panic:|Traceback|File "|Caused by:|Exception in )|\.(go|py|js|ts|java|rb|rs|c|cc|cpp):\d+|\+0x[0-9a-f]+`)
)

// pastedMinLines is the fewest non-empty lines a pasted item has: a one- or two-line message is
// prose whatever its form.
const pastedMinLines = 3

// isPasted reports whether at least half of text's non-empty lines, and at least
// pastedMinLines of them, are log, code or stack-trace lines.
func isPasted(text string) bool {
	lines, pasted := 0, 0
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		lines++
		if pastedLine(l) {
			pasted++
		}
	}
	return lines >= pastedMinLines && 2*pasted >= lines
}

// pastedLine reports whether one line has the form of a log line, a line of code or a stack frame.
func pastedLine(l string) bool {
	t := strings.TrimSpace(l)
	switch {
	case strings.HasPrefix(l, "\t"), strings.HasPrefix(l, "  "):
		return true
	case strings.HasPrefix(t, "//"), strings.HasPrefix(t, "#"), strings.HasPrefix(t, "$ "), strings.HasPrefix(t, "}"):
		return true
	case strings.HasSuffix(t, "{"), strings.HasSuffix(t, ";"):
		return true
	case timestampLine.MatchString(t), stackFrame.MatchString(t):
		return true
	}
	return len(keyValueField.FindAllStringIndex(t, 3)) >= 2
}
