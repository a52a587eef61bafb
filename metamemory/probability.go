package metamemory

import "math"

// The mapping from signals to a probability, and the thresholds that name it. A logistic over
// four signals, each in [0, 1]:
//
//	p = 1 / (1 + exp(-z))
//	z = b0 + bSpec*specificity + bGap*speakerGap + bTerms*terms - shareSlope*max(0, shareKnee - share)
//
//	specificity  the largest specificity of a known query lexeme (Signals.MaxKnownSpecificity)
//	speakerGap   1 - Signals.SpeakerSupport when the query names a speaker of the space, else 0
//	terms        min(Signals.QueryTerms, 12) / 12
//	share        the query's known IDF share (Signals.KnownIDFShare)
//
// and p = 0 when there is nothing it could know: no content lexeme in the query, no item in the
// space, or no query lexeme known to the space.
//
// b0, bSpec, bGap and bTerms were fitted by logistic regression on both development sets, each
// set weighing as much as the other (docs/benchmarks.md, "Feeling of knowing"), the target
// being that checkout's packet holds evidence; `zaxy bench fok-fit` (package bench) refits and
// cross-validates them from the sets' ranked.jsonl. The share term is a prior set by design, not
// fitted: the development sets ask almost only about words their haystacks hold (share below
// 0.6 in 53 of 362 questions, 72 % of which found evidence against 75 % of all), so they cannot say
// how much an unknown topic should lower the probability; below the knee each tenth of the
// IDF mass that is unknown lowers the odds by e^0.4. No signal names a data set, a speaker or a
// question.
const (
	coefIntercept   = 2.98
	coefSpecificity = -2.54
	coefSpeakerGap  = -2.00
	coefTerms       = 1.79
	shareKnee       = 0.6
	shareSlope      = 4.0
	termsCap        = 12
)

// The judgement's thresholds on the probability: likely from LikelyAt, unlikely below
// PossibleAt, possible between.
const (
	LikelyAt   = 0.75
	PossibleAt = 0.4
)

// The judgements.
const (
	Likely   = "likely"
	Possible = "possible"
	Unlikely = "unlikely"
)

// Coefficients are the fitted weights of the logistic mapping: the intercept and the slopes on
// the specificity, speaker-gap and terms inputs (Inputs). The share term is not among them: it
// is a design prior, added as a fixed offset.
type Coefficients struct {
	Intercept   float64 `json:"intercept"`
	Specificity float64 `json:"specificity"`
	SpeakerGap  float64 `json:"speaker_gap"`
	Terms       float64 `json:"terms"`
}

// ShippedCoefficients are the coefficients the feeling of knowing answers with.
func ShippedCoefficients() Coefficients {
	return Coefficients{Intercept: coefIntercept, Specificity: coefSpecificity, SpeakerGap: coefSpeakerGap, Terms: coefTerms}
}

// Inputs are what the mapping reads of the signals: the three fitted inputs, each in [0, 1], and
// the share prior's fixed offset (-shareSlope * max(0, shareKnee - share), at most 0). Blank
// is true when there is nothing the space could know (no content lexeme in the query, no item
// in the space, or no query lexeme known to it): the probability is then 0 whatever the
// coefficients.
type Inputs struct {
	Specificity float64 `json:"specificity"`
	SpeakerGap  float64 `json:"speaker_gap"`
	Terms       float64 `json:"terms"`
	ShareOffset float64 `json:"share_offset"`
	Blank       bool    `json:"blank,omitempty"`
}

// InputsOf derives the mapping's inputs from the signals.
func InputsOf(s *Signals) Inputs {
	gap := 0.0
	if s.SpeakerSupport != nil {
		gap = 1 - *s.SpeakerSupport
	}
	return Inputs{
		Specificity: s.MaxKnownSpecificity,
		SpeakerGap:  gap,
		Terms:       float64(min(s.QueryTerms, termsCap)) / termsCap,
		ShareOffset: -shareSlope * max(0, shareKnee-s.KnownIDFShare),
		Blank:       s.QueryTerms == 0 || s.SpaceItems == 0 || len(s.KnownTerms) == 0,
	}
}

// Probability is the logistic of the inputs under c; 0 when the inputs are blank.
func (c Coefficients) Probability(in Inputs) float64 {
	if in.Blank {
		return 0
	}
	z := c.Intercept + c.Specificity*in.Specificity + c.SpeakerGap*in.SpeakerGap + c.Terms*in.Terms + in.ShareOffset
	return 1 / (1 + math.Exp(-z))
}

// probability maps the signals to the probability that memory holds something on the query.
func probability(s *Signals) float64 {
	return ShippedCoefficients().Probability(InputsOf(s))
}

// judge names a probability.
func judge(p float64) string {
	switch {
	case p >= LikelyAt:
		return Likely
	case p >= PossibleAt:
		return Possible
	default:
		return Unlikely
	}
}
