package memoryaction

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/validation"
)

// PriorParams asks for procedure or failure priors: artifacts ranked for a goal, a tool
// sequence, or both.
type PriorParams struct {
	SpaceID string
	// Goal is what the agent is about to do, in words; optional when Tools is given.
	Goal string
	// Tools is the planned tool sequence, in order; optional when Goal is given.
	Tools []string
	// Limit is how many priors to return, 1–50; defaults to 5.
	Limit int
	// Recording is where the answer is recorded (memory_action.surfaced).
	Recording `json:"-"`
}

// validate normalizes the tools and checks that the request asks for something.
func (p *PriorParams) validate() error {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return err
	}
	tools, err := normTools("tools", p.Tools, false)
	if err != nil {
		return err
	}
	p.Tools = tools
	if strings.TrimSpace(p.Goal) == "" && len(p.Tools) == 0 {
		return &validation.Error{Field: "goal", Message: "is required (or give tools)"}
	}
	if err := text("goal", p.Goal, maxGoalChars); err != nil {
		return err
	}
	p.Limit, err = limit(p.Limit)
	if err != nil {
		return err
	}
	return p.Recording.validate()
}

// procedurePayload is the part of a procedure artifact's payload the actions read.
type procedurePayload struct {
	Steps    []string `json:"steps"`
	Sessions []string `json:"sessions"`
}

// failurePayload is the part of a failure artifact's payload the actions read.
type failurePayload struct {
	Tool  string   `json:"tool"`
	Error string   `json:"error"`
	Fix   []string `json:"fix"`
}

// lcs is the length of the longest common subsequence of a and b: how many of a procedure's
// steps a plan runs in the procedure's order.
func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	for i := range a {
		cur := make([]int, len(b)+1)
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev = cur
	}
	return prev[len(b)]
}

// procedureRelevance scores a procedure for a plan and a goal, 0 to 1: the steps the plan runs
// in order over the longer of the two (a plan that runs exactly the procedure scores 1), and
// the share of the goal's words in the procedure's text; weighted 0.7/0.3 when both are given.
func procedureRelevance(steps, tools []string, goal map[string]bool, summary string) (float64, string) {
	var toolRel, goalRel float64
	var why []string
	if len(tools) > 0 && len(steps) > 0 {
		n := lcs(steps, tools)
		toolRel = float64(n) / float64(max(len(steps), len(tools)))
		if n > 0 {
			why = append(why, fmt.Sprintf("the plan runs %d of its %d steps in order", n, len(steps)))
		}
	}
	if len(goal) > 0 {
		goalRel = overlap(goal, summary+" "+strings.Join(steps, " "))
		if goalRel > 0 {
			why = append(why, fmt.Sprintf("%.0f%% of the goal's words", 100*goalRel))
		}
	}
	return blend(len(tools) > 0, len(goal) > 0, toolRel, goalRel), strings.Join(why, "; ")
}

// failureRelevance scores a failure pattern: 1 when the plan runs its tool, and the share of
// the goal's words in its tool, error and summary; weighted 0.7/0.3 when both are given.
func failureRelevance(f failurePayload, tools []string, goal map[string]bool, summary string) (float64, string) {
	var toolRel, goalRel float64
	var why []string
	if slices.Contains(tools, f.Tool) {
		toolRel = 1
		why = append(why, fmt.Sprintf("the plan runs %s", f.Tool))
	}
	if len(goal) > 0 {
		goalRel = overlap(goal, f.Tool+" "+f.Error+" "+summary)
		if goalRel > 0 {
			why = append(why, fmt.Sprintf("%.0f%% of the goal's words", 100*goalRel))
		}
	}
	return blend(len(tools) > 0, len(goal) > 0, toolRel, goalRel), strings.Join(why, "; ")
}

func blend(haveTools, haveGoal bool, toolRel, goalRel float64) float64 {
	switch {
	case haveTools && haveGoal:
		return 0.7*toolRel + 0.3*goalRel
	case haveTools:
		return toolRel
	default:
		return goalRel
	}
}

// rank keeps the artifacts with a positive score, best first (score, then confidence, then
// id, so equal inputs always give the same order), at most n.
func rank(arts []Artifact, n int) []Artifact {
	kept := slices.DeleteFunc(arts, func(a Artifact) bool { return a.Score <= 0 })
	if kept == nil {
		kept = []Artifact{} // a list, never null
	}
	slices.SortFunc(kept, func(x, y Artifact) int {
		return cmp.Or(cmp.Compare(y.Score, x.Score), cmp.Compare(y.Confidence, x.Confidence), cmp.Compare(x.ID, y.ID))
	})
	if len(kept) > n {
		kept = kept[:n]
	}
	return kept
}

// ProcedurePrior is retrieve_procedure_prior: the space's current procedure artifacts ranked
// by relevance to the goal and tool sequence times their confidence, each with the events it
// cites. Stale procedures are never returned.
func (a *Actions) ProcedurePrior(ctx context.Context, p PriorParams) (*Priors, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	arts, err := a.scoredProcedures(ctx, p.SpaceID, p.Tools, tokens(p.Goal))
	if err != nil {
		return nil, err
	}
	return a.recordPriors(ctx, p, priors(ActionProcedurePrior, rank(arts, p.Limit)))
}

// FailurePrior is retrieve_failure_prior: the space's current failure patterns ranked by
// relevance to the goal and tool sequence times their confidence ("last times this failed
// because ..."), each with the events it cites.
func (a *Actions) FailurePrior(ctx context.Context, p PriorParams) (*Priors, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	arts, err := a.scoredFailures(ctx, p.SpaceID, p.Tools, tokens(p.Goal))
	if err != nil {
		return nil, err
	}
	return a.recordPriors(ctx, p, priors(ActionFailurePrior, rank(arts, p.Limit)))
}

// recordPriors records what pr surfaced for p (unless p says not to) and returns pr.
func (a *Actions) recordPriors(ctx context.Context, p PriorParams, pr *Priors) (*Priors, error) {
	rec := p.Recording
	p.Recording = Recording{}
	var err error
	pr.Record, err = a.record(ctx, pr.Action, p.SpaceID, rec, p, p.Tools, surfacedArtifacts(pr.Priors), pr.SourceEventRefs)
	return pr, err
}

func priors(action string, ranked []Artifact) *Priors {
	if ranked == nil {
		ranked = []Artifact{}
	}
	return &Priors{Action: action, Priors: ranked, SourceEventRefs: citations(artifactCitations(ranked)), Use: nonAuthoritativeUseLabel}
}

// scoredProcedures are the current procedures with Score and Why set (unranked).
func (a *Actions) scoredProcedures(ctx context.Context, space string, tools []string, goal map[string]bool) ([]Artifact, error) {
	arts, err := a.artifacts(ctx, space, []string{latent.TypeProcedure}, nil)
	if err != nil {
		return nil, err
	}
	for i := range arts {
		var pl procedurePayload
		if err := json.Unmarshal(arts[i].Payload, &pl); err != nil {
			return nil, fmt.Errorf("procedure %s payload: %w", arts[i].ID, err)
		}
		rel, why := procedureRelevance(pl.Steps, tools, goal, arts[i].Summary)
		arts[i].Score, arts[i].Why = rel*arts[i].Confidence, why
	}
	return arts, nil
}

// scoredFailures are the current failure patterns with Score and Why set (unranked).
func (a *Actions) scoredFailures(ctx context.Context, space string, tools []string, goal map[string]bool) ([]Artifact, error) {
	arts, err := a.artifacts(ctx, space, []string{latent.TypeFailure}, nil)
	if err != nil {
		return nil, err
	}
	for i := range arts {
		var pl failurePayload
		if err := json.Unmarshal(arts[i].Payload, &pl); err != nil {
			return nil, fmt.Errorf("failure %s payload: %w", arts[i].ID, err)
		}
		rel, why := failureRelevance(pl, tools, goal, arts[i].Summary)
		arts[i].Score, arts[i].Why = rel*arts[i].Confidence, why
	}
	return arts, nil
}
