package latent_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/projection"
)

// centroidRow is one row of the view latent_centroids.
type centroidRow struct {
	ArtifactID        string
	Model             string
	Centroid          pgvector.Vector
	Embedded, Sources int
}

func (b *testBundle) centroids(t *testing.T, space string) map[string]centroidRow {
	t.Helper()
	rows, err := b.db.Query(context.Background(), `SELECT artifact_id, model, centroid, embedded, sources
		FROM latent_centroids WHERE space_id = $1 AND artifact_type = 'episode'`, space)
	require.NoError(t, err)
	out := map[string]centroidRow{}
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (centroidRow, error) {
		var c centroidRow
		err := r.Scan(&c.ArtifactID, &c.Model, &c.Centroid, &c.Embedded, &c.Sources)
		return c, err
	})
	require.NoError(t, err)
	for _, c := range got {
		out[c.ArtifactID] = c
	}
	return out
}

// meanOfSources is the mean of the embeddings of the memory items drawn from seqs, computed here
// from the embeddings table.
func (b *testBundle) meanOfSources(t *testing.T, space string, seqs []int64) []float32 {
	t.Helper()
	rows, err := b.db.Query(context.Background(), `SELECT e.embedding::vector FROM embeddings e
		JOIN memory_items m ON m.space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND m.item_id = e.item_id
		WHERE e.space_id = $1 AND m.seq = ANY($2)`, space, seqs)
	require.NoError(t, err)
	vecs, err := pgx.CollectRows(rows, pgx.RowTo[pgvector.Vector])
	require.NoError(t, err)
	require.NotEmpty(t, vecs)
	sum := make([]float64, len(vecs[0].Slice()))
	for _, v := range vecs {
		for i, x := range v.Slice() {
			sum[i] += float64(x)
		}
	}
	out := make([]float32, len(sum))
	for i := range sum {
		out[i] = float32(sum[i] / float64(len(vecs)))
	}
	return out
}

// TestCentroids_AreTheMeanOfTheEpisodesEmbeddedSources: an episode's centroid is the mean of
// the embeddings of its cited events' items, complete once they are embedded; a new version of
// the episode whose new event is not embedded yet says so (embedded < sources); a stale
// episode has none; and a rebuild of the artifacts gives the same centroids.
func TestCentroids_AreTheMeanOfTheEpisodesEmbeddedSources(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "centroids"
	embedder := projection.NewEmbedder(b.db, embedding.NewOffline(), 0)
	b.AppendSeqs(t, space,
		b.Message("s1", "The nightly backup writes its archive to cold storage."),
		b.Message("s1", "Restores from cold storage take about four hours."),
		b.Message("s2", "The deploy pipeline pushes images to the registry."),
		b.Message("s2", "Registry pushes time out after thirty seconds."),
	)
	b.projectAndBuild(t, space)
	require.Empty(t, b.centroids(t, space), "nothing embedded, no centroid")
	_, err := embedder.EmbedSpace(ctx, space)
	require.NoError(t, err)
	episodes := b.artifacts(t, space, "artifact_type = 'episode' AND stale_at IS NULL")
	require.Len(t, episodes, 2)
	got := b.centroids(t, space)
	require.Len(t, got, 2)
	for _, ep := range episodes {
		c := got[ep.ID]
		require.Equal(t, embedding.NewOffline().Model(), c.Model)
		require.Equal(t, len(ep.Seqs), c.Sources)
		require.Equal(t, c.Sources, c.Embedded)
		require.InDeltaSlice(t, b.meanOfSources(t, space, ep.Seqs), c.Centroid.Slice(), 1e-5)
	}
	other := got[episodes[1].ID].Centroid.Slice()
	require.NotEqual(t, got[episodes[0].ID].Centroid.Slice(), other, "two sessions, two places")

	// A third turn in s1: a new version of its episode, not embedded yet.
	seqs := b.AppendSeqs(t, space, b.Message("s1", "Cold storage restores were tested last Friday."))
	b.projectAndBuild(t, space)
	current := b.artifacts(t, space, "artifact_type = 'episode' AND stale_at IS NULL")
	var s1 artifactRow
	for _, a := range current {
		if a.Slot == "episode:s1#1" {
			s1 = a
		}
	}
	require.Contains(t, s1.Seqs, seqs[0])
	partial := b.centroids(t, space)[s1.ID]
	require.Equal(t, 3, partial.Sources)
	require.Equal(t, 2, partial.Embedded, "the new turn has no embedding yet")
	_, err = embedder.EmbedSpace(ctx, space)
	require.NoError(t, err)
	full := b.centroids(t, space)[s1.ID]
	require.Equal(t, 3, full.Embedded)
	require.InDeltaSlice(t, b.meanOfSources(t, space, s1.Seqs), full.Centroid.Slice(), 1e-5)

	// An invalidated source makes its episode stale: it has no centroid; the new version has.
	b.AppendSeqs(t, space, b.Event("memory.invalidated", "s2", "", map[string]any{"target_seq": episodes[1].Seqs[0], "reason": "wrong registry"}))
	b.projectAndBuild(t, space)
	after := b.centroids(t, space)
	require.NotContains(t, after, episodes[1].ID, "a stale episode has no centroid")

	before := after
	_, err = b.builder.Rebuild(ctx, space)
	require.NoError(t, err)
	rebuilt := b.centroids(t, space)
	require.Equal(t, len(before), len(rebuilt))
	for id, c := range before {
		require.Contains(t, rebuilt, id, "a rebuild keeps the artifact ids")
		require.InDeltaSlice(t, c.Centroid.Slice(), rebuilt[id].Centroid.Slice(), 1e-6)
		require.Equal(t, c.Embedded, rebuilt[id].Embedded)
	}
}
