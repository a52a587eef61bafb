package bench

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFoKScores_BrierAgainstTheBaseRate(t *testing.T) {
	require.Nil(t, fokScores(nil))
	// Three positives, one negative: base rate 0.75, base-rate Brier 0.1875.
	s := fokScores([]fokOutcome{
		{p: 0.9, judgement: "likely", positive: true},
		{p: 0.8, judgement: "likely", positive: true},
		{p: 0.6, judgement: "possible", positive: true},
		{p: 0.2, judgement: "unlikely", positive: false},
	})
	require.Equal(t, 4, s.Questions)
	require.InDelta(t, 0.75, s.BaseRate, 1e-12)
	require.InDelta(t, 0.1875, s.BaseRateBrier, 1e-12)
	require.InDelta(t, (0.01+0.04+0.16+0.04)/4, s.Brier, 1e-12)
	require.InDelta(t, 1-0.0625/0.1875, s.Skill, 1e-12)
	require.Equal(t, map[string]int{"likely": 2, "possible": 1, "unlikely": 1}, s.Judgements)
	require.Equal(t, map[string]int{"likely": 2, "possible": 1}, s.Positive)

	var b strings.Builder
	writeFoK(&b, &Group{Name: "all", FoK: s})
	require.Equal(t, "feeling of knowing vs evidence in packet (all, 4 questions, base rate 0.750): Brier 0.0625, "+
		"base-rate Brier 0.1875, skill +0.667; likely 2/2 possible 1/1 unlikely 0/1 with evidence\n", b.String())
}
