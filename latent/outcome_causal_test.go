package latent_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBuild_AnOutcomeCitingAnotherSessionsDecisionLinksThem: a failed outcome recorded in one
// session that cites a decision of another and a failed call of a third makes a causal link to
// each (citing both ends), never to a cited message nor for a successful outcome; invalidating
// the decision stales its link and leaves the other, and a rebuild from the log agrees.
func TestBuild_AnOutcomeCitingAnotherSessionsDecisionLinksThem(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "latent-outcome-causal"
	dec := b.AppendSeqs(t, space, b.Event("decision.recorded", "plan", "", map[string]string{"decision": "ship the importer without retries"}))[0]
	run := b.AppendSeqs(t, space,
		b.Message("run", "Running the nightly import."),
		b.Tool("run", "import", "failure", "timeout after 30s"))
	ok := b.AppendSeqs(t, space, b.Event("outcome.recorded", "eval", "", map[string]any{"session_id": "run", "status": "success",
		"summary": "the retry run worked", "evidence": []int64{dec}}))[0]
	out := b.AppendSeqs(t, space, b.Event("outcome.recorded", "eval", "", map[string]any{"session_id": "run", "status": "failure",
		"summary": "The nightly import lost a day of rows.", "evidence": []int64{run[0], dec, run[1], dec}}))[0]
	b.projectAndBuild(t, space)

	links := b.artifacts(t, space, "artifact_type = 'causal' AND stale_at IS NULL")
	require.Len(t, links, 2, "the decision and the failed call; not the message, not twice, not for the success")
	bySlot := map[string]artifactRow{}
	for _, l := range links {
		bySlot[l.Slot] = l
	}
	toDecision := bySlot[fmt.Sprintf("causal-outcome:%d:%d", out, dec)]
	require.Equal(t, []int64{dec, out}, toDecision.Seqs, "both ends are cited")
	require.Contains(t, toDecision.Summary, `decision "ship the importer without retries"`)
	require.Contains(t, toDecision.Summary, "The nightly import lost a day of rows.")
	toCall := bySlot[fmt.Sprintf("causal-outcome:%d:%d", out, run[1])]
	require.Equal(t, []int64{run[1], out}, toCall.Seqs)
	require.Contains(t, toCall.Summary, `import failing with "timeout after #s"`)
	var confidence float64
	var payload map[string]any
	require.NoError(t, b.db.QueryRow(ctx, `SELECT confidence, payload FROM latent_artifacts WHERE space_id = $1 AND artifact_id = $2`,
		space, toDecision.ID).Scan(&confidence, &payload))
	require.InDelta(t, 0.5, confidence, 1e-9)
	require.Equal(t, "plan", payload["cause_session"])
	require.Equal(t, "failure", payload["outcome"])
	require.EqualValues(t, out, payload["effect_seq"])
	for _, l := range links {
		require.NotContains(t, l.Seqs, ok, "a successful outcome links nothing")
	}

	b.AppendSeqs(t, space, b.Event("memory.invalidated", "plan", "", map[string]any{"target_seq": dec, "reason": "we never shipped that"}))
	b.projectAndBuild(t, space)
	stale := b.artifacts(t, space, "artifact_type = 'causal' AND stale_at IS NOT NULL")
	require.Len(t, stale, 1)
	require.Equal(t, toDecision.ID, stale[0].ID)
	current := b.artifacts(t, space, "artifact_type = 'causal' AND stale_at IS NULL")
	require.Len(t, current, 1)
	require.Equal(t, toCall.ID, current[0].ID)

	b.requireRebuildEqualsIncremental(t, space)
}

// TestBuild_AnOutcomeLinksOnlyItsOwnSpacesEvents: seqs are per space, so an outcome that cites
// seq numbers which are decisions in another space, and one past its own log, links nothing:
// its space's events at those seqs are no cause, and the other space gets no link either.
func TestBuild_AnOutcomeLinksOnlyItsOwnSpacesEvents(t *testing.T) {
	b := setup(t)
	const tenantA, tenantB = "latent-outcome-a", "latent-outcome-b"
	dec := b.AppendSeqs(t, tenantA,
		b.Event("decision.recorded", "plan", "", map[string]string{"decision": "rotate the signing keys"}),
		b.Event("decision.recorded", "plan", "", map[string]string{"decision": "drop the legacy endpoint"}))
	b.AppendSeqs(t, tenantB, b.Message("run", "Nothing was decided here."), b.Message("run", "Still nothing."))
	b.AppendSeqs(t, tenantB, b.Event("outcome.recorded", "eval", "", map[string]any{"session_id": "run", "status": "failure",
		"summary": "It broke.", "evidence": []int64{dec[0], dec[1], 999}}))
	b.projectAndBuild(t, tenantA)
	b.projectAndBuild(t, tenantB)
	require.Empty(t, b.artifacts(t, tenantB, "artifact_type = 'causal'"), "space B's events at those seqs are messages")
	require.Empty(t, b.artifacts(t, tenantA, "artifact_type = 'causal'"), "space A has no outcome")
}
