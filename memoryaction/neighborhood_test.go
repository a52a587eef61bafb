package memoryaction_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// neighborhoodSeeded is seeded's three work sessions plus an outcome citing s2's decision (a
// second link with the same cause) and a withdrawn procedure.
func neighborhoodSeeded(t *testing.T, b *testBundle, space string) {
	t.Helper()
	for _, s := range []string{"s1", "s2", "s3"} {
		b.AppendSeqs(t, space, b.workSession(s)...)
	}
	var dec int64
	require.NoError(t, b.db.QueryRow(context.Background(), `SELECT seq FROM events WHERE space_id = $1 AND session_id = 's2'
		AND type = 'decision.recorded'`, space).Scan(&dec))
	b.AppendSeqs(t, space, b.Event("outcome.recorded", "eval", "", map[string]any{"session_id": "s2", "status": "failure",
		"summary": "CI broke.", "evidence": []int64{dec}}))
	b.projectAndBuild(t, space)
}

// both asks the same question with relations read through AGE and from the tables, and
// returns both answers.
func both(t *testing.T, a *memoryaction.Actions, p memoryaction.NeighborhoodParams) (viaAGE, tables *memoryaction.Neighborhood) {
	t.Helper()
	ctx := context.Background()
	p.Recording = memoryaction.Recording{NoRecord: true}
	viaAGE, err := a.CausalNeighborhood(ctx, p)
	require.NoError(t, err)
	tables, err = a.RelationsFromTables().CausalNeighborhood(ctx, p)
	require.NoError(t, err)
	require.Equal(t, latent.ReadTables, tables.ReadThrough)
	return viaAGE, tables
}

func TestCausalNeighborhood_ReadsItsRelationsThroughAGEAndTheTablesAlike(t *testing.T) {
	const space = "ma-relations"
	b := setup(t)
	neighborhoodSeeded(t, b, space)
	ctx := context.Background()
	questions := []memoryaction.NeighborhoodParams{
		{SpaceID: space, Entity: "go vet", Limit: 10},
		{SpaceID: space, Tool: "go vet"},
	}
	byTool, _ := both(t, b.actions, questions[0])
	require.Len(t, byTool.Links, 4, "one link per session and the outcome's")
	questions = append(questions, memoryaction.NeighborhoodParams{SpaceID: space, Seq: byTool.Links[0].Effect.Seq},
		memoryaction.NeighborhoodParams{SpaceID: space, Seq: byTool.Links[0].Cause.Seq})
	for _, q := range questions {
		viaAGE, tables := both(t, b.actions, q)
		require.Equal(t, latent.ReadAGE, viaAGE.ReadThrough, "AGE is installed and the mirror is current")
		viaAGE.ReadThrough = tables.ReadThrough
		require.Equal(t, tables, viaAGE, "the same neighbourhood both ways: %+v", q)
	}

	kinds := map[string]int{}
	for _, r := range byTool.Relations {
		kinds[r.Kind]++
	}
	for _, k := range []string{latent.RelDerivedFrom, latent.RelOccursIn, latent.RelExplains, latent.RelSharesCause, latent.RelWarns} {
		require.Positivef(t, kinds[k], "the links' %s relations", k)
	}
	types := map[string]bool{}
	for _, r := range byTool.Related {
		types[r.Type] = true
	}
	require.Equal(t, map[string]bool{latent.TypeEpisode: true, latent.TypeFailure: true, latent.TypeProcedure: true}, types,
		"the episodes the links occur in, the failure pattern they explain, the procedures they warn")

	// A related artifact withdrawn to confidence 0 leaves the answer with its relations.
	var proc string
	for _, r := range byTool.Related {
		if r.Type == latent.TypeProcedure {
			proc = r.ID
		}
	}
	_, err := b.actions.ReviseConfidence(ctx, memoryaction.ReviseParams{SpaceID: space, ArtifactID: proc, Confidence: 0, Reason: "wrong"})
	require.NoError(t, err)
	b.Project(t, space)
	viaAGE, tables := both(t, b.actions, questions[0])
	viaAGE.ReadThrough = tables.ReadThrough
	require.Equal(t, tables, viaAGE)
	for _, r := range viaAGE.Relations {
		require.NotEqual(t, proc, r.To)
	}
	for _, r := range viaAGE.Related {
		require.NotEqual(t, proc, r.ID)
	}
}

func TestCausalNeighborhood_FallsBackToTheTablesWithoutTheMirror(t *testing.T) {
	const space = "ma-relations-off"
	tx := testcontainers.TestTx(t)
	log := fixture.New(t, tx, projection.Config{})
	off, err := latent.NewBuilder(context.Background(), tx, log.Store, latent.Config{AGE: "off"})
	require.NoError(t, err)
	b := &testBundle{Log: log, Clock: fixture.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)), db: tx, builder: off, actions: memoryaction.New(tx, log.Store)}
	neighborhoodSeeded(t, b, space)
	viaAGE, tables := both(t, b.actions, memoryaction.NeighborhoodParams{SpaceID: space, Tool: "go vet", Limit: 10})
	require.Equal(t, latent.ReadTables, viaAGE.ReadThrough, "no mirror: the tables answer")
	require.Equal(t, tables, viaAGE)
	require.NotEmpty(t, tables.Relations)
}
