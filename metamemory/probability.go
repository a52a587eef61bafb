package metamemory

import "math"

// The mapping from signals to a probability, and the thresholds that name it. It is a logistic
// over three signals, each in [0, 1]:
//
//	p = 1 / (1 + exp(-(b0 + b1*share + b2*specificity + b3*entities)))
//
//	share        the query's known IDF share (Signals.KnownIDFShare)
//	specificity  the largest specificity of a known query term (Signals.MaxKnownSpecificity)
//	entities     min(entity hits, 2) / 2
//
// A query without content terms, or a space without items, is p = 0: there is nothing it could
// know. The coefficients were fitted by logistic regression on both development sets together
// (docs/benchmarks.md, "Feeling of knowing"), the target being that checkout's packet holds
// evidence; no signal names a data set, a speaker or a question.
const (
	coefIntercept   = -2.0
	coefShare       = 3.0
	coefSpecificity = 1.0
	coefEntities    = 0.5
)

// The judgement's thresholds on the probability: likely from LikelyAt, unlikely below
// PossibleAt, possible between.
const (
	LikelyAt   = 0.7
	PossibleAt = 0.35
)

// The judgements.
const (
	Likely   = "likely"
	Possible = "possible"
	Unlikely = "unlikely"
)

// probability maps the signals to the probability that memory holds something on the query.
func probability(s *Signals) float64 {
	if s.QueryTerms == 0 || s.SpaceItems == 0 {
		return 0
	}
	ent := float64(min(len(s.EntityHits), 2)) / 2
	z := coefIntercept + coefShare*s.KnownIDFShare + coefSpecificity*s.MaxKnownSpecificity + coefEntities*ent
	return 1 / (1 + math.Exp(-z))
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
