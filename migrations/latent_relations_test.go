package migrations_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// Migration 000061 derives the relations of the artifacts built before it (the same rows the
// build derives) and has every latent mirror written whole again, with the new edges; its down
// migration drops them, and up again derives them again.
func TestLatentRelationsMigration_DerivesExistingArtifactsRelationsBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	log := fixture.New(t, pool, projection.Config{})
	clock := fixture.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	builder, err := latent.NewBuilder(ctx, pool, log.Store, latent.Config{})
	require.NoError(t, err)
	const space = "relations-migration"
	for i := range 3 {
		s := fmt.Sprintf("s%d", i)
		log.AppendSeqs(t, space,
			clock.Event("decision.recorded", s, "", map[string]string{"decision": "enable go vet in CI"}),
			clock.Tool(s, "git pull", "success", ""), clock.Tool(s, "go vet", "success", ""),
			clock.Tool(s, "go vet", "failure", "vet: unreachable code"), clock.Tool(s, "gofmt", "success", ""),
			clock.Tool(s, "go vet", "success", ""))
	}
	log.Project(t, space)
	_, err = builder.Build(ctx, space)
	require.NoError(t, err)
	relations := func() string {
		t.Helper()
		var out string
		require.NoError(t, pool.QueryRow(ctx, `SELECT coalesce(string_agg(kind || ' ' || from_id || ' ' || to_id, E'\n'
			ORDER BY kind, from_id, to_id), '') FROM latent_relations WHERE space_id = $1`, space).Scan(&out))
		return out
	}
	built := relations()
	require.Contains(t, built, latent.RelExplains)
	require.Contains(t, built, latent.RelWarns)

	entitiesSpaceKeyDown(t, pool) // the mirror's functions of 000061 read entities by the text id
	_, err = pool.Exec(ctx, readMigration(t, "000061_latent_relations.down.sql"))
	require.NoError(t, err)
	var exists bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT to_regclass('latent_relations') IS NOT NULL`).Scan(&exists))
	require.False(t, exists)
	var g string
	require.NoError(t, pool.QueryRow(ctx, `SELECT graph_name FROM age_graphs WHERE space_id = $1`, space).Scan(&g))
	var left int
	require.NoError(t, pool.QueryRow(ctx, fmt.Sprintf(`SELECT count(*) FROM %s."EXPLAINS"`, pgx.Identifier{g}.Sanitize())).Scan(&left))
	require.Zero(t, left, "the relation labels lose their edges")
	_, err = pool.Exec(ctx, `SELECT zaxy_age_latent_sync($1)`, space)
	require.NoError(t, err, "the restored sync writes the mirror without the relation edges")

	_, err = pool.Exec(ctx, readMigration(t, "000061_latent_relations.up.sql"))
	require.NoError(t, err)
	entitiesSpaceKeyUp(t, pool)
	require.Equal(t, built, relations(), "the migration derives what the build derived")
	ids := []string{}
	rows, err := pool.Query(ctx, `SELECT artifact_id FROM latent_artifacts WHERE space_id = $1`, space)
	require.NoError(t, err)
	for rows.Next() {
		var id string
		require.NoError(t, rows.Scan(&id))
		ids = append(ids, id)
	}
	require.NoError(t, rows.Err())
	_, how, err := latent.Relations(ctx, pool, space, ids, true)
	require.NoError(t, err)
	require.Equal(t, latent.ReadTables, how, "the mirror is written again at the next build")
	_, err = pool.Exec(ctx, `SELECT zaxy_age_latent_sync($1)`, space)
	require.NoError(t, err)
	viaAGE, how, err := latent.Relations(ctx, pool, space, ids, true)
	require.NoError(t, err)
	require.Equal(t, latent.ReadAGE, how)
	tables, _, err := latent.Relations(ctx, pool, space, ids, false)
	require.NoError(t, err)
	require.Equal(t, tables, viaAGE)
}
