package bench

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/metamemory"
)

// syntheticFoKLines writes n ranked.jsonl lines whose feeling-of-knowing signals are drawn at
// random and whose targets are drawn from the logistic of c over them (c's probability is also
// the recorded one); speakers sets how often a question names a speaker.
func syntheticFoKLines(t *testing.T, n int, c metamemory.Coefficients, speakers float64, seed uint64) []byte {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var b bytes.Buffer
	for i := range n {
		sig := metamemory.Signals{QueryTerms: 1 + rng.IntN(16), KnownIDFShare: 0.5 + rng.Float64()/2,
			MaxKnownSpecificity: rng.Float64(), SpaceItems: 10, KnownTerms: []string{"known"}}
		if rng.Float64() < speakers {
			s := rng.Float64()
			sig.SpeakerSupport = &s
		}
		p := c.Probability(metamemory.InputsOf(&sig))
		pos := rng.Float64() < p
		line, err := json.Marshal(record{QuestionID: "q" + string(rune('a'+i%26)), FoK: &fokRecord{Probability: p,
			QueryTerms: sig.QueryTerms, KnownIDFShare: sig.KnownIDFShare, MaxKnownSpecificity: sig.MaxKnownSpecificity,
			SpeakerSupport: sig.SpeakerSupport, Positive: &pos}})
		require.NoError(t, err)
		b.Write(append(line, '\n'))
	}
	return b.Bytes()
}

func TestReadFoKSamples_DerivesTheMappingsInputs(t *testing.T) {
	in := `{"question_id":"a","fok":{"judgement":"likely","probability":0.9,"query_terms":20,"known_idf_share":0.5,"max_known_specificity":0.25,"entity_hits":0,"speaker_support":0.75,"positive":true}}
{"question_id":"b","fok":{"judgement":"unlikely","probability":0,"query_terms":0,"known_idf_share":0,"max_known_specificity":0,"entity_hits":0,"positive":false}}
{"question_id":"c","fok":{"judgement":"likely","probability":0.8,"query_terms":3,"known_idf_share":1,"max_known_specificity":0.5,"entity_hits":1}}
{"question_id":"d"}

`
	samples, skipped, err := ReadFoKSamples(strings.NewReader(in))
	require.NoError(t, err)
	require.Equal(t, 2, skipped)
	require.Len(t, samples, 2)
	require.Equal(t, FoKSample{QuestionID: "a", Recorded: 0.9, Positive: true,
		Inputs: metamemory.Inputs{Specificity: 0.25, SpeakerGap: 0.25, Terms: 1, ShareOffset: -4 * 0.1}}, roundInputs(samples[0]))
	require.Equal(t, FoKSample{QuestionID: "b", Recorded: 0, Positive: false,
		Inputs: metamemory.Inputs{ShareOffset: -4 * 0.6, Blank: true}}, roundInputs(samples[1]))

	for _, tc := range []struct{ in, want string }{
		{"{\"question_id\":\"a\"}\nnot json\n", "line 2"},
		{`{"question_id":"x","fok":{"probability":1.5,"query_terms":3,"positive":true}}`, "line 1 (question x): a fok signal or probability is out of range"},
		{`{"question_id":"x","fok":{"probability":0.5,"query_terms":3,"speaker_support":-1,"positive":true}}`, "out of range"},
	} {
		_, _, err := ReadFoKSamples(strings.NewReader(tc.in))
		require.ErrorContains(t, err, tc.want)
	}
}

// roundInputs rounds a sample's inputs to 12 places (the share offset is computed in floating point).
func roundInputs(s FoKSample) FoKSample {
	r := func(v float64) float64 { return math.Round(v*1e12) / 1e12 }
	s.Inputs.Specificity, s.Inputs.SpeakerGap, s.Inputs.Terms, s.Inputs.ShareOffset =
		r(s.Inputs.Specificity), r(s.Inputs.SpeakerGap), r(s.Inputs.Terms), r(s.Inputs.ShareOffset)
	return s
}

func TestStratifiedFolds_SpreadEachSetAndTargetEvenly(t *testing.T) {
	var items []fokItem
	for set, counts := range [][2]int{{4, 56}, {88, 214}} { // negatives, positives
		for y, n := range counts {
			for range n {
				items = append(items, fokItem{set: set, s: &FoKSample{Positive: y == 1}})
			}
		}
	}
	fold := stratifiedFolds(items, 10, 1)
	require.Equal(t, fold, stratifiedFolds(items, 10, 1), "the seed fixes the folds")
	require.NotEqual(t, fold, stratifiedFolds(items, 10, 2))
	sizes := make([]int, 10)
	per := map[[3]int]int{} // set, target, fold
	for i, f := range fold {
		sizes[f]++
		per[[3]int{items[i].set, int(target(items[i].s)), f}]++
	}
	require.LessOrEqual(t, max(sizes[0], sizes[9])-min(sizes[0], sizes[9]), 1)
	for set, counts := range [][2]int{{4, 56}, {88, 214}} {
		for y, n := range counts {
			for f := range 10 {
				got := per[[3]int{set, y, f}]
				require.True(t, got == n/10 || got == n/10+1, "set %d target %d fold %d: %d of %d", set, y, f, got, n)
			}
		}
	}
}

func TestFoKFit_RecoversTheMappingAndCrossValidates(t *testing.T) {
	truth := metamemory.Coefficients{Intercept: 2, Specificity: -2.5, SpeakerGap: -2.5, Terms: 1.5}
	read := func(b []byte) []FoKSample {
		s, skipped, err := ReadFoKSamples(bytes.NewReader(b))
		require.NoError(t, err)
		require.Zero(t, skipped)
		return s
	}
	sets := []FoKFitSet{
		{Name: "small", Samples: read(syntheticFoKLines(t, 600, truth, 0.2, 1))},
		{Name: "large", Samples: read(syntheticFoKLines(t, 3000, truth, 0.8, 2))},
	}
	rep, err := FoKFit(FoKFitOptions{Sets: sets, Folds: 5, Repeats: 2, Penalty: 0.01})
	require.NoError(t, err)
	require.Equal(t, metamemory.ShippedCoefficients(), rep.Shipped)
	require.InDelta(t, truth.Intercept, rep.InSample.Intercept, 0.4)
	require.InDelta(t, truth.Specificity, rep.InSample.Specificity, 0.4)
	require.InDelta(t, truth.SpeakerGap, rep.InSample.SpeakerGap, 0.4)
	require.InDelta(t, truth.Terms, rep.InSample.Terms, 0.4)
	require.Greater(t, rep.RecordedDrift, 0.01, "the lines were recorded with other coefficients than the shipped ones")
	require.Len(t, rep.Sets, 2)
	for _, s := range rep.Sets {
		require.Zero(t, s.Blank)
		rate := float64(s.Positives) / float64(s.Questions)
		require.InDelta(t, rate*(1-rate), s.InSample.BaseRateBrier, 1e-12)
		// Out of fold the base rate does no better than in sample, and the refit beats it.
		require.GreaterOrEqual(t, s.CrossValidated.BaseRateBrier, s.InSample.BaseRateBrier-1e-12)
		require.Less(t, s.CrossValidated.Brier, s.CrossValidated.BaseRateBrier)
		require.InDelta(t, 1-s.CrossValidated.Brier/s.CrossValidated.BaseRateBrier, s.CrossValidated.Skill, 1e-12)
		require.LessOrEqual(t, s.CrossValidated.SkillMin, s.CrossValidated.Skill)
		require.GreaterOrEqual(t, s.CrossValidated.SkillMax, s.CrossValidated.Skill)
		require.Greater(t, s.CrossValidated.SkillMin, 0.0)
	}

	var b strings.Builder
	rep.WriteText(&b)
	require.Contains(t, b.String(), "| shipped (metamemory/probability.go) | 2.98 | -2.54 | -2.00 | 1.79 |")
	require.Contains(t, b.String(), "warning: the files' probabilities differ from the shipped coefficients'")
	require.Contains(t, b.String(), "5-fold CV (seed 1)")
	require.Contains(t, b.String(), "skill range, seeds 1-2")
	require.Contains(t, b.String(), "| small | 600 |")
}

func TestFoKFit_ShippedLinesHaveNoDrift(t *testing.T) {
	shipped := metamemory.ShippedCoefficients()
	read := func(b []byte) []FoKSample {
		s, _, err := ReadFoKSamples(bytes.NewReader(b))
		require.NoError(t, err)
		return s
	}
	rep, err := FoKFit(FoKFitOptions{Sets: []FoKFitSet{
		{Name: "a", Samples: read(syntheticFoKLines(t, 200, shipped, 0.5, 3))},
		{Name: "b", Samples: read(syntheticFoKLines(t, 200, shipped, 0.5, 4))},
	}})
	require.NoError(t, err)
	require.Less(t, rep.RecordedDrift, 1e-12)
	require.Equal(t, 10, rep.Folds)
	require.Equal(t, 1.0, rep.Penalty)
}

func TestFoKFit_RejectsSetsItCannotFit(t *testing.T) {
	pos, neg := &FoKSample{Positive: true}, &FoKSample{}
	many := func(s *FoKSample, n int) []FoKSample {
		out := make([]FoKSample, n)
		for i := range out {
			out[i] = *s
		}
		return out
	}
	_, err := FoKFit(FoKFitOptions{})
	require.ErrorContains(t, err, "no sets")
	_, err = FoKFit(FoKFitOptions{Sets: []FoKFitSet{{Name: "a", Samples: many(pos, 20)}}})
	require.ErrorContains(t, err, "set a has 20 questions, 20 positive")
	_, err = FoKFit(FoKFitOptions{Sets: []FoKFitSet{{Name: "a", Samples: append(many(pos, 5), many(neg, 5)...)}}})
	require.ErrorContains(t, err, "too few questions of either target for 10 folds")
	_, err = FoKFit(FoKFitOptions{Folds: 1, Sets: []FoKFitSet{{Name: "a", Samples: append(many(pos, 5), many(neg, 5)...)}}})
	require.ErrorContains(t, err, "folds must be at least 2")
}
