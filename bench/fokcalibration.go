package bench

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/zaxy/zaxy/metamemory"
)

// FoKSample is one judged question of a ranked.jsonl file: the feeling of knowing's inputs (as
// metamemory.InputsOf derives them from the recorded signals), the probability it answered and
// the calibration target.
type FoKSample struct {
	QuestionID string
	// Inputs are the mapping's inputs; Blank when the recorded probability is exactly 0.
	Inputs metamemory.Inputs
	// Recorded is the probability the file holds (the mapping's answer when it was written).
	Recorded float64
	// Positive is the target: the packet held evidence and the question is answerable.
	Positive bool
}

// ReadFoKSamples reads the judged questions of a ranked.jsonl file written by RunDataset: the
// lines whose `fok` has a `positive` target. skipped counts the lines without one (no feeling of
// knowing, or a question with neither turn evidence nor an unanswerable label).
func ReadFoKSamples(r io.Reader) (samples []FoKSample, skipped int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var rec record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, 0, fmt.Errorf("line %d: %w", line, err)
		}
		if rec.FoK == nil || rec.FoK.Positive == nil {
			skipped++
			continue
		}
		f := rec.FoK
		if f.QueryTerms < 0 || !unit(f.KnownIDFShare) || !unit(f.MaxKnownSpecificity) || !unit(f.Probability) ||
			(f.SpeakerSupport != nil && !unit(*f.SpeakerSupport)) {
			return nil, 0, fmt.Errorf("line %d (question %s): a fok signal or probability is out of range", line, rec.QuestionID)
		}
		in := metamemory.InputsOf(&metamemory.Signals{QueryTerms: f.QueryTerms, KnownIDFShare: f.KnownIDFShare,
			MaxKnownSpecificity: f.MaxKnownSpecificity, SpeakerSupport: f.SpeakerSupport})
		// The file does not keep the known lexemes or the space's size, only their verdict: the
		// probability is exactly 0 when there was nothing to know (a logistic never is).
		in.Blank = f.Probability == 0
		samples = append(samples, FoKSample{QuestionID: rec.QuestionID, Inputs: in, Recorded: f.Probability, Positive: *f.Positive})
	}
	if err := sc.Err(); err != nil {
		return nil, 0, err
	}
	return samples, skipped, nil
}

// unit reports whether v is in [0, 1].
func unit(v float64) bool { return v >= 0 && v <= 1 }

// FoKFitSet is one development set given to FoKFit.
type FoKFitSet struct {
	// Name names the set in the report; File is where its samples were read (reported only).
	Name, File string
	Samples    []FoKSample
	// Skipped counts the file's lines without a target (reported only).
	Skipped int
}

// FoKFitOptions configure FoKFit.
type FoKFitOptions struct {
	// Sets are the development sets, each weighing as much as the others in every fit.
	Sets []FoKFitSet
	// Folds is the number of cross-validation folds (default 10, at least 2).
	Folds int
	// Seed seeds the folds' shuffle (default 1).
	Seed uint64
	// Repeats is how many times the cross-validation is run, with seeds Seed, Seed+1, ...
	// (default 1); the report's scores are the first run's, with the range of the skills over
	// all of them.
	Repeats int
	// Penalty is the L2 penalty on the slopes (default 1, the one the shipped coefficients were
	// fitted with; negative means none).
	Penalty float64
}

// FoKFitReport is what FoKFit measured.
type FoKFitReport struct {
	Folds   int     `json:"folds"`
	Seed    uint64  `json:"seed"`
	Repeats int     `json:"repeats"`
	Penalty float64 `json:"penalty"`
	// Shipped are metamemory's coefficients; InSample the refit on every question of every set.
	Shipped  metamemory.Coefficients `json:"shipped"`
	InSample metamemory.Coefficients `json:"in_sample"`
	// RecordedDrift is the largest difference between a probability a file recorded and the
	// shipped coefficients' probability of the same signals: about 0 when the files were
	// written with the shipped mapping.
	RecordedDrift float64           `json:"recorded_drift"`
	Sets          []FoKFitSetReport `json:"sets"`
}

// FoKFitSetReport scores one set, in sample and out of fold.
type FoKFitSetReport struct {
	Name      string `json:"name"`
	File      string `json:"file,omitempty"`
	Questions int    `json:"questions"`
	Positives int    `json:"positives"`
	Skipped   int    `json:"skipped"`
	// Blank counts the questions answered 0 whatever the coefficients (nothing to know).
	Blank int `json:"blank"`
	// InSample: the set's base rate and its Brier, and the Brier of the shipped coefficients
	// and of the in-sample refit, all on the questions they were fitted on.
	InSample struct {
		BaseRate      float64 `json:"base_rate"`
		BaseRateBrier float64 `json:"base_rate_brier"`
		ShippedBrier  float64 `json:"shipped_brier"`
		RefitBrier    float64 `json:"refit_brier"`
	} `json:"in_sample"`
	// CrossValidated: each question predicted by the fit on the other folds, against the set's
	// base rate in those folds; Skill is 1 - Brier / BaseRateBrier (above 0 beats it).
	CrossValidated struct {
		Brier         float64 `json:"brier"`
		BaseRateBrier float64 `json:"base_rate_brier"`
		Skill         float64 `json:"skill"`
		// SkillMin and SkillMax are the range of the skill over the repeats' seeds.
		SkillMin float64 `json:"skill_min"`
		SkillMax float64 `json:"skill_max"`
	} `json:"cross_validated"`
}

// fokItem is a sample with its set, for pooling.
type fokItem struct {
	set int
	s   *FoKSample
}

// FoKFit refits the feeling of knowing's mapping (metamemory/probability.go: logistic
// regression by Newton's method of the target on the three fitted inputs, the share prior a
// fixed offset, an L2 penalty on the slopes, each set weighing as much as the others) on every
// question, and cross-validates it: the pooled questions are dealt into folds stratified by set
// and target after a seeded shuffle, each fold is predicted by the fit on the others (the sets
// weighted equally among them), and each set's out-of-fold Brier score is set against its
// base rate's, the base rate also taken from the other folds.
func FoKFit(o FoKFitOptions) (*FoKFitReport, error) {
	if o.Folds == 0 {
		o.Folds = 10
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Repeats == 0 {
		o.Repeats = 1
	}
	switch {
	case o.Penalty == 0:
		o.Penalty = 1
	case o.Penalty < 0:
		o.Penalty = 0
	}
	if o.Folds < 2 {
		return nil, fmt.Errorf("fok fit: folds must be at least 2, got %d", o.Folds)
	}
	if o.Repeats < 1 {
		return nil, fmt.Errorf("fok fit: repeats must be at least 1, got %d", o.Repeats)
	}
	if len(o.Sets) == 0 {
		return nil, errors.New("fok fit: no sets")
	}
	rep := &FoKFitReport{Folds: o.Folds, Seed: o.Seed, Repeats: o.Repeats, Penalty: o.Penalty, Shipped: metamemory.ShippedCoefficients()}
	var all []fokItem
	for i := range o.Sets {
		set := &o.Sets[i]
		pos := 0
		for j := range set.Samples {
			s := &set.Samples[j]
			all = append(all, fokItem{set: i, s: s})
			if s.Positive {
				pos++
			}
			if !s.Inputs.Blank {
				rep.RecordedDrift = max(rep.RecordedDrift, math.Abs(rep.Shipped.Probability(s.Inputs)-s.Recorded))
			}
		}
		if pos == 0 || pos == len(set.Samples) {
			return nil, fmt.Errorf("fok fit: set %s has %d questions, %d positive: it needs both positives and negatives", set.Name, len(set.Samples), pos)
		}
		if len(set.Samples)-pos < o.Folds && pos < o.Folds {
			return nil, fmt.Errorf("fok fit: set %s has too few questions of either target for %d folds", set.Name, o.Folds)
		}
	}
	var err error
	if rep.InSample, err = fitFoK(all, len(o.Sets), o.Penalty); err != nil {
		return nil, err
	}

	for i := range o.Sets {
		set := &o.Sets[i]
		sr := FoKFitSetReport{Name: set.Name, File: set.File, Questions: len(set.Samples), Skipped: set.Skipped}
		var shipped, refit float64
		for _, it := range all {
			if it.set != i {
				continue
			}
			y := target(it.s)
			sr.Positives += int(y)
			if it.s.Inputs.Blank {
				sr.Blank++
			}
			shipped += sq(rep.Shipped.Probability(it.s.Inputs) - y)
			refit += sq(rep.InSample.Probability(it.s.Inputs) - y)
		}
		n := float64(sr.Questions)
		rate := float64(sr.Positives) / n
		sr.InSample.BaseRate, sr.InSample.BaseRateBrier = rate, rate*(1-rate)
		sr.InSample.ShippedBrier, sr.InSample.RefitBrier = shipped/n, refit/n
		rep.Sets = append(rep.Sets, sr)
	}
	for r := range o.Repeats {
		scores, err := crossValidate(all, len(o.Sets), o.Folds, o.Seed+uint64(r), o.Penalty)
		if err != nil {
			return nil, fmt.Errorf("fok fit: seed %d: %w", o.Seed+uint64(r), err)
		}
		for i, sc := range scores {
			cv := &rep.Sets[i].CrossValidated
			skill := 1 - sc.brier/sc.baseBrier
			if r == 0 {
				cv.Brier, cv.BaseRateBrier, cv.Skill = sc.brier, sc.baseBrier, skill
				cv.SkillMin, cv.SkillMax = skill, skill
			}
			cv.SkillMin, cv.SkillMax = min(cv.SkillMin, skill), max(cv.SkillMax, skill)
		}
	}
	return rep, nil
}

// target is a sample's calibration target as a number: 1 positive, 0 negative.
func target(s *FoKSample) float64 {
	if s.Positive {
		return 1
	}
	return 0
}

func sq(v float64) float64 { return v * v }

// cvScore is one set's out-of-fold Brier score and its out-of-fold base rate's.
type cvScore struct{ brier, baseBrier float64 }

// crossValidate predicts every item by the fit on the folds it is not in and by its set's base
// rate in those folds, and scores both per set.
func crossValidate(all []fokItem, sets, folds int, seed uint64, penalty float64) ([]cvScore, error) {
	fold := stratifiedFolds(all, folds, seed)
	scores := make([]cvScore, sets)
	counts := make([]int, sets)
	for f := range folds {
		var train []fokItem
		n, pos := make([]int, sets), make([]float64, sets)
		for i, it := range all {
			if fold[i] != f {
				train = append(train, it)
				n[it.set]++
				pos[it.set] += target(it.s)
			}
		}
		c, err := fitFoK(train, sets, penalty)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		for i, it := range all {
			if fold[i] == f {
				y := target(it.s)
				scores[it.set].brier += sq(c.Probability(it.s.Inputs) - y)
				scores[it.set].baseBrier += sq(pos[it.set]/float64(n[it.set]) - y)
				counts[it.set]++
			}
		}
	}
	for i := range scores {
		scores[i].brier /= float64(counts[i])
		scores[i].baseBrier /= float64(counts[i])
	}
	return scores, nil
}

// fitFoK fits the mapping's coefficients to the items, each of the sets weighing as much as
// the largest (its questions weigh 1); blank items are left out (their probability is 0
// whatever the coefficients).
func fitFoK(items []fokItem, sets int, penalty float64) (metamemory.Coefficients, error) {
	n := make([]int, sets)
	for _, it := range items {
		if !it.s.Inputs.Blank {
			n[it.set]++
		}
	}
	largest := slices.Max(n)
	rows := make([]logisticRow, 0, len(items))
	for _, it := range items {
		in := it.s.Inputs
		if in.Blank {
			continue
		}
		rows = append(rows, logisticRow{x: []float64{in.Specificity, in.SpeakerGap, in.Terms}, offset: in.ShareOffset,
			y: target(it.s), w: float64(largest) / float64(n[it.set])})
	}
	b, err := fitLogistic(rows, penalty)
	if err != nil {
		return metamemory.Coefficients{}, err
	}
	return metamemory.Coefficients{Intercept: b[0], Specificity: b[1], SpeakerGap: b[2], Terms: b[3]}, nil
}

// stratifiedFolds deals the items into folds: grouped by set and target (in that order), each
// group in the order of a seeded shuffle, and dealt round-robin by one counter running through
// the groups, so every fold holds each group's share give or take one and the folds' sizes
// differ by at most one.
func stratifiedFolds(items []fokItem, folds int, seed uint64) []int {
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	// The shuffle first, then a stable sort by stratum: each stratum keeps the shuffle's order.
	rand.New(rand.NewPCG(seed, 0x666f6b)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	stratum := func(i int) int { return items[i].set*2 + int(target(items[i].s)) }
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(stratum(a), stratum(b)) })
	fold := make([]int, len(items))
	for k, i := range order {
		fold[i] = k % folds
	}
	return fold
}

// WriteText prints the report.
func (rep *FoKFitReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "feeling of knowing: logistic regression (Newton), L2 penalty %g on the slopes, share prior a fixed offset, sets weighted equally\n\n", rep.Penalty)
	fmt.Fprintln(w, "| coefficients | intercept | specificity | speaker gap | terms |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for _, c := range []struct {
		name string
		c    metamemory.Coefficients
	}{{"shipped (metamemory/probability.go)", rep.Shipped}, {"refit on every question (in sample)", rep.InSample}} {
		fmt.Fprintf(w, "| %s | %.2f | %.2f | %.2f | %.2f |\n", c.name, c.c.Intercept, c.c.Specificity, c.c.SpeakerGap, c.c.Terms)
	}
	if rep.RecordedDrift > 1e-9 {
		fmt.Fprintf(w, "\nwarning: the files' probabilities differ from the shipped coefficients' by up to %.3g: they were written by another mapping\n", rep.RecordedDrift)
	}
	fmt.Fprintf(w, "\n| set | questions | positives | blank | in sample: base-rate Brier | shipped Brier | refit Brier | %d-fold CV (seed %d): base-rate Brier | Brier | skill |",
		rep.Folds, rep.Seed)
	if rep.Repeats > 1 {
		fmt.Fprintf(w, " skill range, seeds %d-%d |", rep.Seed, rep.Seed+uint64(rep.Repeats)-1)
	}
	fmt.Fprint(w, "\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	if rep.Repeats > 1 {
		fmt.Fprint(w, "---:|")
	}
	fmt.Fprintln(w)
	for _, s := range rep.Sets {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %.4f | %.4f | %.4f | %.4f | %.4f | %+.3f |", s.Name, s.Questions, s.Positives, s.Blank,
			s.InSample.BaseRateBrier, s.InSample.ShippedBrier, s.InSample.RefitBrier,
			s.CrossValidated.BaseRateBrier, s.CrossValidated.Brier, s.CrossValidated.Skill)
		if rep.Repeats > 1 {
			fmt.Fprintf(w, " %+.3f to %+.3f |", s.CrossValidated.SkillMin, s.CrossValidated.SkillMax)
		}
		fmt.Fprintln(w)
	}
}
