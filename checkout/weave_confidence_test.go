package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/vocab"
)

// revise appends a memory.confidence_revised of artifact id for each of cs, in order, naming
// the artifact's slot as revise_confidence does.
func (f *fixture) revise(t *testing.T, space, id string, cs ...float64) {
	t.Helper()
	var slot string
	require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT slot FROM latent_artifacts WHERE space_id = $1 AND artifact_id = $2`,
		space, id).Scan(&slot))
	for _, c := range cs {
		data, err := json.Marshal(vocab.MemoryConfidenceRevised{Artifact: vocab.ArtifactRef{Key: slot, ID: id}, Confidence: c, Reason: "judged"})
		require.NoError(t, err)
		f.append(t, space, eventloom.NewEvent{Type: vocab.TypeMemoryConfidenceRevised, Data: data})
	}
}

// TestWeave_RanksAndShowsArtifactsByTheirLatestConfidenceRevision: the weave ranks, shows and
// warns by an artifact's latest confidence revision (revise_confidence, or the retrospective
// pass judging an outcome), as the prospective pass's priors do; produced_confidence keeps the
// producer's.
func TestWeave_RanksAndShowsArtifactsByTheirLatestConfidenceRevision(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	seedTraces(t, f, "w7")
	f.build(t, "w7")
	req := &checkout.Request{SpaceID: "w7", Query: "the billing migration failed with a lock timeout", ReasoningPhase: checkout.PhaseAct, NoRecord: true}
	// structured lists the woven artifacts other than episodes, in the weave's order.
	structured := func(w *checkout.Weave) []checkout.WeaveArtifact {
		var out []checkout.WeaveArtifact
		for _, a := range w.Inferred {
			if a.Type != "episode" {
				out = append(out, a)
			}
		}
		return out
	}
	lowConfidence := func(w *checkout.Weave, id string) bool {
		return slices.ContainsFunc(w.Warnings, func(x checkout.Warning) bool {
			return x.Code == checkout.WeaveWarnLowConfidence && x.ItemID == "artifact:"+id
		})
	}
	before, err := f.svc.Checkout(ctx, req)
	require.NoError(t, err)
	arts := structured(before.Weave)
	require.GreaterOrEqual(t, len(arts), 2)
	failure, causal := arts[0], arts[len(arts)-1]
	require.Equal(t, "failure", failure.Type)
	require.Equal(t, "causal", causal.Type)
	for _, a := range arts {
		require.Equal(t, a.ProducedConfidence, a.Confidence, "no revision yet")
	}
	require.True(t, lowConfidence(before.Weave, causal.ArtifactID))
	require.False(t, lowConfidence(before.Weave, failure.ArtifactID))

	revise := func(id string, cs ...float64) { f.revise(t, "w7", id, cs...) }
	revise(failure.ArtifactID, 0.9, 0.2) // the latest one counts
	revise(causal.ArtifactID, 0.95)
	after, err := f.svc.Checkout(ctx, req)
	require.NoError(t, err)
	arts = structured(after.Weave)
	require.Equal(t, "procedure", arts[0].Type, "the failure pattern blamed down falls behind the procedures it led")
	require.Equal(t, failure.ArtifactID, arts[len(arts)-2].ArtifactID)
	byID := map[string]checkout.WeaveArtifact{}
	for _, a := range arts {
		byID[a.ArtifactID] = a
	}
	require.InDelta(t, 0.95, byID[causal.ArtifactID].Confidence, 1e-9)
	require.InDelta(t, 0.2, byID[failure.ArtifactID].Confidence, 1e-9, "the latest revision, not the first")
	require.Equal(t, failure.ProducedConfidence, byID[failure.ArtifactID].ProducedConfidence, "the artifact row keeps the producer's")
	require.Contains(t, after.Weave.Text, "- causal (suggestive; confidence 0.95;")
	require.Contains(t, after.Weave.Text, "- failure (suggestive; confidence 0.20;")
	require.True(t, lowConfidence(after.Weave, failure.ArtifactID), "blamed below 0.5: a hypothesis now")
	require.False(t, lowConfidence(after.Weave, causal.ArtifactID))
}

// TestConfidenceRevision_CarriesOverToANewAddressOfTheSameSlotAndSources: a revision names the
// artifact's slot and the digest of its sources beside its id, so what was learned about it
// holds when the artifact is re-addressed with the same slot and sources (as a new producer
// version re-addresses every artifact), in the priors and in the weave; a revision of the slot
// with other sources (another version of it, other evidence) does not.
func TestConfidenceRevision_CarriesOverToANewAddressOfTheSameSlotAndSources(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "w8"
	seedTraces(t, f, space)
	f.build(t, space)
	req := &checkout.StepRequest{SpaceID: space, Goal: "build, test and lint the billing service, then run the schema migrate",
		ReasoningPhase: checkout.PhasePlan, NoRecord: true}
	before, err := f.svc.Prospective(ctx, req)
	require.NoError(t, err)
	require.NotEmpty(t, before.ProcedurePriors)
	old := before.ProcedurePriors[0]

	var slot string
	var seqs []int64
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT slot, source_seqs FROM latent_artifacts WHERE space_id = $1 AND artifact_id = $2`,
		space, old.ArtifactID).Scan(&slot, &seqs))
	revise := func(id, sources string, c float64) int64 {
		data, err := json.Marshal(vocab.MemoryConfidenceRevised{Artifact: vocab.ArtifactRef{Key: slot, ID: id, SourcesSHA256: sources},
			Confidence: c, Reason: "judged"})
		require.NoError(t, err)
		return f.append(t, space, eventloom.NewEvent{Type: vocab.TypeMemoryConfidenceRevised, Data: data})[0].Seq
	}
	revise(old.ArtifactID, vocab.SourcesDigest(seqs), 0.31)
	// A later revision, erased: the 0.31 holds again.
	erased := revise(old.ArtifactID, vocab.SourcesDigest(seqs), 0.05)
	_, err = erasure.New(f.pool, f.store, f.proj, nil).Erase(ctx, &eventloom.EraseParams{SpaceID: space, Seq: erased, Reason: "revised by mistake"})
	require.NoError(t, err)
	f.build(t, space) // the erasure rebuilt the projections; the workers derive the artifacts again
	// Another version of the slot, citing other events: its revision is not this one's.
	revise(strings.Repeat("0", 64), vocab.SourcesDigest(seqs[:len(seqs)-1]), 0.99)
	// Nor is a revision in another space naming this slot, these sources and even this id.
	forged, err := json.Marshal(vocab.MemoryConfidenceRevised{Artifact: vocab.ArtifactRef{Key: slot, ID: old.ArtifactID,
		SourcesSHA256: vocab.SourcesDigest(seqs)}, Confidence: 0.01, Reason: "forged"})
	require.NoError(t, err)
	// Its seq is past every seq of this space, so only the space keeps it out.
	var head int64
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT max(seq) FROM events WHERE space_id = $1`, space).Scan(&head))
	filler := make([]eventloom.NewEvent, head+1)
	for i := range filler {
		filler[i] = msg("s", "user", fmt.Sprintf("filler %d", i))
	}
	f.append(t, space+"-other", filler...)
	f.append(t, space+"-other", eventloom.NewEvent{Type: vocab.TypeMemoryConfidenceRevised, Data: forged})

	// Re-address the artifact as a new producer version would: same row, same slot and
	// sources, another id.
	newID := strings.Repeat("ab", 32)
	_, err = f.pool.Exec(ctx, `WITH old AS (DELETE FROM latent_artifacts WHERE space_id = $1 AND artifact_id = $2 RETURNING *)
		INSERT INTO latent_artifacts SELECT (jsonb_populate_record(NULL::latent_artifacts, to_jsonb(o) || jsonb_build_object('artifact_id', $3::text))).* FROM old o`,
		space, old.ArtifactID, newID)
	require.NoError(t, err)

	after, err := f.svc.Prospective(ctx, req)
	require.NoError(t, err)
	var got *checkout.Prior
	for i := range after.ProcedurePriors {
		if after.ProcedurePriors[i].ArtifactID == newID {
			got = &after.ProcedurePriors[i]
		}
	}
	require.NotNil(t, got, "the re-addressed procedure is still a prior")
	require.InDelta(t, 0.31, got.Confidence, 1e-9, "the revision of its old address holds, not the other version's")
	require.Equal(t, old.ProducedConfidence, got.ProducedConfidence)
	woven := false
	for _, a := range after.Weave.Inferred {
		if a.ArtifactID == newID {
			woven = true
			require.InDelta(t, 0.31, a.Confidence, 1e-9, "the weave reads the same revision")
		}
	}
	require.True(t, woven, "the procedure is woven: %s", after.Weave.Text)

	// The digest SQL computes is the one Go writes.
	var digest string
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT zaxy_artifact_sources_digest($1)`, seqs).Scan(&digest))
	require.Equal(t, vocab.SourcesDigest(seqs), digest)
}
