package latent_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/testcontainers"
)

// relationScenario appends, over several builds, a log whose artifacts hold every relation
// kind: three work sessions (a procedure, a failure pattern), a decision followed by a failure
// in s2 (a causal link occurring in s2's episodes, explaining the failure pattern, warning the
// procedure that runs go vet), an outcome citing the decision (a second link sharing its
// cause), a task ended mid-session (two episodes of s2, one following the other), a mention
// (an entity covered), a changed preference (supersedes, contradicts) and an invalidation.
func relationScenario(t *testing.T, b *testBundle, space string) {
	t.Helper()
	b.AppendSeqs(t, space, b.Message("s1", "Ask @maria about the Postgres upgrade plan."))
	b.AppendSeqs(t, space, b.workSession("s1")...)
	b.AppendSeqs(t, space, b.Event("preference.stated", "s1", "", map[string]string{"holder": "Ana", "topic": "editor", "preference": "vim"}))
	b.projectAndBuild(t, space)
	b.AppendSeqs(t, space, b.Message("s2", "Maria asked us to upgrade Postgres before the billing export."),
		b.Event("task.updated", "s2", "", map[string]string{"task_id": "upgrade", "status": "done"}))
	dec := b.AppendSeqs(t, space, b.Event("decision.recorded", "s2", "", map[string]string{"decision": "enable go vet in CI"}))
	b.AppendSeqs(t, space, b.workSession("s2")...)
	b.projectAndBuild(t, space)
	stale := b.AppendSeqs(t, space, b.Message("s3", "The staging database is called ledger-7."))
	b.AppendSeqs(t, space, b.workSession("s3")...)
	b.AppendSeqs(t, space, b.Event("preference.stated", "s3", "", map[string]string{"holder": "Ana", "topic": "editor", "preference": "helix"}),
		b.Event("outcome.recorded", "eval", "", map[string]any{"session_id": "s2", "status": "failure", "summary": "CI broke.", "evidence": dec}),
		b.Event("memory.invalidated", "s3", "", map[string]any{"target_seq": stale[0], "reason": "it is ledger-8"}))
	b.projectAndBuild(t, space)
	b.projectAndBuild(t, space) // the proposals' review status
}

// artifactIDs are every artifact of the space, stale ones included.
func artifactIDs(t *testing.T, db pgexec.Executor, space string) []string {
	t.Helper()
	rows, err := db.Query(context.Background(), `SELECT artifact_id FROM latent_artifacts WHERE space_id = $1 ORDER BY artifact_id`, space)
	require.NoError(t, err)
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		require.NoError(t, rows.Scan(&id))
		ids = append(ids, id)
	}
	require.NoError(t, rows.Err())
	return ids
}

func TestRelations_AGEAndTablesAgreeOnEveryKind(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	b := ageBundle(t, pool)
	const space = "latent-relations"
	relationScenario(t, b, space)

	agree := func(ids []string) []latent.Relation {
		t.Helper()
		viaAGE, how, err := latent.Relations(ctx, pool, space, ids, true)
		require.NoError(t, err)
		require.Equal(t, latent.ReadAGE, how)
		tables, how, err := latent.Relations(ctx, pool, space, ids, false)
		require.NoError(t, err)
		require.Equal(t, latent.ReadTables, how)
		require.Equal(t, tables, viaAGE, "the mirror and the tables give the same relations")
		return tables
	}
	ids := artifactIDs(t, pool, space)
	all := agree(ids)
	var kinds []string
	for _, r := range all {
		if !slices.Contains(kinds, r.Kind) {
			kinds = append(kinds, r.Kind)
		}
	}
	require.ElementsMatch(t, latent.RelationKinds, kinds, "the scenario holds every kind")
	var same bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT expected = actual FROM zaxy_age_mirror_digest($1)`, space).Scan(&same))
	require.True(t, same, "the doctor's mirror check leaves the relation labels out with the other latent labels")
	for _, id := range ids {
		agree([]string{id}) // each artifact's own neighbourhood, both ends
	}

	// The five derived kinds join the artifacts the scenario says they join.
	slotOf := map[string]string{}
	rows, err := pool.Query(ctx, `SELECT artifact_id, slot FROM latent_artifacts WHERE space_id = $1`, space)
	require.NoError(t, err)
	for rows.Next() {
		var id, slot string
		require.NoError(t, rows.Scan(&id, &slot))
		slotOf[id] = slot
	}
	require.NoError(t, rows.Err())
	has := func(kind, from, to string) bool {
		return slices.ContainsFunc(all, func(r latent.Relation) bool {
			return r.Kind == kind && strings.HasPrefix(slotOf[r.From], from) && strings.HasPrefix(slotOf[r.To], to)
		})
	}
	require.True(t, has(latent.RelOccursIn, "causal:s2:", "episode:s2#"))
	require.True(t, has(latent.RelFollows, "episode:s2#2", "episode:s2#1"))
	require.True(t, has(latent.RelExplains, "causal:s2:", "failure:go vet:"))
	require.True(t, has(latent.RelSharesCause, "causal:s2:", "causal-outcome:"))
	require.True(t, has(latent.RelSharesCause, "causal-outcome:", "causal:s2:"))
	require.True(t, has(latent.RelWarns, "causal:s2:", "procedure:"))
	require.False(t, has(latent.RelFollows, "episode:s1#", "episode:s2#"), "episodes follow within a session only")

	// Incremental builds and a rebuild reach the same relations (the checksum covers them),
	// and the mirror written again after the rebuild still agrees.
	b.requireRebuildEqualsIncremental(t, space)
	_, err = b.builder.Build(ctx, space)
	require.NoError(t, err)
	agree(artifactIDs(t, pool, space))
}

func TestRelations_FallBackToTheTablesWithoutAMirror(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	b := ageBundle(t, pool)
	off, err := latent.NewBuilder(ctx, pool, b.Store, latent.Config{AGE: "off"})
	require.NoError(t, err)
	b.builder = off
	const space = "latent-relations-off"
	relationScenario(t, b, space)
	ids := artifactIDs(t, pool, space)
	tables, _, err := latent.Relations(ctx, pool, space, ids, false)
	require.NoError(t, err)
	require.NotEmpty(t, tables)
	got, how, err := latent.Relations(ctx, pool, space, ids, true)
	require.NoError(t, err)
	require.Equal(t, latent.ReadTables, how, "never mirrored: the tables answer")
	require.Equal(t, tables, got)

	// Mirrored once, then built without the mirror: it is behind, and the tables answer.
	on, err := latent.NewBuilder(ctx, pool, b.Store, latent.Config{})
	require.NoError(t, err)
	b.AppendSeqs(t, space, b.Message("s4", "The runbook is in the wiki."), b.Message("s4", "Maria reviews it on Monday."))
	b.Project(t, space)
	_, err = on.Build(ctx, space)
	require.NoError(t, err)
	_, how, err = latent.Relations(ctx, pool, space, ids, true)
	require.NoError(t, err)
	require.Equal(t, latent.ReadAGE, how)
	b.AppendSeqs(t, space, b.Message("s5", "Ana moved the runbook."), b.Message("s5", "It is under ops now."))
	b.Project(t, space)
	_, err = off.Build(ctx, space)
	require.NoError(t, err)
	ids = artifactIDs(t, pool, space)
	tables, _, err = latent.Relations(ctx, pool, space, ids, false)
	require.NoError(t, err)
	got, how, err = latent.Relations(ctx, pool, space, ids, true)
	require.NoError(t, err)
	require.Equal(t, latent.ReadTables, how, "the mirror is behind its artifacts: the tables answer")
	require.Equal(t, tables, got)

	// Inside a caller's transaction, a refused read leaves the transaction usable.
	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	_, how, err = latent.Relations(ctx, tx, space, ids, true)
	require.NoError(t, err)
	require.Equal(t, latent.ReadTables, how)
	var one int
	require.NoError(t, tx.QueryRow(ctx, `SELECT 1`).Scan(&one))
}
