package vocab

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestShapes_EveryValidatedTypeHasItsStruct: the key-case check knows the struct of every type
// Validate checks (a type missing here would go unchecked).
func TestShapes_EveryValidatedTypeHasItsStruct(t *testing.T) {
	for typ := range validators {
		require.Contains(t, shapes, typ)
	}
}

// TestValidate_RefusesAKeyInAnotherCase: encoding/json would read "Artifact" (or "ARTIFACT" after
// "artifact") into the field Postgres reads as data->'artifact'; Validate refuses such a key at
// any depth the type describes, naming it and the field meant. Other unknown keys stay allowed.
func TestValidate_RefusesAKeyInAnotherCase(t *testing.T) {
	id := strings.Repeat("a", 64)
	for _, tc := range []struct{ typ, data, field string }{
		{TypeMemoryConfidenceRevised, `{"artifact":{"key":"k","id":"i"},"ARTIFACT":{"key":"k","id":"` + id + `"},"confidence":0.5,"reason":"r"}`, "data.ARTIFACT"},
		{TypeMemoryConfidenceRevised, `{"artifact":{"key":"k","id":"i","ID":"j"},"confidence":0.5,"reason":"r"}`, "data.artifact.ID"},
		{TypeMemoryConfidenceRevised, `{"artifact":{"key":"k","id":"i"},"confidence":0.5,"Previous":0.9,"reason":"r"}`, "data.Previous"},
		{TypeFactAsserted, `{"subject":"a","predicate":"b","object":"c","Subject":"z"}`, "data.Subject"},
		{TypeMemoryActionSurfaced, `{"action":"retrieve_failure_prior","artifacts":[{"artifact_id":"` + id + `","type":"failure","Artifact_ID":"x"}]}`, "data.artifacts[0].Artifact_ID"},
		{TypeToolCallCompleted, `{"tool":"go vet","outcome":"success","Outcome":"failure"}`, "data.Outcome"},
		// The Kelvin sign folds to k in encoding/json as in strings.EqualFold.
		{TypeMemoryConfidenceRevised, `{"artifact":{"\u212aey":"k2","key":"k","id":"i"},"confidence":0.5,"reason":"r"}`, "data.artifact.\u212aey"},
	} {
		err := Validate(tc.typ, "", []byte(tc.data))
		require.Error(t, err, tc.data)
		var fe *FieldError
		require.ErrorAs(t, err, &fe, tc.data)
		require.Equal(t, tc.field, fe.Field, tc.data)
		require.Contains(t, err.Error(), "case-sensitive")
	}
	// Keys the type does not know at all are still allowed.
	require.NoError(t, Validate(TypeFactAsserted, "", []byte(`{"subject":"a","predicate":"b","object":"c","source":"wiki","x_extra":{"Y":1}}`)))
}
