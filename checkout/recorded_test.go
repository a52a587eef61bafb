package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/checkout/checkoutwire"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
)

// TestRecorded_ReRendersExactlyTheTextHandedOut: a checkout with facts, an excerpt of a long
// message, an invalidated event and who-and-when lines (and one with a weave, whose text
// before the weave is) is re-rendered from the log to exactly
// the text the caller received, its hash matching the recorded one.
func TestRecorded_ReRendersExactlyTheTextHandedOut(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "rec"
	seedSpace(t, f, space)
	r := f.append(t, space, msg("s2", "user", "The billing schema freeze starts on Monday."))
	f.append(t, space, eventloom.NewEvent{Type: "memory.invalidated", SessionID: "s2",
		Data: json.RawMessage(fmt.Sprintf(`{"target_seq": %d, "reason": "moved to [1] Tuesday #seq"}`, r[0].Seq))})
	f.index(t, space)
	woven := false
	for _, req := range []checkout.Request{
		{SpaceID: space, Query: "billing migration schema freeze", MaxTokens: 2000, SessionID: "s2", WhoWhen: true, IncludeAttenuated: true},
		{SpaceID: space, Query: "why did the deploy fail with a timeout?", MaxTokens: 300},
		{SpaceID: space, Query: "plan the billing migration", MaxTokens: 1500, Weave: true},
	} {
		p, err := f.svc.Checkout(ctx, &req)
		require.NoError(t, err)
		require.NotZero(t, p.SurfacedSeq)
		rec, err := checkout.Recorded(ctx, f.pool, space, p.SurfacedSeq)
		require.NoError(t, err)
		if p.Weave != nil && p.Weave.Text != "" {
			// The weave's text is not re-rendered: the tiers before it are.
			woven = true
			require.True(t, rec.WeaveNotRendered)
			require.Equal(t, strings.TrimSuffix(p.Text, p.Weave.Text), rec.Text)
		} else {
			require.Equal(t, p.Text, rec.Text)
		}
		require.Equal(t, checkoutwire.RecordedMatches, rec.Status)
		require.Equal(t, rec.RecordedSHA256, rec.RenderedSHA256)
		require.Equal(t, p.Budget.Tokenizer, rec.Tokenizer)
		require.Equal(t, p.Budget.Used, rec.UsedTokens)
		require.Equal(t, p.Diagnostics.PolicyVersion, rec.PolicyVersion)
		n := 0
		for _, tier := range p.Tiers {
			for _, it := range tier.Items {
				got := rec.Items[n]
				n++
				require.Equal(t, it.ItemID, got.ItemID)
				require.Equal(t, it.Ref, got.Ref)
				require.Equal(t, checkoutwire.RecordedMatches, got.Status, got.ItemID)
				require.Contains(t, p.Text, got.Line+"\n")
			}
		}
		require.Len(t, rec.Items, n)
		if req.WhoWhen {
			require.Contains(t, p.Text, "…", "the long message is an excerpt")
			require.Contains(t, p.Text, "invalidated: moved to", "the invalidated event is in the packet")
		}
	}
	require.True(t, woven, "a packet with a weave was re-rendered")
}

// TestRecorded_AnErasedItemIsNamedNeverShown: after an item's event is erased the re-rendered
// packet no longer matches, the item says which erasure erased it, and its text is nowhere.
func TestRecorded_AnErasedItemIsNamedNeverShown(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "recerase"
	seedSpace(t, f, space)
	f.index(t, space)
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "registry timeout push image", MaxTokens: 2000, SessionID: "s1"})
	require.NoError(t, err)
	var target checkout.Item
	for _, tier := range p.Tiers {
		for _, it := range tier.Items {
			if strings.Contains(it.Text, "120s") {
				target = *it
			}
		}
	}
	require.NotEmpty(t, target.ItemID, "the fix is in the packet")
	res, err := erasure.New(f.pool, f.store, f.proj, nil).Erase(ctx, &eventloom.EraseParams{SpaceID: space, Seq: target.Citations[0].Seq, Reason: "asked to forget"})
	require.NoError(t, err)

	rec, err := checkout.Recorded(ctx, f.pool, space, p.SurfacedSeq)
	require.NoError(t, err)
	require.Equal(t, checkoutwire.RecordedDiffers, rec.Status)
	require.NotEqual(t, rec.RecordedSHA256, rec.RenderedSHA256)
	require.NotContains(t, rec.Text, "120s")
	for _, it := range rec.Items {
		require.NotContains(t, it.Line, "120s")
		if it.ItemID == target.ItemID {
			require.Equal(t, checkoutwire.RecordedErased, it.Status)
			require.Equal(t, res.ErasureSeq, it.ErasedBySeq)
			require.Contains(t, rec.Text, fmt.Sprintf("[%d] (erased by seq %d)\n", it.Ref, res.ErasureSeq))
		} else {
			require.Equal(t, checkoutwire.RecordedMatches, it.Status, it.ItemID)
		}
	}
}

// TestRecorded_AnOlderRecordListsItsItemsNotRendered: a checkout.surfaced event without a
// rendering still lists its items, each marked not recorded as rendered; a seq that is not a
// checkout is ErrCheckoutNotFound.
func TestRecorded_AnOlderRecordListsItsItemsNotRendered(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "recold"
	r := f.append(t, space, msg("s", "user", "hello"),
		eventloom.NewEvent{Type: checkout.SurfacedType, SessionID: "s",
			Data: json.RawMessage(`{"purpose":"general","query_sha256":"00","max_tokens":500,"used_tokens":12,"items":[{"item_id":"ev:1","seqs":[1],"tier":"query"}]}`)})
	rec, err := checkout.Recorded(ctx, f.pool, space, r[1].Seq)
	require.NoError(t, err)
	require.Equal(t, checkoutwire.RecordedNotRendered, rec.Status)
	require.Empty(t, rec.Text)
	require.Equal(t, []checkout.RecordedItem{{Ref: 1, ItemID: "ev:1", Tier: "query", Seqs: []int64{1}, Status: checkoutwire.RecordedNotRendered}}, rec.Items)
	_, err = checkout.Recorded(ctx, f.pool, space, r[0].Seq)
	require.ErrorIs(t, err, checkout.ErrCheckoutNotFound)
}
