package retrospective_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/zaxy/zaxy/retrospective"
	"github.com/zaxy/zaxy/vocab"
)

// FuzzActionRecord: a memory_action.surfaced record comes from any client that can append.
// Whatever the log accepts decodes, and the pass judges a session holding it without failing,
// naming in its verdict only artifacts the record listed and citing only events of the trace
// or the outcome, and revising only those artifacts.
func FuzzActionRecord(f *testing.F) {
	for _, seed := range []string{
		`{"action":"retrieve_failure_prior","tools":["migrate"],"artifacts":[{"artifact_id":"f1","artifact_type":"failure","tools":["migrate"],"confidence":0.8,"seqs":[1]}]}`,
		`{"action":"retrieve_procedure_prior","artifacts":[{"artifact_id":"p1","artifact_type":"procedure","tools":["build","migrate"]}]}`,
		`{"action":"simulate_forward","tools":["MIGRATE "],"artifacts":[]}`,
		`{"action":"simulate_forward","artifacts":[{"artifact_id":"p","artifact_type":"procedure","tools":[]}],"cited_seqs":[3]}`,
		`{"action":"reflect_backward","artifacts":[{"artifact_id":"x","artifact_type":"causal","tools":["","migrate"],"seqs":[9999999999]}]}`,
		`{"action":"query_causal_neighborhood","artifacts":null}`,
	} {
		f.Add(seed, "migrate", true)
	}
	f.Fuzz(func(t *testing.T, data, tool string, fail bool) {
		if vocab.Validate(vocab.TypeMemoryActionSurfaced, "", json.RawMessage(data)) != nil {
			return
		}
		rec, err := vocab.Decode[vocab.MemoryActionSurfaced](json.RawMessage(data))
		if err != nil {
			t.Fatalf("accepted but does not decode: %v", err)
		}
		outcome := "success"
		if fail {
			outcome = "failure"
		}
		callData, _ := json.Marshal(map[string]string{"tool": tool, "outcome": outcome, "error": "x"})
		tr := trace(`{"session_id":"s","summary":"x","evidence":[1,2]}`,
			[2]string{vocab.TypeMemoryActionSurfaced, data},
			[2]string{vocab.TypeToolCallCompleted, string(callData)})
		att := retrospective.Attribute(tr)
		var listed []string
		for _, a := range rec.Artifacts {
			listed = append(listed, a.ArtifactID)
		}
		for _, j := range att.Actions {
			for _, id := range j.ArtifactIDs {
				if !slices.Contains(listed, id) {
					t.Fatalf("verdict names %q, not in the record", id)
				}
			}
			for _, s := range j.Cites {
				if s < 1 || s > tr.Outcome.Seq {
					t.Fatalf("verdict cites %d, outside the trace", s)
				}
			}
		}
		for _, r := range att.Revisions() {
			if !slices.Contains(listed, r.ArtifactID) {
				t.Fatalf("revises %q, not in the record", r.ArtifactID)
			}
			if c := r.Apply(0.5); c < 0 || c > 1 {
				t.Fatalf("revised confidence %v out of range", c)
			}
		}
	})
}
