package latent

import (
	"strconv"
	"strings"
)

// slotSeparators are the characters the producers' slots put between their parts:
// episode:<session>#<segment>, causal:<session>:<seq>, preference:<holder>/<topic>,
// procedure:<step> → <step>, failure:<tool>:<hash>. A quote or backslash starts or escapes a
// quoted part.
const slotSeparators = `:#/→"\`

// slotPart is s as one part of a slot: itself when it holds no separator, no quote and no
// backslash and has no space at either end, else Go-quoted (strconv.Quote). An unquoted part
// never holds a separator and a quoted one ends at its first unescaped quote, so a slot names
// exactly one tuple of parts: two sessions (holders, topics, tools) never share a slot, and the
// slots of a session start with a prefix no other session's slots start with (build.go deletes
// a session's replaced artifacts by that prefix).
func slotPart(s string) string {
	if s == "" || strings.ContainsAny(s, slotSeparators) || strings.TrimSpace(s) != s {
		return strconv.Quote(s)
	}
	return s
}

// slotSteps is a sequence of tool names as one part of a slot: each a slotPart, joined by " → ".
func slotSteps(steps []string) string {
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = slotPart(s)
	}
	return strings.Join(parts, " → ")
}
