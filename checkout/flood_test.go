package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

// TestQuery_AnEntityInMostItemsDoesNotOutrankASpecificMatch: a project name that nearly every
// item mentions carries almost no information, so its exact-lane matches weigh almost nothing
// and never outrank the one item that names a specific term of the question.
func TestQuery_AnEntityInMostItemsDoesNotOutrankASpecificMatch(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	topics := []string{"the build cache", "the release notes", "the login page", "the search index", "the nightly backup",
		"the metrics dashboard", "the docs site", "the billing export", "the onboarding flow", "the error pages"}
	var events []eventloom.NewEvent
	for i := 0; i < 20; i++ {
		events = append(events, msg("s1", "user", fmt.Sprintf("Item %d: we looked at %s in Orrery again.", i, topics[i%len(topics)])))
	}
	events = append(events,
		msg("s2", "user", "The Lisbon offsite is booked for the second week of May."),
		msg("s2", "assistant", "Noted, I will keep the travel budget in mind."),
	)
	f.append(t, "flood", events...)
	f.index(t, "flood")

	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "flood", Query: "Orrery Lisbon offsite", Purpose: checkout.PurposeGeneral})
	require.NoError(t, err)
	require.NotEmpty(t, res.Items)
	require.Contains(t, res.Items[0].Text, "Lisbon", "the specific match ranks first")
	lisbon := res.Items[0].Components[checkout.LaneExact]
	require.Equal(t, 1, lisbon.Rank, "the most specific entity's items lead the exact lane")
	common := 0
	for _, it := range res.Items {
		if !strings.Contains(it.Text, "Orrery") {
			continue
		}
		c, ok := it.Components[checkout.LaneExact]
		require.True(t, ok, "the common entity still matches: %s", it.Text)
		require.Less(t, c.Weight, 0.15*lisbon.Weight, "a match on an entity in most items weighs almost nothing: %s", it.Text)
		require.Greater(t, lisbon.Score, c.Score)
		common++
	}
	require.Positive(t, common)
}

// TestQuery_ASpeakersNameAloneMakesNoCandidate: in a conversation whose turns carry their
// speaker (actor and data.name), a question naming a speaker does not pull that speaker's
// turns, nor the turns that address them, through the exact lane. The same name in a space
// where nobody speaks under it is an ordinary entity match.
func TestQuery_ASpeakersNameAloneMakesNoCandidate(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	turn := func(speaker, role, text string) eventloom.NewEvent {
		return eventloom.NewEvent{Type: "message", SessionID: "s1", Actor: speaker, Content: text,
			Data: json.RawMessage(fmt.Sprintf(`{"role":%q,"name":%q}`, role, speaker))}
	}
	f.append(t, "talk",
		turn("Maren", "user", "I finally repainted the lighthouse model."),
		turn("Tobias", "assistant", "That sounds lovely, Maren! What colour?"),
		turn("Maren", "user", "Red and white stripes, like the real one."),
		turn("Tobias", "assistant", "Maren, you should show it at the fair."),
	)
	f.append(t, "notes",
		msg("s1", "user", "Yesterday Maren repainted the lighthouse model."),
		msg("s1", "user", "The fair opens on Saturday."),
	)
	f.index(t, "talk")
	f.index(t, "notes")

	q := "What did Maren paint?"
	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "talk", Query: q, Purpose: checkout.PurposeGeneral})
	require.NoError(t, err)
	require.Zero(t, res.Lanes[checkout.LaneExact].Count, "a speaker's name is no entity match")
	for _, it := range res.Items {
		require.NotContains(t, it.Components, checkout.LaneExact, it.Text)
	}

	res, err = f.svc.Query(ctx, &checkout.Request{SpaceID: "notes", Query: q, Purpose: checkout.PurposeGeneral})
	require.NoError(t, err)
	require.Equal(t, 1, res.Lanes[checkout.LaneExact].Count, "where nobody speaks as Maren, the name matches")
	require.Contains(t, res.Items[0].Text, "Maren")
	require.Contains(t, res.Items[0].Components, checkout.LaneExact)
}

// TestQuery_ASpeakerIsKnownBeforeAndAfterProjection: the exact lane knows a space's speakers
// from the speaker_names projection and, for events the projector has not reached yet, from
// the log itself, so a name stops matching as an entity the moment its first turn is
// appended, and stays a speaker however many events follow.
func TestQuery_ASpeakerIsKnownBeforeAndAfterProjection(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.append(t, "late", msg("s1", "user", "Yesterday Maren repainted the lighthouse model."))
	f.index(t, "late")
	q := &checkout.Request{SpaceID: "late", Query: "What did Maren paint?", Purpose: checkout.PurposeGeneral}
	res, err := f.svc.Query(ctx, q)
	require.NoError(t, err)
	require.Equal(t, 1, res.Lanes[checkout.LaneExact].Count, "nobody speaks as Maren yet: the name matches")

	f.append(t, "late", eventloom.NewEvent{Type: "message", SessionID: "s2", Actor: "Maren", Content: "Hello again.",
		Data: json.RawMessage(`{"role":"user","name":"Maren"}`)})
	res, err = f.svc.Query(ctx, q)
	require.NoError(t, err)
	require.Positive(t, res.ProjectionLag)
	require.Zero(t, res.Lanes[checkout.LaneExact].Count, "a speaker of an event not yet projected")

	f.index(t, "late")
	res, err = f.svc.Query(ctx, q)
	require.NoError(t, err)
	require.Zero(t, res.ProjectionLag)
	require.Zero(t, res.Lanes[checkout.LaneExact].Count, "a speaker of a projected event")
}
