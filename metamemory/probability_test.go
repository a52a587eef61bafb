package metamemory

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestProbability_IsTheDocumentedLogistic(t *testing.T) {
	support := 0.25
	s := &Signals{QueryTerms: 15, KnownTerms: []string{"a"}, KnownIDFShare: 0.4, MaxKnownSpecificity: 0.5,
		SpeakerSupport: &support, SpaceItems: 3}
	in := InputsOf(s)
	require.InDelta(t, 0.5, in.Specificity, 1e-12)
	require.InDelta(t, 0.75, in.SpeakerGap, 1e-12)
	require.InDelta(t, 1, in.Terms, 1e-12, "terms are capped at 12")
	require.InDelta(t, -4*0.2, in.ShareOffset, 1e-12)
	require.False(t, in.Blank)
	z := 2.98 - 2.54*0.5 - 2.00*0.75 + 1.79*1 - 0.8
	require.InDelta(t, 1/(1+math.Exp(-z)), probability(s), 1e-12)
	require.Equal(t, Coefficients{Intercept: 2.98, Specificity: -2.54, SpeakerGap: -2.00, Terms: 1.79}, ShippedCoefficients())

	// No speaker named: no gap; a share above the knee: no offset.
	s = &Signals{QueryTerms: 6, KnownTerms: []string{"a"}, KnownIDFShare: 0.9, MaxKnownSpecificity: 0.2, SpaceItems: 3}
	in = InputsOf(s)
	require.Equal(t, Inputs{Specificity: 0.2, Terms: 0.5}, in)
	require.InDelta(t, 1/(1+math.Exp(-(2.98-2.54*0.2+1.79*0.5))), probability(s), 1e-12)
}

func TestProbability_ZeroWhenThereIsNothingToKnow(t *testing.T) {
	for _, s := range []*Signals{
		{QueryTerms: 0, KnownTerms: []string{"a"}, SpaceItems: 3},
		{QueryTerms: 2, SpaceItems: 3},
		{QueryTerms: 2, KnownTerms: []string{"a"}},
	} {
		require.True(t, InputsOf(s).Blank)
		require.Zero(t, probability(s))
		require.Zero(t, Coefficients{Intercept: 50}.Probability(InputsOf(s)))
	}
}
