package checkout

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSpeakerOf_FirstPersonQuestionsPointAtTheUser(t *testing.T) {
	for _, tc := range []struct{ query, want string }{
		{"What type of vehicle model am I currently working on?", "user"},
		{"How many fish are in my aquariums?", "user"},
		{"I've been wondering what the deploy timeout is", "user"},
		{"I was looking back at our previous conversation: which game did you say dancers perform?", ""},
		{"Can you remind me what restaurant you recommended?", ""},
		{"What did you suggest for my phone?", ""},
		{"Where does the deploy pipeline run?", ""},
		{"Which API endpoint handles imports", ""},
	} {
		require.Equal(t, tc.want, speakerOf(tc.query), tc.query)
	}
}

func TestSpeakerNamer_NamesWholeNamesNotRolesOrParts(t *testing.T) {
	n := newSpeakerNamer("When did Caroline go to the support group with Mel O'Brien? Ask the user.")
	for speaker, want := range map[string]bool{
		"Caroline":    true,
		"caroline":    true,
		"Carol":       false, // a part of a word is no name
		"Mel":         true,
		"Mel O'Brien": true,
		"O'Brien Mel": false, // the words in order
		"user":        false, // roles are the first-person rule's
		"assistant":   false,
		"":            false,
		"Melanie":     false,
	} {
		require.Equal(t, want, n.names(speaker), speaker)
	}
}

func TestNameCandidates_AndWithoutNames(t *testing.T) {
	c := nameCandidates("What did Melanie's son and Mel O'Brien paint, user?", mechanism1.NameWords)
	require.Contains(t, c, "melanie")
	require.Contains(t, c, "mel o'brien")
	require.NotContains(t, c, "user", "roles are not names")
	require.NotContains(t, c, "what", "stop words are not names")

	for _, tc := range []struct{ query, want string }{
		{"What does Melanie do to destress?", "What does do to destress?"},
		{"How did Melanie's son handle the accident?", "How did son handle the accident?"},
		{"When did MELANIE and Mel O'Brien meet?", "When did and meet?"},
		{"Is Melanieville near Melanie?", "Is Melanieville near ?"}, // a name inside a word stays
		{"melanie melanie", ""},
	} {
		require.Equal(t, tc.want, withoutNames(tc.query, []string{"melanie", "mel o'brien"}), tc.query)
	}
}
