package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

// turn is a conversation turn spoken by speaker (actor and data.name), as multi-party
// conversations are appended.
func turn(session, speaker, role, text string) eventloom.NewEvent {
	return eventloom.NewEvent{Type: "message", SessionID: session, Actor: speaker, Content: text,
		Data: json.RawMessage(fmt.Sprintf(`{"role":%q,"name":%q}`, role, speaker))}
}

// rankOf returns the 1-based rank of the item whose text contains text, or 0.
func rankOf(items []*checkout.Item, text string) int {
	for i, it := range items {
		if it.Text == text {
			return i + 1
		}
	}
	return 0
}

// TestQuery_AQuestionNamingASpeakerFavoursWhatTheySaid: two people talk about the same thing;
// a question about one of them ranks their own turn first, and the other's first when it
// names the other.
func TestQuery_AQuestionNamingASpeakerFavoursWhatTheySaid(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	maren := "I started pottery classes last month, the wheel is hard but calming."
	tobias := "My pottery class on Tuesdays is the best part of my week, the wheel is calming."
	f.append(t, "pair",
		turn("s1", "Tobias", "assistant", tobias),
		turn("s1", "Maren", "user", maren),
		turn("s2", "Tobias", "assistant", "The weather was bad all weekend."),
		turn("s2", "Maren", "user", "We stayed in and watched films."),
	)
	f.index(t, "pair")
	for _, tc := range []struct{ query, want string }{
		{"Why does Maren like pottery and the wheel?", maren},
		{"Why does Tobias like pottery and the wheel?", tobias},
	} {
		res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "pair", Query: tc.query})
		require.NoError(t, err)
		require.Equal(t, 1, rankOf(res.Items, tc.want), tc.query)
	}
}

// TestQuery_TheReplyToAMatchedQuestionIsACandidate: an answer that shares no word with the
// question about it is found through the question it answers, when its speaker is the one
// the question names; another speaker's reply is not followed.
func TestQuery_TheReplyToAMatchedQuestionIsACandidate(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	answer := "Honestly they were scared, but we reassured them and they calmed down."
	var events []eventloom.NewEvent
	for i := range 12 {
		events = append(events, turn(fmt.Sprintf("f%d", i), "Tobias", "assistant", fmt.Sprintf("Filler chat number %d about gardening and soup.", i)))
	}
	events = append(events,
		turn("s1", "Tobias", "assistant", "That sounds frightening. How did the kids handle the accident?"),
		turn("s1", "Maren", "user", answer),
		turn("s2", "Maren", "user", "Did the kids see the accident on the road?"),
		turn("s2", "Tobias", "assistant", "No, they were asleep in the back the whole time."),
	)
	f.append(t, "talk", events...)
	f.index(t, "talk")

	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "talk", Query: "How did Maren's kids handle the accident?", Limit: 50})
	require.NoError(t, err)
	require.Positive(t, res.Lanes[checkout.LaneReply].Count)
	r := rankOf(res.Items, answer)
	require.Positive(t, r, "the answer is ranked")
	require.LessOrEqual(t, r, 3)
	require.Contains(t, res.Items[r-1].Components, checkout.LaneReply)
	if other := rankOf(res.Items, "No, they were asleep in the back the whole time."); other > 0 {
		require.NotContains(t, res.Items[other-1].Components, checkout.LaneReply, "Tobias's reply is not followed for a question about Maren")
	}

	// Without the lane, only words could find the answer, and it has none of the question's.
	res, err = f.svc.Query(ctx, &checkout.Request{SpaceID: "talk", Query: "How did Maren's kids handle the accident?", Limit: 50,
		DisableLanes: []string{checkout.LaneReply, checkout.LaneVector, checkout.LaneTopic}})
	require.NoError(t, err)
	require.Zero(t, rankOf(res.Items, answer))
}

// TestQuery_TheVectorLaneEmbedsTheQuestionWithoutSpeakersNames: a speaker's name is a rare
// word that would pull the query's vector toward the turns addressing that person; where the
// name speaks in the space, the vector lane embeds the question without it. In a space where
// nobody speaks under that name it is an ordinary word of the question.
func TestQuery_TheVectorLaneEmbedsTheQuestionWithoutSpeakersNames(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	cooking := "I love to cook fresh pasta with garlic on Sundays."
	address := "Maren! Maren, Maren, are you there Maren?"
	f.append(t, "talk",
		turn("s1", "Tobias", "assistant", address),
		turn("s1", "Maren", "user", cooking),
		turn("s1", "Tobias", "assistant", "The train was late again this morning."),
	)
	f.append(t, "notes",
		msg("s1", "user", address),
		msg("s1", "user", cooking),
		msg("s1", "user", "The train was late again this morning."),
	)
	f.index(t, "talk")
	f.index(t, "notes")
	only := []string{checkout.LaneExact, checkout.LaneKeyword, checkout.LaneGraph, checkout.LaneVerbatim, checkout.LaneTopic, checkout.LaneReply}
	q := "What does Maren like to cook?"

	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "notes", Query: q, DisableLanes: only})
	require.NoError(t, err)
	require.Equal(t, address, res.Items[0].Text, "where Maren is no speaker, the name is a word of the question")
	require.Equal(t, 1, res.Items[0].Components[checkout.LaneVector].Rank)

	res, err = f.svc.Query(ctx, &checkout.Request{SpaceID: "talk", Query: q, DisableLanes: only})
	require.NoError(t, err)
	require.Empty(t, res.Lanes[checkout.LaneVector].Error)
	r := rankOf(res.Items, cooking)
	require.Positive(t, r)
	require.Equal(t, 1, res.Items[r-1].Components[checkout.LaneVector].Rank, "the speaker's name is left out of the embedded question")
}

func TestQuery_TheReplyLaneIsOffWithoutTheKeywordLane(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.append(t, "solo", turn("s1", "Tobias", "assistant", "How did the kids handle it?"), turn("s1", "Maren", "user", "Fine."))
	f.index(t, "solo")
	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "solo", Query: "How did Maren's kids handle it?", DisableLanes: []string{checkout.LaneKeyword}})
	require.NoError(t, err)
	require.True(t, res.Lanes[checkout.LaneReply].Off)
	require.Contains(t, res.Lanes[checkout.LaneReply].Error, "keyword lane is off")
}
