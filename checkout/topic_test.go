package checkout_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/topic"
)

// conversations returns sessions about a few topics, the messages of each drawn from its
// topic's words so they co-occur; the photo session opens with words the question below
// does not use. The first session starts on 2024-01-01, each later one a day after.
func conversations() []eventloom.NewEvent {
	vocab := [][]string{
		{"photography", "camera", "lens", "flash", "sony", "tripod", "aperture", "portrait"},
		{"recipe", "oven", "dough", "bake", "flour", "butter", "sourdough", "kitchen"},
		{"garden", "tomato", "soil", "compost", "seedling", "watering", "mulch", "greenhouse"},
		{"budget", "savings", "mortgage", "interest", "retirement", "pension", "stocks", "taxes"},
		{"flight", "hotel", "passport", "itinerary", "luggage", "airport", "visa", "beach"},
	}
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []eventloom.NewEvent
	for s := range 2 {
		for topic, words := range vocab {
			session := fmt.Sprintf("t%d-%d", topic, s)
			at := start.Add(time.Duration(s*len(vocab)+topic) * 24 * time.Hour)
			for i := range 8 {
				text := fmt.Sprintf("about the %s and the %s, then the %s with %s", words[(i+s)%8], words[(i*3+1+s)%8], words[(i*5+2)%8], words[(i+4)%8])
				if i == 0 {
					text = fmt.Sprintf("so, my %s and my %s", words[1+s], words[3+s]) // never words 0, 6 or 7
				}
				e := msg(session, []string{"user", "assistant"}[i%2], text)
				e.OccurredAt = &at
				out = append(out, e)
			}
		}
	}
	return out
}

func TestTopicLane_FindsTheConversationAQuestionIsAboutWithoutSharedWords(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	receipts := f.append(t, "topics", conversations()...)
	f.index(t, "topics")
	res, err := topic.NewRefresher(f.pool, topic.DefaultParams).Refresh(ctx, "topics")
	require.NoError(t, err)
	require.True(t, res.Rebuilt)
	photoOpeners := map[string]bool{
		memoryitem.EventID(receipts[0].Seq):  true, // t0-0
		memoryitem.EventID(receipts[40].Seq): true, // t0-1
	}
	question := "what about portrait photography and aperture?"

	only := func(lane string) []string {
		var off []string
		for _, l := range checkout.Lanes {
			if l != lane {
				off = append(off, l)
			}
		}
		return off
	}
	q, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "topics", Query: question, DisableLanes: only(checkout.LaneTopic)})
	require.NoError(t, err)
	require.Empty(t, q.Lanes[checkout.LaneTopic].Error)
	require.NotEmpty(t, q.Items)
	require.True(t, photoOpeners[q.Items[0].ItemID], "first item %s %q, want a photo session's first message", q.Items[0].ItemID, q.Items[0].Text)
	require.Contains(t, q.Items[0].Components, checkout.LaneTopic)

	// The keyword lane cannot find those first messages: they share no word with the question.
	kw, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "topics", Query: question, Limit: 100, DisableLanes: only(checkout.LaneKeyword)})
	require.NoError(t, err)
	for _, it := range kw.Items {
		require.False(t, photoOpeners[it.ItemID], "keyword lane found %s %q", it.ItemID, it.Text)
	}

	// As of before the second photo session began, only the first can be found.
	asOf := time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC)
	q, err = f.svc.Query(ctx, &checkout.Request{SpaceID: "topics", Query: question, AsOf: &asOf, DisableLanes: only(checkout.LaneTopic)})
	require.NoError(t, err)
	require.NotEmpty(t, q.Items)
	for _, it := range q.Items {
		require.False(t, it.OccurredAt.After(asOf), "%s occurred %s, after as_of", it.ItemID, it.OccurredAt)
	}
	require.Equal(t, memoryitem.EventID(receipts[0].Seq), q.Items[0].ItemID)

	// The full checkout cites the photo session through the topic lane too.
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: "topics", Query: question, NoRecord: true})
	require.NoError(t, err)
	var cited bool
	for _, tier := range p.Tiers {
		for _, it := range tier.Items {
			cited = cited || photoOpeners[it.ItemID]
		}
	}
	require.True(t, cited, "the packet cites no photo session's first message")
}

func TestTopicLane_ASpaceWithoutAModelGivesNoCandidatesAndNoError(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.append(t, "tiny", msg("s", "user", "my camera lens is scratched"))
	f.index(t, "tiny")
	_, err := topic.NewRefresher(f.pool, topic.DefaultParams).Refresh(ctx, "tiny")
	require.NoError(t, err)
	q, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "tiny", Query: "camera lens"})
	require.NoError(t, err)
	require.Zero(t, q.Lanes[checkout.LaneTopic].Count)
	require.Empty(t, q.Lanes[checkout.LaneTopic].Error)
	require.NotEmpty(t, q.Items) // the other lanes still answer
}
