package vocab_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"testing"

	"github.com/zaxy/zaxy/vocab"
)

// FuzzPolicyVersion: a policy.promoted event is valid exactly when its version and previous
// are each a fitted version (fit- and 12 lowercase hex digits) or one of the built-in ones;
// no spelling of a version outside those gets through (an unknown built-in, padding, case,
// trailing bytes, control characters).
func FuzzPolicyVersion(f *testing.F) {
	for _, seed := range []string{"builtin-1", "builtin-2", "builtin-3", "builtin-4", "builtin-5", "builtin-6", "builtin-7", "builtin-8", "builtin-9", "builtin-10", "builtin-02", "BUILTIN-1", "builtin-1\n", " builtin-2",
		"fit-0123456789ab", "fit-0123456789AB", "fit-0123456789abc", "fit-", "", "builtin-", "builtin-1\x00"} {
		f.Add(seed)
	}
	fitted := regexp.MustCompile(`^fit-[0-9a-f]{12}$`)
	f.Fuzz(func(t *testing.T, v string) {
		for _, field := range []string{"version", "previous"} {
			other := "fit-0123456789ab"
			d := map[string]string{"version": other, "previous": "builtin-1"}
			d[field] = v
			raw, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			want := fitted.MatchString(v) || slices.Contains(vocab.BuiltinPolicyVersions, v)
			if got := vocab.Validate(vocab.TypePolicyPromoted, "", raw) == nil; got != want {
				t.Fatalf("%s %q: valid %v, want %v", field, v, got, want)
			}
		}
	})
}
