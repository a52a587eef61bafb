package checkout

import "strings"

// A pasted item is a message that is mostly machine text: log lines, code, a stack trace. It
// shares a component's and an error's names with a question many times over, but it states
// no outcome: a fix or a decision is said in prose around it. pastedLine tells such a line by
// its form only (indentation, braces and semicolons, timestamps, key=value fields, stack
// frames), not by any word.

// stackPrefixes open a stack trace's frame or header line.
var stackPrefixes = []string{"at ", "goroutine ", "panic:", "Traceback", "File \"", "Caused by:", "Exception in "}

// sourceExts are the file extensions a stack frame's "file.ext:line" names.
var sourceExts = []string{".go", ".py", ".js", ".ts", ".java", ".rb", ".rs", ".c", ".cc", ".cpp"}

// pastedMinLines is the fewest non-empty lines a pasted item has: a one- or two-line message is
// prose whatever its form.
const pastedMinLines = 3

// isPasted reports whether at least half of text's non-empty lines, and at least
// pastedMinLines of them, are log, code or stack-trace lines.
func isPasted(text string) bool {
	if strings.Count(text, "\n") < pastedMinLines-1 {
		return false
	}
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
	}
	for _, p := range stackPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return hasTimestamp(t) || hasStackPosition(t) || keyValueFields(t) >= 2
}

// digits reports whether s[i:j] is in range and all ASCII digits.
func digits(s string, i, j int) bool {
	if i < 0 || j > len(s) {
		return false
	}
	for k := i; k < j; k++ {
		if s[k] < '0' || s[k] > '9' {
			return false
		}
	}
	return true
}

// hasTimestamp reports whether s holds a clock time with seconds (12:04:15) or a date with a
// time (2025-03-04 10:04, 2025-03-04T10:04).
func hasTimestamp(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':':
			if digits(s, i-2, i) && digits(s, i+1, i+3) && i+3 < len(s) && s[i+3] == ':' && digits(s, i+4, i+6) {
				return true
			}
		case '-':
			if digits(s, i-4, i) && digits(s, i+1, i+3) && i+3 < len(s) && s[i+3] == '-' && digits(s, i+4, i+6) &&
				i+6 < len(s) && (s[i+6] == ' ' || s[i+6] == 'T') && digits(s, i+7, i+9) && i+9 < len(s) && s[i+9] == ':' {
				return true
			}
		}
	}
	return false
}

// hasStackPosition reports whether s names a source position as a stack frame does
// (scheduler.go:88) or a frame's offset (+0x1d).
func hasStackPosition(s string) bool {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == ':' && digits(s, i+1, i+2):
			for _, ext := range sourceExts {
				if strings.HasSuffix(s[:i], ext) {
					return true
				}
			}
		case s[i] == '+' && strings.HasPrefix(s[i+1:], "0x") && i+3 < len(s) && isHex(s[i+3]):
			return true
		}
	}
	return false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }

// keyValueFields counts s's key=value fields, up to 2: an '=' after a word character or a dot
// and before a character that is not a space.
func keyValueFields(s string) int {
	n := 0
	for i := 1; i+1 < len(s) && n < 2; i++ {
		if s[i] == '=' && isKeyByte(s[i-1]) && s[i+1] != ' ' && s[i+1] != '\t' {
			n++
		}
	}
	return n
}

func isKeyByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
