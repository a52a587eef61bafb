package checkout_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
)

// TestReplyLane_FollowsWhatANamedSpeakerSaysAfterAStatement: "This has been great for my mental
// health" goes on about the turn before it ("Running can really boost your mood"), which the
// keyword lane finds and which asks nothing. Under builtin-6 the reply lane follows it to what
// the speaker the question names said next; under builtin-5 it follows only questions. A
// question that names no speaker follows no statement.
func TestReplyLane_FollowsWhatANamedSpeakerSaysAfterAStatement(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	const space = "reply-statements"
	const answer = "Thanks! This has been great for my mental health. I'm gonna keep it up."
	f.append(t, space,
		turn("s1", "Melanie", "user", "I finally signed the kids up for swimming lessons."),
		turn("s1", "Caroline", "assistant", "Running can really boost your mood, Melanie! Keep it up."),
		turn("s1", "Melanie", "user", answer),
		turn("s1", "Caroline", "assistant", "I painted a sunset over the lake last weekend."),
		turn("s2", "Melanie", "user", "We went camping and roasted marshmallows by the fire."),
		turn("s2", "Caroline", "assistant", "The adoption agency called me back about the interview."),
		turn("s2", "Melanie", "user", "Pottery class was great fun, I made a bowl."),
		turn("s3", "Caroline", "assistant", "The support group meets on Thursdays at the library."),
	)
	f.index(t, space)
	ask := func(version, query string) *checkout.Item {
		t.Helper()
		svc := checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), Policy: checkout.BuiltinPolicyOf(version)})
		res, err := svc.Query(ctx, &checkout.Request{SpaceID: space, Query: query})
		require.NoError(t, err)
		for _, it := range res.Items {
			if it.Text == answer {
				return it
			}
		}
		return nil
	}
	q := "What does Melanie say running has been great for?"
	five, six := ask("builtin-5", q), ask("builtin-6", q)
	if five != nil {
		require.NotContains(t, five.Components, checkout.LaneReply, "builtin-5 follows only questions")
	}
	require.NotNil(t, six)
	require.Contains(t, six.Components, checkout.LaneReply)
	require.Equal(t, 1, six.Components[checkout.LaneReply].Rank)
	require.InDelta(t, 0.3, six.Components[checkout.LaneReply].Weight, 1e-9, "at 0.3 of the lane's weight")
	if five != nil {
		require.Greater(t, six.Score, five.Score)
	}

	// No speaker named: no statement is followed.
	if it := ask("builtin-6", "What has running been great for?"); it != nil {
		require.NotContains(t, it.Components, checkout.LaneReply)
	}

	// Spaces are tenants: a statement that ends its session in one space is not followed into
	// another space's session of the same id, whose next message would otherwise qualify.
	f.append(t, "reply-statements-a", turn("s1", "Caroline", "assistant", "Running can really boost your mood, Melanie!"))
	f.append(t, "reply-statements-b", turn("s1", "Caroline", "assistant", "Hi."),
		turn("s1", "Melanie", "user", "This has been great for my mental health."))
	f.index(t, "reply-statements-a")
	f.index(t, "reply-statements-b")
	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "reply-statements-a", Query: q})
	require.NoError(t, err)
	require.Zero(t, res.Lanes[checkout.LaneReply].Count, "nothing follows in this space")
	for _, it := range res.Items {
		require.NotContains(t, it.Text, "mental health")
	}
}
