package projection

import (
	"encoding/json"
	"regexp"
	"slices"
	"testing"

	"github.com/zaxy/zaxy/eventloom"
)

// artifactIDForm is the oracle's own reading of an artifact id's form (latent_artifacts_id).
var artifactIDForm = regexp.MustCompile(`^[0-9a-f]{64}$`)

// FuzzWovenArtifacts: checkout.surfaced is not validated on append, so any JSON a client writes
// reaches wovenArtifacts. It never panics, and it keeps exactly the strings of an artifact id's
// form that data.weave.artifact_ids lists, each once, in their first order: nothing else
// becomes a citation, and no listed id is lost.
func FuzzWovenArtifacts(f *testing.F) {
	id := "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, seed := range []string{
		`{"items":[],"weave":{"artifact_ids":["` + id + `"]}}`,
		`{"weave":{"artifact_ids":["` + id + `","` + id + `","x",7,null,{"a":1}]}}`,
		`{"weave":{"artifact_ids":"` + id + `"}}`,
		`{"weave":null}`,
		`{"weave":[1,2]}`,
		`[]`,
		`{"Weave":{"Artifact_IDs":["` + id + `"]}}`,
		`{"weave":{"artifact_ids":["` + id[:63] + `","` + id + `0","` + "0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef" + `"]}}`,
		`{"weave":{"artifact_ids":["\u0030123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"]}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := wovenArtifacts(&eventloom.Event{Seq: 2, Type: surfacedType, Data: data})
		// What the record lists, read independently: the strings among weave.artifact_ids.
		var want []string
		var d map[string]any
		if json.Unmarshal(data, &d) == nil {
			if w, ok := d["weave"].(map[string]any); ok {
				if ids, ok := w["artifact_ids"].([]any); ok {
					for _, v := range ids {
						if s, ok := v.(string); ok && artifactIDForm.MatchString(s) && !slices.Contains(want, s) {
							want = append(want, s)
						}
					}
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("woven %q, want %q from %s", got, want, data)
		}
		for _, g := range got {
			if len(g) != 64 {
				t.Fatalf("kept %q, not an artifact id", g)
			}
		}
	})
}
