package latent_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/latent"
)

func sampleArtifact() *latent.Artifact {
	from := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	return &latent.Artifact{
		Slot: "episode:s1", Type: latent.TypeEpisode, Summary: "The export is fixed. [7]",
		Sources:   []latent.SourceRef{{Seq: 3, Hash: "ab"}, {Seq: 7, Hash: "cd"}},
		ValidFrom: &from, Method: latent.MethodDeterministic, Confidence: 1,
		PurposeProfile: "recall", ReasoningPhase: "orient", Payload: json.RawMessage(`{"outcome": "success"}`),
	}
}

func TestArtifactAddress_IsStableAndAddressesContentOnly(t *testing.T) {
	a := sampleArtifact()
	id, err := a.Address("space-a")
	require.NoError(t, err)
	// The canonical encoding is part of the contract (docs/latent.md): this id must not change
	// unless ProjectionVersion does (it did, 1 -> 2 -> 3 -> 4 -> 5).
	require.Equal(t, "b4ffac7bcae493c60ba1c82ff19621c325d558fab63c8334df3083fac364c316", id)

	same := sampleArtifact()
	same.Payload = json.RawMessage(`{"outcome":"success"}`) // whitespace is not content
	same.Confidence, same.Diagnostics = 0.2, json.RawMessage(`{"x":1}`)
	later := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	same.ValidTo = &later // lifecycle, not content
	sameID, err := same.Address("space-a")
	require.NoError(t, err)
	require.Equal(t, id, sameID)

	for name, change := range map[string]func(*latent.Artifact){
		"summary":    func(a *latent.Artifact) { a.Summary += "!" },
		"sources":    func(a *latent.Artifact) { a.Sources = a.Sources[:1] },
		"payload":    func(a *latent.Artifact) { a.Payload = json.RawMessage(`{"outcome":"failure"}`) },
		"supersedes": func(a *latent.Artifact) { a.Supersedes = id },
		"valid_from": func(a *latent.Artifact) { t := a.ValidFrom.Add(time.Second); a.ValidFrom = &t },
	} {
		other := sampleArtifact()
		change(other)
		otherID, err := other.Address("space-a")
		require.NoError(t, err)
		require.NotEqual(t, id, otherID, name)
	}
	otherSpace, err := sampleArtifact().Address("space-b")
	require.NoError(t, err)
	require.NotEqual(t, id, otherSpace)
}

func TestToolsOf_ReadsAProceduresStepsAndAFailuresOrCausalLinksTool(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{"build", "test"}, latent.ToolsOf(latent.TypeProcedure, []byte(`{"steps":["build","test"],"tool":"x"}`)))
	require.Equal(t, []string{"migrate"}, latent.ToolsOf(latent.TypeFailure, []byte(`{"tool":"migrate","fix":["release"]}`)))
	require.Equal(t, []string{"deploy"}, latent.ToolsOf(latent.TypeCausal, []byte(`{"tool":"deploy","cause_seq":3}`)))
	require.Nil(t, latent.ToolsOf(latent.TypeEpisode, []byte(`{"tool":"deploy"}`)), "an episode is about no tool")
	require.Nil(t, latent.ToolsOf(latent.TypeFailure, []byte(`{"tool":""}`)))
	require.Nil(t, latent.ToolsOf(latent.TypeProcedure, []byte(`not json`)))
}
