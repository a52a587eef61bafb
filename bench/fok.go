package bench

import (
	"fmt"
	"strings"

	"github.com/zaxy/zaxy/metamemory"
)

// fokOutcome is one question's feeling of knowing and its target: whether checkout's packet
// held evidence (an unanswerable question is a negative whatever the packet held).
type fokOutcome struct {
	p         float64
	judgement string
	positive  bool
}

// FoKScores calibrate the feeling of knowing against "checkout's packet holds evidence" over
// the questions of a group that can be judged (turn evidence, or unanswerable).
type FoKScores struct {
	Questions int `json:"questions"`
	// BaseRate is the share of positives; BaseRateBrier the Brier score of always predicting it
	// (BaseRate * (1 - BaseRate)), the score to beat.
	BaseRate      float64 `json:"base_rate"`
	BaseRateBrier float64 `json:"base_rate_brier"`
	// Brier is the mean squared error of the feeling of knowing's probability; Skill is
	// 1 - Brier / BaseRateBrier (above 0 beats the base rate).
	Brier float64 `json:"brier"`
	Skill float64 `json:"skill"`
	// Judgements counts the questions per judgement, and Positive how many of them were
	// positives.
	Judgements map[string]int `json:"judgements"`
	Positive   map[string]int `json:"positive"`
}

// fokScores scores the outcomes; nil when there are none.
func fokScores(os []fokOutcome) *FoKScores {
	if len(os) == 0 {
		return nil
	}
	s := &FoKScores{Questions: len(os), Judgements: map[string]int{}, Positive: map[string]int{}}
	pos := 0
	for _, o := range os {
		y := 0.0
		if o.positive {
			y = 1
			pos++
			s.Positive[o.judgement]++
		}
		s.Brier += (o.p - y) * (o.p - y)
		s.Judgements[o.judgement]++
	}
	n := float64(len(os))
	s.Brier /= n
	s.BaseRate = float64(pos) / n
	s.BaseRateBrier = s.BaseRate * (1 - s.BaseRate)
	if s.BaseRateBrier > 0 {
		s.Skill = 1 - s.Brier/s.BaseRateBrier
	}
	return s
}

// writeFoK prints the calibration line of a group, and how many positives each judgement held.
func writeFoK(b *strings.Builder, g *Group) {
	f := g.FoK
	if f == nil {
		return
	}
	fmt.Fprintf(b, "feeling of knowing vs evidence in packet (%s, %d questions, base rate %.3f): Brier %.4f, base-rate Brier %.4f, skill %+.3f;",
		g.Name, f.Questions, f.BaseRate, f.Brier, f.BaseRateBrier, f.Skill)
	for _, j := range []string{metamemory.Likely, metamemory.Possible, metamemory.Unlikely} {
		fmt.Fprintf(b, " %s %d/%d", j, f.Positive[j], f.Judgements[j])
	}
	b.WriteString(" with evidence\n")
}
