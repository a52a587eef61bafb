package memoryaction

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryaction/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// SimulateParams is a candidate plan to walk before running it.
type SimulateParams struct {
	SpaceID string
	// Goal is what the plan is for, optional.
	Goal string
	// Steps are the plan's tools, in order (1–32).
	Steps []string
	// Recording is where the answer is recorded (memory_action.surfaced).
	Recording `json:"-"`
}

// causalPayload is the part of a causal artifact's payload the actions read.
type causalPayload struct {
	Session  string `json:"session"`
	Cause    int64  `json:"cause_seq"`
	Effect   int64  `json:"effect_seq"`
	Fix      int64  `json:"fix_seq"`
	Decision string `json:"decision"`
	Tool     string `json:"tool"`
	Error    string `json:"error"`
	// Outcome is the status of the outcome that cites the cause, on a link an outcome states.
	Outcome string `json:"outcome"`
}

// SimulateForward is simulate_forward: it walks the plan's steps against the space's current
// procedure, failure and causal artifacts and its known unknowns, and returns the procedures
// the plan follows, the risks at each step (failure patterns and causal links of its tool)
// and the evidence needed before relying on it: a step no procedure covers, a step a
// procedure usually precedes with another, a remembered failure to check for, an open
// question. Every item cites its events; nothing is appended.
func (a *Actions) SimulateForward(ctx context.Context, p SimulateParams) (*Simulation, error) {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	steps, err := normTools("steps", p.Steps, true)
	if err != nil {
		return nil, err
	}
	if err := text("goal", p.Goal, maxGoalChars); err != nil {
		return nil, err
	}
	if err := p.Recording.validate(); err != nil {
		return nil, err
	}
	goal := tokens(p.Goal)
	sim := &Simulation{Action: ActionSimulateForward, Steps: steps, Risks: []Risk{}, EvidenceNeeds: []EvidenceNeed{},
		KnownUnknowns: []KnownUnknown{}, Use: nonAuthoritativeUseLabel}

	procs, err := a.scoredProcedures(ctx, p.SpaceID, steps, goal)
	if err != nil {
		return nil, err
	}
	sim.Procedures = rank(procs, defaultLimit)
	covered := make([]bool, len(steps))
	for _, pr := range sim.Procedures {
		var pl procedurePayload
		if err := json.Unmarshal(pr.Payload, &pl); err != nil {
			return nil, err
		}
		sim.EvidenceNeeds = append(sim.EvidenceNeeds, coverage(pr, pl.Steps, steps, covered)...)
	}
	for i, s := range steps {
		if !covered[i] {
			sim.EvidenceNeeds = append(sim.EvidenceNeeds, EvidenceNeed{Step: i, SourceEventRefs: []SourceRef{},
				Need: fmt.Sprintf("no recurring procedure in memory runs %s at this point; confirm its result before relying on it", s)})
		}
	}

	if err := a.risks(ctx, p.SpaceID, steps, sim); err != nil {
		return nil, err
	}
	kus, err := a.knownUnknowns(ctx, p.SpaceID, steps, goal)
	if err != nil {
		return nil, err
	}
	for _, ku := range kus {
		sim.KnownUnknowns = append(sim.KnownUnknowns, ku)
		sim.EvidenceNeeds = append(sim.EvidenceNeeds, EvidenceNeed{Step: -1, Need: "open question recorded earlier: " + ku.Question,
			SourceEventRefs: []SourceRef{{Seq: ku.Seq, Hash: ku.Hash}}})
	}
	refs := artifactCitations(sim.Procedures)
	for _, r := range sim.Risks {
		refs = append(refs, r.SourceEventRefs...)
	}
	for _, n := range sim.EvidenceNeeds {
		refs = append(refs, n.SourceEventRefs...)
	}
	sim.SourceEventRefs = citations(refs)
	// The record lists the procedures, then each risk's artifact once.
	arts := surfacedArtifacts(sim.Procedures)
	seen := map[string]bool{}
	for _, pr := range sim.Procedures {
		seen[pr.ID] = true
	}
	for _, r := range sim.Risks {
		if seen[r.ArtifactID] {
			continue
		}
		seen[r.ArtifactID] = true
		risk := vocab.SurfacedArtifact{ArtifactID: r.ArtifactID, Type: r.Kind, Tools: []string{r.Tool}, Confidence: r.Confidence, Seqs: []int64{}}
		for _, ref := range r.SourceEventRefs {
			risk.Seqs = append(risk.Seqs, ref.Seq)
		}
		arts = append(arts, risk)
	}
	rec := p.Recording
	p.Recording, p.Steps = Recording{}, steps
	sim.Record, err = a.record(ctx, ActionSimulateForward, p.SpaceID, rec, p, steps, arts, sim.SourceEventRefs)
	return sim, err
}

// coverage marks the plan's steps a procedure runs (in the procedure's order) as covered, and
// returns the evidence needs of the steps the procedure runs that the plan leaves out between
// two steps it does run.
func coverage(pr Artifact, procSteps, plan []string, covered []bool) []EvidenceNeed {
	var needs []EvidenceNeed
	j := 0 // next procedure step to find
	last := -1
	for i, s := range plan {
		if j >= len(procSteps) {
			break
		}
		k := slices.Index(procSteps[j:], s)
		if k < 0 {
			continue
		}
		if k > 0 && last >= 0 {
			needs = append(needs, EvidenceNeed{Step: i, ArtifactID: pr.ID, SourceEventRefs: pr.SourceEventRefs,
				Need: fmt.Sprintf("the remembered procedure runs %s before %s; the plan skips it", strings.Join(procSteps[j:j+k], " → "), s)})
		}
		covered[i] = true
		j += k + 1
		last = i
	}
	return needs
}

// risks adds the failure patterns and causal links of the plan's tools to sim.
func (a *Actions) risks(ctx context.Context, space string, steps []string, sim *Simulation) error {
	arts, err := a.artifacts(ctx, space, []string{latent.TypeFailure, latent.TypeCausal}, nil)
	if err != nil {
		return err
	}
	for _, art := range arts {
		var tool, errText, outcome string
		var fix []string
		if art.Type == latent.TypeFailure {
			var pl failurePayload
			if err := json.Unmarshal(art.Payload, &pl); err != nil {
				return err
			}
			tool, errText, fix = pl.Tool, pl.Error, pl.Fix
		} else {
			var pl causalPayload
			if err := json.Unmarshal(art.Payload, &pl); err != nil {
				return err
			}
			tool, errText, outcome = pl.Tool, pl.Error, pl.Outcome
		}
		for i, s := range steps {
			if s != tool {
				continue
			}
			sim.Risks = append(sim.Risks, Risk{Step: i, Tool: s, Kind: art.Type, ArtifactID: art.ID, Summary: art.Summary,
				Confidence: art.Confidence, Fix: fix, SourceEventRefs: art.SourceEventRefs})
			need := fmt.Sprintf("check %s's result for %q, which memory saw before", s, errText)
			switch {
			case art.Type == latent.TypeCausal && outcome != "":
				need = fmt.Sprintf("a %s outcome cited %s failing with %q as its cause; check whether it applies", outcome, s, errText)
			case art.Type == latent.TypeCausal:
				need = fmt.Sprintf("a recorded decision was followed by %s failing with %q; check whether it applies", s, errText)
			case len(fix) > 0:
				need += "; the remembered fix is " + strings.Join(fix, " → ")
			}
			sim.EvidenceNeeds = append(sim.EvidenceNeeds, EvidenceNeed{Step: i, Need: need, ArtifactID: art.ID, SourceEventRefs: art.SourceEventRefs})
		}
	}
	slices.SortStableFunc(sim.Risks, func(x, y Risk) int { return x.Step - y.Step })
	slices.SortStableFunc(sim.EvidenceNeeds, func(x, y EvidenceNeed) int { return x.Step - y.Step })
	return nil
}

// knownUnknowns are the space's recent known unknowns whose question names one of tools or
// shares a word with the goal, newest first.
func (a *Actions) knownUnknowns(ctx context.Context, space string, tools []string, goal map[string]bool) ([]KnownUnknown, error) {
	rows, err := queries.KnownUnknowns(ctx, a.db, dbKnownUnknownsParams(space))
	if err != nil {
		return nil, fmt.Errorf("read known unknowns: %w", err)
	}
	var out []KnownUnknown
	for _, r := range rows {
		q := strings.ToLower(r.Question + " " + r.Context)
		match := overlap(goal, q) > 0
		for _, t := range tools {
			match = match || strings.Contains(q, t)
		}
		if match {
			out = append(out, KnownUnknown{Seq: r.Seq, Hash: hex.EncodeToString(r.Hash), SessionID: r.SessionID, Question: r.Question, Context: r.Context})
		}
	}
	return out, nil
}

func dbKnownUnknownsParams(space string) dbsqlc.KnownUnknownsParams {
	return dbsqlc.KnownUnknownsParams{SpaceID: space, MaxRows: maxKnownUnknownsConsidered}
}
