package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/policy"
	"github.com/zaxy/zaxy/projection"
)

// PolicyLaneFile is one dev file of the policy lane.
type PolicyLaneFile struct {
	Dataset, File string
	Cases         []Case
}

// PolicyLaneParams is what RunPolicyLane measures (`zaxy bench latent-policy`).
type PolicyLaneParams struct {
	Files []PolicyLaneFile
	// Cases and Questions cap each file's cases and each case's questions (0: all).
	Cases, Questions int
	Pool             *pgxpool.Pool
	Projector        *projection.Projector
	Embedder         *projection.Embedder
	Provider         embedding.Embedder
	TextSearchConfig string
	// Options configure the measuring runs (K, PacketTokens, Logger); Out, Reuse and Limit are
	// set by RunPolicyLane.
	Options Options
}

// LaneNumbers are one run's fused scores the policy lane compares.
type LaneNumbers struct {
	TurnRecallAny10    float64 `json:"turn_recall_any@10"`
	TurnRecallAll10    float64 `json:"turn_recall_all@10"`
	TurnNDCG10         float64 `json:"turn_ndcg@10"`
	SessionRecallAny10 float64 `json:"session_recall_any@10"`
	PacketEvidence     float64 `json:"packet_evidence"`
}

// PolicyLaneRow is one file and split: the built-in policy's numbers and the fitted one's.
type PolicyLaneRow struct {
	Dataset   string      `json:"dataset"`
	Split     string      `json:"split"`
	Cases     int         `json:"cases"`
	Questions int         `json:"questions"`
	Builtin   LaneNumbers `json:"builtin"`
	Fitted    LaneNumbers `json:"fitted"`
}

// PolicyLaneReport is the policy lane's result.
type PolicyLaneReport struct {
	Fitted *checkout.Policy      `json:"fitted"`
	Fit    policy.FitDiagnostics `json:"fit"`
	// TrainCheckouts and TrainFeedback count the recorded checkouts and feedback events the fit
	// learned from.
	TrainCheckouts int             `json:"train_checkouts"`
	TrainFeedback  int             `json:"train_feedback"`
	Rows           []PolicyLaneRow `json:"rows"`
	// PassesDevGate says whether the regression gate's dev half would promote the fitted
	// version: no row's turn recall_any@10 or recall_all@10 below the built-in policy's.
	PassesDevGate bool    `json:"passes_dev_gate"`
	WallSeconds   float64 `json:"wall_seconds"`
}

// RunPolicyLane is the policy measurement lane: it ingests the training cases of each dev file
// (every other case, in file order), plays an agent that checks out their questions and judges
// the surfaced items by the labelled evidence (helpful when an item cites an evidence turn,
// unhelpful otherwise; a checkout with only one kind gets no feedback), fits a policy to those
// judged checkouts (policy.Service.FitSpaces, the offline fit `zaxy policy fit` runs on one
// space), then ingests the training and the held-out cases afresh and measures the default built-in policy and
// the fitted policy on them (the training spaces' feedback changed their salience, so they are
// not measured). It never proposes the policy in any space.
func RunPolicyLane(ctx context.Context, p *PolicyLaneParams) (*PolicyLaneReport, error) {
	start := time.Now()
	store := eventloom.NewStore(p.Pool, nil, p.Options.Logger)
	builtin := checkout.BuiltinPolicy()
	rep := &PolicyLaneReport{}
	type prepared struct {
		file          PolicyLaneFile
		train, listen []Case
	}
	var files []*prepared
	var trainSpaces []string
	co := checkout.New(p.Pool, store, checkout.Config{TextSearchConfig: p.TextSearchConfig, Embedder: p.Provider, Policy: builtin})
	for _, f := range p.Files {
		cases := capCases(f.Cases, p.Cases, p.Questions)
		pf := &prepared{file: PolicyLaneFile{Dataset: f.Dataset, File: f.File, Cases: cases}}
		for i, c := range cases {
			if i%2 == 0 {
				pf.train = append(pf.train, c)
			} else {
				pf.listen = append(pf.listen, c)
			}
		}
		// The training cases are ingested into spaces of their own: the judging's feedback
		// changes their salience, which must not reach the measured spaces.
		params := &DatasetParams{Dataset: f.Dataset, File: f.File, Cases: pf.train, Pool: p.Pool, Projector: p.Projector, Embedder: p.Embedder,
			Provider: p.Provider, TextSearchConfig: p.TextSearchConfig, Options: p.Options}
		params.Options.Out, params.Options.Reuse, params.Options.Limit = nil, "", 0
		sum, err := RunPolicy(ctx, params, builtin)
		if err != nil {
			return nil, fmt.Errorf("%s: ingest the training cases: %w", f.Dataset, err)
		}
		for i := range pf.train {
			c := &pf.train[i]
			space := spaceID(c, sum.Run)
			n, fb, err := judgeCase(ctx, co, store, space, c)
			if err != nil {
				return nil, fmt.Errorf("%s: train on %s: %w", f.Dataset, c.ID, err)
			}
			rep.TrainCheckouts += n
			rep.TrainFeedback += fb
			trainSpaces = append(trainSpaces, space)
		}
		files = append(files, pf)
	}
	fitted, diag, err := policy.New(p.Pool, store).FitSpaces(ctx, trainSpaces, builtin)
	if err != nil {
		return nil, err
	}
	rep.Fitted, rep.Fit, rep.PassesDevGate = fitted, diag, true
	for _, pf := range files {
		for _, split := range []struct {
			name  string
			cases []Case
		}{{"train", pf.train}, {"held-out", pf.listen}} {
			if len(split.cases) == 0 {
				continue
			}
			row := PolicyLaneRow{Dataset: pf.file.Dataset, Split: split.name, Cases: len(split.cases)}
			run := "" // fresh spaces for the built-in policy's run; the fitted policy asks them again
			for i, pol := range []*checkout.Policy{builtin, fitted} {
				params := &DatasetParams{Dataset: pf.file.Dataset, File: pf.file.File, Cases: split.cases, Pool: p.Pool, Projector: p.Projector,
					Embedder: p.Embedder, Provider: p.Provider, TextSearchConfig: p.TextSearchConfig, Options: p.Options}
				params.Options.Out, params.Options.Reuse, params.Options.Limit = nil, run, 0
				sum, err := RunPolicy(ctx, params, pol)
				if err != nil {
					return nil, fmt.Errorf("%s %s with %s: %w", pf.file.Dataset, split.name, pol.Version, err)
				}
				run = sum.Run
				o := sum.Overall
				n := LaneNumbers{TurnRecallAny10: o.Fused.Turn.RecallAny10, TurnRecallAll10: o.Fused.Turn.RecallAll10, TurnNDCG10: o.Fused.Turn.NDCG10,
					SessionRecallAny10: o.Fused.Session.RecallAny10, PacketEvidence: o.PacketEvidence}
				row.Questions = sum.Questions
				if i == 0 {
					row.Builtin = n
				} else {
					row.Fitted = n
				}
			}
			if row.Fitted.TurnRecallAny10 < row.Builtin.TurnRecallAny10 || row.Fitted.TurnRecallAll10 < row.Builtin.TurnRecallAll10 {
				rep.PassesDevGate = false
			}
			rep.Rows = append(rep.Rows, row)
		}
	}
	rep.WallSeconds = time.Since(start).Seconds()
	return rep, nil
}

// capCases keeps at most maxCases cases and maxQuestions questions of each (0: all).
func capCases(cases []Case, maxCases, maxQuestions int) []Case {
	if maxCases > 0 && len(cases) > maxCases {
		cases = cases[:maxCases]
	}
	out := make([]Case, len(cases))
	for i, c := range cases {
		if maxQuestions > 0 && len(c.Questions) > maxQuestions {
			c.Questions = c.Questions[:maxQuestions]
		}
		out[i] = c
	}
	return out
}

// judgeCase checks out every answerable question of c in space (recorded, without a session,
// as the bench asks) and appends feedback judging the fused items it surfaced by the labelled
// evidence (naming the checkout by checkout_seq). It returns the checkouts and feedback events it recorded.
func judgeCase(ctx context.Context, co *checkout.Service, store *eventloom.Store, space string, c *Case) (int, int, error) {
	refs, err := readTurns(ctx, store, space, c, &caseResult{})
	if err != nil {
		return 0, 0, err
	}
	checkouts, feedback := 0, 0
	for i := range c.Questions {
		q := &c.Questions[i]
		if q.Abstain || len(q.EvidenceTurns) == 0 {
			continue
		}
		asOf := q.Date
		if asOf.IsZero() {
			asOf = time.Now()
		}
		pk, err := co.Checkout(ctx, &checkout.Request{SpaceID: space, Query: q.Text, AsOf: &asOf})
		if err != nil {
			return 0, 0, err
		}
		checkouts++
		var helpful, unhelpful []string
		for _, t := range pk.Tiers {
			for _, it := range t.Items {
				if len(it.Components) == 0 {
					continue
				}
				hit := slices.ContainsFunc(it.Citations, func(cit checkout.Citation) bool {
					return slices.Contains(q.EvidenceTurns, refs[cit.Seq].turn)
				})
				if hit {
					helpful = append(helpful, it.ItemID)
				} else {
					unhelpful = append(unhelpful, it.ItemID)
				}
			}
		}
		if len(helpful) == 0 || len(unhelpful) == 0 {
			continue
		}
		var evs []eventloom.NewEvent
		for _, j := range []struct {
			signal string
			ids    []string
		}{{"helpful", helpful}, {"unhelpful", unhelpful}} {
			data, err := json.Marshal(map[string]any{"item_ids": j.ids, "signal": j.signal, "checkout_seq": pk.SurfacedSeq})
			if err != nil {
				return 0, 0, err
			}
			evs = append(evs, eventloom.NewEvent{Type: "feedback.recorded", Actor: "bench", Data: data})
		}
		if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: evs}); err != nil {
			return 0, 0, err
		}
		feedback += len(evs)
	}
	return checkouts, feedback, nil
}

// PrintPolicyLane writes the report as a table.
func PrintPolicyLane(w io.Writer, rep *PolicyLaneReport) {
	fmt.Fprintf(w, "fitted %s from %s on %d judged checkouts (%d pairs; %d checkouts, %d feedback events recorded): replay %.4f -> %.4f; changed %s\n",
		rep.Fitted.Version, checkout.BuiltinPolicyVersion, rep.Fit.Checkouts, rep.Fit.Pairs, rep.TrainCheckouts, rep.TrainFeedback, rep.Fit.BaseMetric, rep.Fit.Metric, strings.Join(rep.Fit.Changed, ", "))
	fmt.Fprintln(w, "| dataset | split | cases | questions | T R@10 builtin / fitted | T all@10 | T NDCG@10 | S R@10 | in packet |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rep.Rows {
		fmt.Fprintf(w, "| %s | %s | %d | %d | %.3f / %.3f | %.3f / %.3f | %.3f / %.3f | %.3f / %.3f | %.3f / %.3f |\n", r.Dataset, r.Split, r.Cases, r.Questions,
			r.Builtin.TurnRecallAny10, r.Fitted.TurnRecallAny10, r.Builtin.TurnRecallAll10, r.Fitted.TurnRecallAll10,
			r.Builtin.TurnNDCG10, r.Fitted.TurnNDCG10, r.Builtin.SessionRecallAny10, r.Fitted.SessionRecallAny10,
			r.Builtin.PacketEvidence, r.Fitted.PacketEvidence)
	}
	verdict := "passes"
	if !rep.PassesDevGate {
		verdict = "fails (zaxy policy promote would refuse it)"
	}
	fmt.Fprintf(w, "dev gate: %s; wall %.1f s\n", verdict, rep.WallSeconds)
}
