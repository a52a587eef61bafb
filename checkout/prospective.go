package checkout

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/vocab"
)

// Prospective runs the prospective pass before a step: the weave (half the budget) plus the
// procedure priors, failure priors and causal context whose words the goal shares, each citing
// events verified at query time, the reviewed skill entries the goal matches
// (prospective_skills.go), and explicit missing-evidence warnings. Everything is read
// precomputed from latent_current; nothing is derived at query time. It records the weave as
// WeaveMemory does.
func (s *Service) Prospective(ctx context.Context, r *StepRequest) (*Prospective, error) {
	start := time.Now()
	req, err := stepRequest(r, DefaultProspectiveTokens)
	if err != nil {
		return nil, err
	}
	w, rk, err := s.stepWeave(ctx, req, req.MaxTokens/2)
	if err != nil {
		return nil, err
	}
	mech := mechanismOf(rk.usedPolicy())
	rows, err := queries.ProspectivePriors(ctx, s.pool, dbsqlc.ProspectivePriorsParams{SpaceID: req.SpaceID, MaxRows: int32(mech.PriorRows)})
	if err != nil {
		return nil, fmt.Errorf("read priors: %w", err)
	}
	p := &Prospective{SpaceID: req.SpaceID, Goal: req.Query, ReasoningPhase: w.ReasoningPhase, Purpose: w.Purpose, Weave: w,
		ProcedurePriors: []Prior{}, FailurePriors: []FailurePrior{}, CausalContext: []Prior{}, Skills: []Skill{}, MissingEvidence: []Warning{}}
	// Match every current prior against the goal's words, keep the best PriorVerify of each
	// type, verify them (one query), and take the first MaxPriors that verify.
	goal := rk.usedQuestion().words
	type match struct {
		row   dbsqlc.ProspectivePriorsRow
		words []string
		score float64
	}
	byType := map[string][]match{}
	for _, row := range rows {
		if row.Confidence == 0 {
			continue // withdrawn: revised to 0 (docs/latent.md, "Withdrawing an artifact")
		}
		words := sharedWords(goal, row.Summary+" "+row.Payload)
		if len(words) == 0 {
			continue
		}
		byType[row.ArtifactType] = append(byType[row.ArtifactType], match{row: row, words: words, score: float64(len(words)) * float64(row.Confidence)})
	}
	var ids []string
	for t, ms := range byType {
		slices.SortStableFunc(ms, func(x, y match) int {
			return cmp.Or(cmp.Compare(y.score, x.score), cmp.Compare(x.row.ArtifactID, y.row.ArtifactID))
		})
		byType[t] = ms[:min(len(ms), mech.PriorVerify)]
		for _, m := range byType[t] {
			ids = append(ids, m.row.ArtifactID)
		}
	}
	scratch := &Weave{}
	arts, err := s.verifyArtifacts(ctx, req.SpaceID, ids, req.AsOf, scratch, newWovenState())
	if err != nil {
		return nil, err
	}
	p.Rejected = nonNilRejected(scratch.Rejected)
	verified := map[string]WeaveArtifact{}
	for _, a := range arts {
		verified[a.ArtifactID] = a
	}
	type pick struct {
		a        WeaveArtifact
		words    []string
		produced float64
	}
	picked := map[string][]pick{}
	for t, ms := range byType {
		for _, m := range ms {
			if a, ok := verified[m.row.ArtifactID]; ok && len(picked[t]) < mech.MaxPriors {
				a.Confidence = m.row.Confidence // as revised
				picked[t] = append(picked[t], pick{a: a, words: m.words, produced: float64(m.row.ProducedConfidence)})
			}
		}
	}
	// What the record lists of the priors: each artifact with the tools it is about.
	var recorded []vocab.SurfacedArtifact
	for _, t := range []string{"procedure", "failure", "causal"} {
		for _, m := range picked[t] {
			recorded = append(recorded, surfacedPrior(m.a))
		}
	}
	for _, m := range picked["procedure"] {
		var pl struct {
			Steps    []string `json:"steps"`
			Sessions []string `json:"sessions"`
		}
		_ = json.Unmarshal(m.a.Payload, &pl)
		p.ProcedurePriors = append(p.ProcedurePriors, Prior{ArtifactID: m.a.ArtifactID, Type: m.a.Type, Summary: m.a.Summary,
			Confidence: m.a.Confidence, ProducedConfidence: m.produced, Steps: pl.Steps, Sessions: len(pl.Sessions), Match: m.words, Label: "suggestive", Citations: m.a.Citations})
	}
	for _, m := range picked["failure"] {
		fp := failurePrior(m.a, m.words, mech.PriorFailureLast)
		fp.ProducedConfidence = m.produced
		if err := s.failureErrors(ctx, req.SpaceID, &fp); err != nil {
			return nil, err
		}
		p.FailurePriors = append(p.FailurePriors, fp)
	}
	for _, m := range picked["causal"] {
		p.CausalContext = append(p.CausalContext, Prior{ArtifactID: m.a.ArtifactID, Type: m.a.Type, Summary: m.a.Summary,
			Confidence: m.a.Confidence, ProducedConfidence: m.produced, Match: m.words, Label: "suggestive", Citations: m.a.Citations})
	}
	if p.Skills, err = s.reviewedSkills(ctx, req.SpaceID, goal, mech.PriorRows, mech.MaxPriors); err != nil {
		return nil, err
	}
	for _, wr := range w.Warnings {
		if wr.Code == WeaveWarnMissingEvidence {
			p.MissingEvidence = append(p.MissingEvidence, wr)
		}
	}
	if len(p.ProcedurePriors) == 0 && !skillCovers(p.Skills, false) {
		p.MissingEvidence = append(p.MissingEvidence, Warning{Code: WeaveWarnMissingEvidence,
			Message: "no recorded procedure shares this goal's words: there is no known way of doing it in memory"})
	}
	if len(p.FailurePriors) == 0 && !skillCovers(p.Skills, true) {
		p.MissingEvidence = append(p.MissingEvidence, Warning{Code: WeaveWarnMissingEvidence,
			Message: "no repeated failure shares this goal's words: absence of a failure prior is not evidence it will succeed"})
	}
	for _, f := range p.FailurePriors {
		if len(f.Fix) == 0 && (len(f.Last) == 0 || f.Last[0].FixSeq == 0) {
			p.MissingEvidence = append(p.MissingEvidence, Warning{Code: WeaveWarnMissingEvidence, ItemID: "artifact:" + f.ArtifactID,
				Message: fmt.Sprintf("no fix is recorded for %s failing with %q", flatLine(f.Tool), f.Error)})
		}
	}
	p.Text = renderProspective(p, mech)
	p.TokenEstimate, p.Tokenizer = rk.count(p.Text), rk.tok.Name()
	if !req.NoRecord && !rk.noSpace {
		if p.SurfacedSeq, err = s.recordSurfaced(ctx, req, &Packet{Purpose: w.Purpose, Tiers: []Tier{}, Budget: Budget{Used: p.TokenEstimate}, Weave: w},
			recorded); err != nil {
			return nil, err
		}
		w.SurfacedSeq = p.SurfacedSeq
	}
	p.TotalMS = float64(time.Since(start).Microseconds()) / 1000
	return p, nil
}

// failurePrior reads a failure artifact's payload into a prior with its sentence and its
// latest n occurrences (at most), newest first.
func failurePrior(a WeaveArtifact, words []string, n int) FailurePrior {
	var pl struct {
		Tool        string              `json:"tool"`
		Error       string              `json:"error"`
		Occurrences []FailureOccurrence `json:"occurrences"`
		Fix         []string            `json:"fix"`
	}
	_ = json.Unmarshal(a.Payload, &pl)
	slices.SortFunc(pl.Occurrences, func(x, y FailureOccurrence) int { return cmp.Compare(y.FailureSeq, x.FailureSeq) })
	last := pl.Occurrences[:min(len(pl.Occurrences), n)]
	var seqs []string
	for _, o := range last {
		seqs = append(seqs, fmt.Sprint(o.FailureSeq))
	}
	text := fmt.Sprintf("last %d times %s failed because: %s (seq %s)", len(last), pl.Tool, pl.Error, strings.Join(seqs, ", "))
	if len(last) == 1 {
		text = fmt.Sprintf("last time %s failed because: %s (seq %s)", pl.Tool, pl.Error, seqs[0])
	}
	if len(pl.Fix) > 0 {
		text += "; fixed by " + strings.Join(pl.Fix, " → ")
	}
	return FailurePrior{ArtifactID: a.ArtifactID, Tool: pl.Tool, Error: pl.Error, Confidence: a.Confidence, Last: last,
		Fix: nonNilStrings(pl.Fix), Text: text, Match: words, Label: "suggestive", Citations: a.Citations}
}

// failureErrors fills the latest occurrences' own error messages from the log and says the
// prior's sentence with the newest one.
func (s *Service) failureErrors(ctx context.Context, space string, f *FailurePrior) error {
	var seqs []int64
	for _, o := range f.Last {
		seqs = append(seqs, o.FailureSeq)
	}
	src, err := s.weaveEvidence(ctx, space, seqs, nil)
	if err != nil {
		return err
	}
	for i := range f.Last {
		var d struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal([]byte(src[f.Last[i].FailureSeq].Data), &d)
		f.Last[i].Error = d.Error
	}
	if len(f.Last) > 0 && f.Last[0].Error != "" {
		f.Text = strings.Replace(f.Text, "because: "+f.Error, "because: "+f.Last[0].Error, 1)
	}
	return nil
}

// sharedWords are the goal words an artifact's text (summary and payload) contains (as words,
// or as parts of a tool name such as go_vet).
func sharedWords(goal []string, text string) []string {
	have := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		have[w] = true
	}
	var out []string
	for _, w := range goal {
		if have[w] {
			out = append(out, w)
		}
	}
	return out
}

// renderProspective is pass p as prompt text: the weave, then the reviewed skills, then the
// priors, each labelled suggestive with its cited seqs (at most m's WeaveSummaryChars of a summary), then the
// missing-evidence warnings.
func renderProspective(p *Prospective, m *Mechanism) string {
	var b strings.Builder
	b.WriteString(p.Weave.Text)
	cites := func(cs []Citation) string {
		var s []string
		for i, c := range cs {
			if i == 6 {
				s = append(s, fmt.Sprintf("+%d more", len(cs)-i))
				break
			}
			s = append(s, fmt.Sprint(c.Seq))
		}
		return "seq " + strings.Join(s, ", ")
	}
	// Each prior is one line, whatever the tool calls it was mined from hold, and what they
	// remembered cannot imitate a marker or a citation (remembered).
	item := func(format string, args ...any) { b.WriteString(flatLine(fmt.Sprintf("- "+format, args...)) + "\n") }
	if len(p.Skills) > 0 {
		b.WriteString("## Reviewed skills (accepted in review; still no fact)\n")
		for _, sk := range p.Skills {
			item("%s (seq %d)", remembered(clipTo(sk.Text, m.WeaveSummaryChars)), sk.Seq)
		}
	}
	if len(p.ProcedurePriors) > 0 {
		b.WriteString("## Procedure priors (suggestive)\n")
		for _, pr := range p.ProcedurePriors {
			item("%s, recurring in %d sessions (confidence %.2f; %s)", remembered(strings.Join(pr.Steps, " → ")), pr.Sessions, pr.Confidence, cites(pr.Citations))
		}
	}
	if len(p.FailurePriors) > 0 {
		b.WriteString("## Failure priors (suggestive)\n")
		for _, f := range p.FailurePriors {
			item("%s (confidence %.2f)", remembered(f.Text), f.Confidence)
		}
	}
	if len(p.CausalContext) > 0 {
		b.WriteString("## Causal context (suggestive hypotheses)\n")
		for _, c := range p.CausalContext {
			item("%s (confidence %.2f; %s)", remembered(clipTo(c.Summary, m.WeaveSummaryChars)), c.Confidence, cites(c.Citations))
		}
	}
	if len(p.MissingEvidence) > 0 {
		b.WriteString("## Missing evidence\n")
		for _, m := range p.MissingEvidence {
			item("%s", remembered(m.Message))
		}
	}
	return b.String()
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilRejected(r []RejectedArtifact) []RejectedArtifact {
	if r == nil {
		return []RejectedArtifact{}
	}
	return r
}

// surfacedPrior is a prior's artifact as the pass's record lists it: its id, type, the tools
// it is about (a procedure's steps, a failure pattern's or causal link's tool), confidence and
// cited events.
func surfacedPrior(a WeaveArtifact) vocab.SurfacedArtifact {
	out := vocab.SurfacedArtifact{ArtifactID: a.ArtifactID, Type: a.Type, Confidence: a.Confidence, Seqs: []int64{}}
	for _, c := range a.Citations {
		out.Seqs = append(out.Seqs, c.Seq)
	}
	out.Tools = latent.ToolsOf(a.Type, a.Payload)
	return out
}
