package checkout

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/zaxy/zaxy/validation"
)

// FuzzCuesValidate holds the cue check's contract on any request body: what it accepts has at
// most maxCueKeys keys, each matching the key pattern, each value 1-maxCueValueLen characters
// once trimmed; what it refuses is a *validation.Error naming cues or cues.<key> of a
// key the request holds. Cues reach SQL only as parameters; this keeps the shape promise the
// docs make (docs/api.md) from drifting.
func FuzzCuesValidate(f *testing.F) {
	for _, seed := range []string{
		`{"repo":"billing","phase":"debug"}`, `{}`, `{"Repo":"x"}`, `{"repo":""}`, `{"repo":"   "}`,
		`{"a":"` + strings.Repeat("é", 201) + `"}`, `{"_x":"y"}`, `{"r\u0000":"y"}`, `{"repo":"x' OR 1=1 --"}`,
		`{"k1":"v","k2":"v","k3":"v","k4":"v","k5":"v","k6":"v","k7":"v","k8":"v","k9":"v","k10":"v","k11":"v","k12":"v","k13":"v","k14":"v","k15":"v","k16":"v","k17":"v"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var c Cues
		if json.Unmarshal(body, &c) != nil {
			return
		}
		err := validateCues(c)
		if err == nil {
			if len(c) > maxCueKeys {
				t.Fatalf("accepted %d keys", len(c))
			}
			for k, v := range c {
				if !cueKeyPattern.MatchString(k) {
					t.Fatalf("accepted key %q", k)
				}
				if n := utf8.RuneCountInString(strings.TrimSpace(v)); n == 0 || n > maxCueValueLen {
					t.Fatalf("accepted value of %d characters under %q", n, k)
				}
			}
			return
		}
		var ve *validation.Error
		if !errors.As(err, &ve) {
			t.Fatalf("refusal is no ValidationError: %v", err)
		}
		if ve.Field != "cues" {
			key, ok := strings.CutPrefix(ve.Field, "cues.")
			if _, held := c[key]; !ok || !held {
				t.Fatalf("refusal names %q, not cues or one of the request's keys", ve.Field)
			}
		}
	})
}
