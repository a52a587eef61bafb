package projection_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/migrations"
	"github.com/zaxy/zaxy/projection"
)

// TestWeaveCitations_ProjectEachWovenArtifactOnceAndRebuildTheSame: a checkout.surfaced record's
// weave cites each artifact id it lists once (a duplicate once, a string not of an artifact id's
// form, a number and a weave that does not decode not at all, the record's reinforcements still
// projected); a rebuild from the log gives the same rows and checksum.
func TestWeaveCitations_ProjectEachWovenArtifactOnceAndRebuildTheSame(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, projection.Config{})
	const space = "woven"
	a, b := strings.Repeat("a", 64), strings.Repeat("b", 64)
	f.Append(t, space,
		ev("message", "The deploy failed on a registry timeout.", map[string]string{"role": "user"}),
		ev("checkout.surfaced", "", map[string]any{"items": []map[string]any{{"item_id": "ev:1"}},
			"weave": map[string]any{"artifact_ids": []any{a, b, a, "not-an-id", 7, strings.ToUpper(b)}}}),
		ev("checkout.surfaced", "", map[string]any{"items": []map[string]any{{"item_id": "ev:1"}},
			"weave": map[string]any{"artifact_ids": "oops"}}),
		ev("checkout.surfaced", "", map[string]any{"items": []map[string]any{}, "weave": map[string]any{"artifact_ids": []string{b}}}),
	)
	f.Project(t, space)
	cited := func() [][2]any {
		rows, err := f.DB.Query(ctx, `SELECT artifact_id, seq FROM latent_weave_citations WHERE space_id = $1 ORDER BY seq, artifact_id`, space)
		require.NoError(t, err)
		out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([2]any, error) {
			var id string
			var seq int64
			err := r.Scan(&id, &seq)
			return [2]any{id, seq}, err
		})
		require.NoError(t, err)
		return out
	}
	want := [][2]any{{a, int64(2)}, {b, int64(2)}, {b, int64(4)}}
	require.Equal(t, want, cited())
	var surfaced int
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT count(*) FROM reinforcements WHERE space_id = $1 AND item_id = 'ev:1'`, space).Scan(&surfaced))
	require.Equal(t, 2, surfaced, "a weave that does not decode leaves the record's reinforcements alone")

	incremental, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	_, err = f.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Equal(t, want, cited())
	rebuilt, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, rebuilt)

	// Migration 000039 filled the table from the log for what was already projected: the same
	// rows as the projector's.
	up, err := fs.ReadFile(migrations.FS, "000039_latent_weave_citations.up.sql")
	require.NoError(t, err)
	start := strings.Index(string(up), "INSERT INTO latent_weave_citations")
	end := strings.Index(string(up), "ON CONFLICT DO NOTHING;")
	require.True(t, start >= 0 && end > start)
	_, err = f.db.AdminPool(t).Exec(ctx, `DELETE FROM latent_weave_citations WHERE space_id = $1`, space)
	require.NoError(t, err)
	_, err = f.db.AdminPool(t).Exec(ctx, string(up[start:end])+"ON CONFLICT DO NOTHING")
	require.NoError(t, err)
	require.Equal(t, want, cited())
}
