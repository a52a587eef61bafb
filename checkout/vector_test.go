package checkout_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
)

func TestVector_SmallSpacesScanExactlyLargeOnesArePromotedToHNSW(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	var events []eventloom.NewEvent
	for i := 0; i < 40; i++ {
		events = append(events, msg("s", "user", fmt.Sprintf("note %d about the %s service and its %s", i,
			[]string{"billing", "search", "deploy", "auth"}[i%4], []string{"latency", "owner", "schema", "budget", "alerts"}[i%5])))
	}
	f.append(t, "big", events...)
	f.append(t, "small", events[:5]...)
	_, err := f.proj.ProjectSpace(ctx, "big")
	require.NoError(t, err)
	_, err = f.proj.ProjectSpace(ctx, "small")
	require.NoError(t, err)
	emb := projection.NewEmbedder(f.pool, embedding.NewOffline(), 16)
	emb.SetHNSWThreshold(20)
	for _, space := range []string{"big", "small"} {
		_, err := emb.EmbedSpace(ctx, space)
		require.NoError(t, err)
	}
	count := func(q string, args ...any) int {
		var n int
		require.NoError(t, f.pool.QueryRow(ctx, q, args...).Scan(&n))
		return n
	}
	require.Equal(t, 40, count(`SELECT count(*) FROM embeddings WHERE space_id = 'big' AND indexed`))
	require.Zero(t, count(`SELECT count(*) FROM embeddings WHERE space_id = 'small' AND indexed`))
	require.Equal(t, 1, count(`SELECT count(*) FROM vector_spaces`))

	off := embedding.NewOffline()
	q, err := off.Embed(ctx, []string{"who owns the deploy service?"})
	require.NoError(t, err)
	p := checkout.VectorParams{SpaceID: "big", Model: off.Model(), Dimensions: off.Dimensions(), Vector: q[0], K: 5}
	viaIndex, err := checkout.Vector(ctx, f.pool, p)
	require.NoError(t, err)
	p.Exact = true
	exact, err := checkout.Vector(ctx, f.pool, p)
	require.NoError(t, err)
	require.Len(t, viaIndex, 5)
	require.Equal(t, exact[0].ItemID, viaIndex[0].ItemID)

	// A row that missed promotion (inserted concurrently) is still found, by the exact merge.
	_, err = f.pool.Exec(ctx, `UPDATE embeddings SET indexed = false WHERE space_id = 'big' AND item_id = $1`, exact[0].ItemID)
	require.NoError(t, err)
	viaIndex, err = checkout.Vector(ctx, f.pool, checkout.VectorParams{SpaceID: "big", Model: off.Model(), Dimensions: off.Dimensions(), Vector: q[0], K: 5})
	require.NoError(t, err)
	require.Equal(t, exact[0].ItemID, viaIndex[0].ItemID)
}

func TestVector_AsOfKeepsLaterItemsOut(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	at := func(s string) *time.Time {
		v, err := time.Parse(time.RFC3339, s)
		require.NoError(t, err)
		return &v
	}
	var events []eventloom.NewEvent
	for i := 0; i < 30; i++ {
		// The first 10 in 2024, the rest in 2025: the later ones are the closer matches.
		when, words := "2024-01-01T00:00:00Z", "the deploy key"
		if i >= 10 {
			when, words = "2025-01-01T00:00:00Z", "the deploy key rotation schedule for the deploy key"
		}
		e := msg("s", "user", fmt.Sprintf("note %d: %s", i, words))
		e.OccurredAt = at(when)
		events = append(events, e)
	}
	for _, space := range []string{"exact", "indexed"} {
		f.append(t, space, events...)
		_, err := f.proj.ProjectSpace(ctx, space)
		require.NoError(t, err)
	}
	emb := projection.NewEmbedder(f.pool, embedding.NewOffline(), 16)
	_, err := emb.EmbedSpace(ctx, "exact")
	require.NoError(t, err)
	emb.SetHNSWThreshold(20)
	_, err = emb.EmbedSpace(ctx, "indexed")
	require.NoError(t, err)

	off := embedding.NewOffline()
	q, err := off.Embed(ctx, []string{"deploy key rotation schedule"})
	require.NoError(t, err)
	for _, space := range []string{"exact", "indexed"} {
		p := checkout.VectorParams{SpaceID: space, Model: off.Model(), Dimensions: off.Dimensions(), Vector: q[0], K: 5}
		now, err := checkout.Vector(ctx, f.pool, p)
		require.NoError(t, err)
		require.Len(t, now, 5)
		p.AsOf = at("2024-06-01T00:00:00Z")
		then, err := checkout.Vector(ctx, f.pool, p)
		require.NoError(t, err)
		require.Len(t, then, 5, space)
		for _, h := range then {
			var occurred time.Time
			require.NoError(t, f.pool.QueryRow(ctx, `SELECT occurred_at FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND item_id = $2`, space, h.ItemID).Scan(&occurred))
			require.True(t, occurred.Before(*p.AsOf), "%s: %s occurred %s, after as_of", space, h.ItemID, occurred)
		}
		require.NotEqual(t, now[0].ItemID, then[0].ItemID, space)
	}

	// Through checkout: the vector lane alone, as of mid-2024, finds only 2024's notes.
	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "indexed", Query: "deploy key rotation schedule", AsOf: at("2024-06-01T00:00:00Z"),
		DisableLanes: []string{"exact", "keyword", "graph", "verbatim", "recent"}})
	require.NoError(t, err)
	require.NotEmpty(t, res.Items)
	for _, it := range res.Items {
		require.True(t, it.OccurredAt.Before(*at("2024-06-01T00:00:00Z")), "%s occurred %s", it.ItemID, it.OccurredAt)
	}
}

// The rows an HNSW walk finds are ranked as the exact path ranks them: by the distance of the
// stored vector to the full-precision query. In half precision the query [1, 1.0004] is
// [1, 1], equally near [1, 0] and [0, 1], so that order fell to the item ids; at full precision
// "b" is nearer, with the exact path's distance.
func TestVector_HNSWRowsRankAsTheExactPath(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	const model = "test-tie@1"
	_, err := f.pool.Exec(ctx, `SELECT zaxy_ensure_vector_index($1, 2)`, model)
	require.NoError(t, err)
	_, err = f.pool.Exec(ctx, `INSERT INTO embeddings (space_id, item_id, model, dim, embedding, text_hash, indexed)
		VALUES ('big', 'a', $1, 2, '[1,0]', '\x00', true), ('big', 'b', $1, 2, '[0,1]', '\x00', true)`, model)
	require.NoError(t, err)
	_, err = f.pool.Exec(ctx, `INSERT INTO vector_spaces (space_id, model) VALUES ('big', $1)`, model)
	require.NoError(t, err)
	p := checkout.VectorParams{SpaceID: "big", Model: model, Dimensions: 2, Vector: []float32{1, 1.0004}, K: 2}
	viaIndex, err := checkout.Vector(ctx, f.pool, p)
	require.NoError(t, err)
	p.Exact = true
	exact, err := checkout.Vector(ctx, f.pool, p)
	require.NoError(t, err)
	require.Equal(t, []string{"b", "a"}, []string{exact[0].ItemID, exact[1].ItemID})
	require.Equal(t, exact, viaIndex)
}

// The vector lane's default hnsw.ef_search is the point of the measured recall/latency curve
// (DefaultEfSearch's comment, docs/benchmarks.md), and a configured value is kept.
func TestNew_EfSearchDefaultsToTheMeasuredPoint(t *testing.T) {
	require.Equal(t, 40, checkout.DefaultEfSearch)
	require.Equal(t, checkout.DefaultEfSearch, checkout.New(nil, nil, checkout.Config{}).EfSearch())
	require.Equal(t, 200, checkout.New(nil, nil, checkout.Config{EfSearch: 200}).EfSearch())
}
