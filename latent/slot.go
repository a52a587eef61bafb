package latent

import (
	"fmt"
	"strconv"
	"strings"
)

// Slots name what an artifact is a version of (latent_artifacts.slot), and every slot names
// exactly one thing however its session, holder, topic or tool is spelled:
//
//   - a session's episodes are episode:<session>#<n> and its causal links
//     causal:<session>:<decision seq>: the session is everything between the kind and the last
//     '#' or ':', which only digits follow (sessionOfSlot);
//   - a preference is preference:<holder>/<topic> and a procedure procedure:<step> → <step>,
//     each part Go-quoted when it holds its separator, a quote or a backslash (slotPart);
//   - a failure pattern is failure:<tool>:<hash of tool and error>, unique by its hash, an
//     outcome's causal link causal-outcome:<outcome seq>:<cause seq>, and a decision subject's
//     causal-subject:<decision seq>:<failure seq>.

// episodeSlot is the slot of a session's segment-th episode.
func episodeSlot(session string, segment int) string {
	return fmt.Sprintf("episode:%s#%d", session, segment)
}

// causalSlot is the slot of the causal link a session's decision at seq starts.
func causalSlot(session string, seq int64) string {
	return fmt.Sprintf("causal:%s:%d", session, seq)
}

// sessionSlotKinds are the slots of a session's artifacts: their prefix and the separator
// before the number that ends them.
var sessionSlotKinds = []struct {
	prefix string
	sep    byte
}{{"episode:", '#'}, {"causal:", ':'}}

// sessionOfSlot returns the session an episode or causal link slot belongs to, and false for
// any other slot. A build derives a session again by the prefixes episode:<session># and
// causal:<session>: (LIKE), which other sessions' slots can share (session "a" and "a:b"); it
// replaces only the slots whose session this returns.
func sessionOfSlot(slot string) (string, bool) {
	for _, k := range sessionSlotKinds {
		if !strings.HasPrefix(slot, k.prefix) {
			continue
		}
		i := strings.LastIndexByte(slot, k.sep)
		if i < len(k.prefix) || !allDigits(slot[i+1:]) {
			return "", false
		}
		return slot[len(k.prefix):i], true
	}
	return "", false
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// slotPart is s as one part of a slot whose parts sep separates: itself, or Go-quoted
// (strconv.Quote) when it is empty or holds sep, a quote or a backslash. An unquoted part then
// holds no separator and a quoted one ends at its first unescaped quote, so the parts of a slot
// read back one way only: holder "ana/editor" on topic "theme" and holder "ana" on topic
// "editor/theme" are two preferences.
func slotPart(s, sep string) string {
	if s == "" || strings.Contains(s, sep) || strings.ContainsAny(s, `"\`) {
		return strconv.Quote(s)
	}
	return s
}

// slotSteps is a sequence of tool names as one part of a slot: each a slotPart, joined by " → ".
func slotSteps(steps []string) string {
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = slotPart(s, "→")
	}
	return strings.Join(parts, " → ")
}
