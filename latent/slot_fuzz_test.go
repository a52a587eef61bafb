package latent

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzSlotPart: a slot names one tuple of parts. For any two sessions (holders, topics,
// tools) a and b: their parts differ when they do; a part reads back to what it encodes; an
// unquoted part holds no separator; and no slot of b starts with a prefix build.go deletes a's
// replaced artifacts by. The seeds are the spellings that once collided.
func FuzzSlotPart(f *testing.F) {
	for _, seed := range [][2]string{
		{"a", "a:b"}, {"a", "a#2"}, {"a", `"a"`}, {"a", "a "}, {"", `""`}, {"ana/editor", "ana"},
		{"lint → fix", "lint"}, {`a\`, `a\\`}, {"a:", "a"}, {"s1", "s10"}, {"%", "_"}, {"x\n", "x"},
	} {
		f.Add(seed[0], seed[1], uint8(2))
	}
	f.Fuzz(func(t *testing.T, a, b string, segment uint8) {
		pa, pb := slotPart(a), slotPart(b)
		for _, c := range [][2]string{{a, pa}, {b, pb}} {
			s, part := c[0], c[1]
			if strings.HasPrefix(part, `"`) {
				back, err := strconv.Unquote(part)
				if err != nil || back != s {
					t.Fatalf("slotPart(%q) = %s does not read back: %q, %v", s, part, back, err)
				}
			} else if part != s || strings.ContainsAny(part, slotSeparators) {
				t.Fatalf("slotPart(%q) = %q: an unquoted part must be the text itself, without separators", s, part)
			}
		}
		if a == b {
			return
		}
		if pa == pb {
			t.Fatalf("sessions %q and %q share the part %q", a, b, pa)
		}
		k := int(segment%8) + 1
		prefixes := []string{"causal:" + pa + ":", episodeSlot(a, 1) + "#"}
		for _, slot := range []string{"causal:" + pb + ":7", episodeSlot(b, 1), episodeSlot(b, k)} {
			for _, p := range prefixes {
				if strings.HasPrefix(slot, p) {
					t.Fatalf("slot %q of session %q starts with %q, a prefix of session %q", slot, b, p, a)
				}
			}
			if slot == episodeSlot(a, 1) {
				t.Fatalf("sessions %q and %q share the slot %q", a, b, slot)
			}
		}
		// Two holders' preferences never share a slot: every other split of "a/b" into holder
		// and topic is another slot. Nor do two step sequences: every other split of "a → b".
		pref := func(h, tp string) string { return slotPart(h) + "/" + slotPart(tp) }
		joined := a + "/" + b
		for i := range len(joined) {
			if joined[i] == '/' && (joined[:i] != a || joined[i+1:] != b) && pref(joined[:i], joined[i+1:]) == pref(a, b) {
				t.Fatalf("preferences (%q, %q) and (%q, %q) share a slot", a, b, joined[:i], joined[i+1:])
			}
		}
		steps := a + " → " + b
		if slotSteps([]string{steps}) == slotSteps([]string{a, b}) {
			t.Fatalf("steps [%q] and [%q %q] share a slot", steps, a, b)
		}
		for i := 0; i+len(" → ") <= len(steps); i++ {
			h, tp := steps[:i], steps[i+len(" → "):]
			if steps[i:i+len(" → ")] == " → " && (h != a || tp != b) && slotSteps([]string{h, tp}) == slotSteps([]string{a, b}) {
				t.Fatalf("steps [%q %q] and [%q %q] share a slot", h, tp, a, b)
			}
		}
	})
}
