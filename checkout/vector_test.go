package checkout_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embed"
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
	emb := projection.NewEmbedder(f.pool, embed.NewOffline(), 16)
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

	off := embed.NewOffline()
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
