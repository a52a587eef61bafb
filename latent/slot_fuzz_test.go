package latent

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzSlots: a slot names one thing. For any two sessions (holders, topics, tools) a and b:
// each episode and causal link slot reads back to its own session and never to another (a
// build replaces only the slots of the sessions it derives, sessionOfSlot); two sessions never
// share a slot; a slot part reads back to what it encodes and an unquoted one holds no
// separator; and no other split of "a/b" into holder and topic, or of "a → b" into steps, makes
// the same slot. The seeds are the spellings that once collided.
func FuzzSlots(f *testing.F) {
	for _, seed := range [][2]string{
		{"a", "a:b"}, {"a", "a#2"}, {"x", "x#2#1"}, {"a", `"a"`}, {"a", "a "}, {"", `""`}, {"ana/editor", "ana"},
		{"lint → fix", "lint"}, {`a\`, `a\\`}, {"a:", "a"}, {"s1", "s10"}, {"%", "_"}, {"x\n", "x"}, {"7", ""},
	} {
		f.Add(seed[0], seed[1], uint8(2), int64(7))
	}
	f.Fuzz(func(t *testing.T, a, b string, segment uint8, seq int64) {
		k := int(segment) + 1
		seq = max(seq, 0)
		for _, s := range []string{a, b} {
			for _, slot := range []string{episodeSlot(s, k), causalSlot(s, seq)} {
				if got, ok := sessionOfSlot(slot); !ok || got != s {
					t.Fatalf("slot %q of session %q reads back as %q, %v", slot, s, got, ok)
				}
			}
			for _, sep := range []string{"/", "→"} {
				part := slotPart(s, sep)
				if strings.HasPrefix(part, `"`) {
					if back, err := strconv.Unquote(part); err != nil || back != s {
						t.Fatalf("slotPart(%q) = %s does not read back: %q, %v", s, part, back, err)
					}
				} else if part != s || strings.Contains(part, sep) || strings.ContainsAny(part, `"\`) {
					t.Fatalf("slotPart(%q, %q) = %q: an unquoted part is the text itself, without its separator", s, sep, part)
				}
			}
		}
		if a != b {
			for _, pair := range [][2]string{{episodeSlot(a, k), episodeSlot(b, 1)}, {episodeSlot(a, 1), episodeSlot(b, k)},
				{causalSlot(a, seq), causalSlot(b, seq)}, {causalSlot(a, 1), causalSlot(b, seq)}} {
				if pair[0] == pair[1] {
					t.Fatalf("sessions %q and %q share the slot %q", a, b, pair[0])
				}
			}
		}
		pref := func(h, tp string) string { return slotPart(h, "/") + "/" + slotPart(tp, "/") }
		joined := a + "/" + b
		for i := range len(joined) {
			if joined[i] == '/' && (joined[:i] != a || joined[i+1:] != b) && pref(joined[:i], joined[i+1:]) == pref(a, b) {
				t.Fatalf("preferences (%q, %q) and (%q, %q) share a slot", a, b, joined[:i], joined[i+1:])
			}
		}
		const arrow = " → "
		steps := a + arrow + b
		if slotSteps([]string{steps}) == slotSteps([]string{a, b}) {
			t.Fatalf("steps [%q] and [%q %q] share a slot", steps, a, b)
		}
		for i := 0; i+len(arrow) <= len(steps); i++ {
			h, tp := steps[:i], steps[i+len(arrow):]
			if steps[i:i+len(arrow)] == arrow && (h != a || tp != b) && slotSteps([]string{h, tp}) == slotSteps([]string{a, b}) {
				t.Fatalf("steps [%q %q] and [%q %q] share a slot", h, tp, a, b)
			}
		}
	})
}
