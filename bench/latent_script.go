package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

// latentFamilies name the scripted task families (services an agent works on); Families takes
// the first n, repeating with a number when n is larger.
var latentFamilies = []string{"billing", "search", "checkout", "identity", "reports", "ingest", "payments", "notify"}

// scriptFamily is what the script appended for one family: the seqs it will make unusable.
type scriptFamily struct {
	name string
	// failures are the seqs of the migrate failures, oldest first.
	failures []int64
	// preference is the seq of the family's first preference statement.
	preference int64
}

// scriptClock spaces scripted events a minute apart.
type scriptClock struct{ t time.Time }

func (c *scriptClock) ev(typ, session, content string, data any) eventloom.NewEvent {
	c.t = c.t.Add(time.Minute)
	at := c.t
	raw, _ := json.Marshal(data)
	return eventloom.NewEvent{Type: typ, SessionID: session, Content: content, OccurredAt: &at, Data: raw}
}

func (c *scriptClock) tool(session, tool, errText string) eventloom.NewEvent {
	d := map[string]string{"tool": tool, "outcome": "success"}
	if errText != "" {
		d["outcome"], d["error"] = "failure", errText
	}
	return c.ev("tool_call.completed", session, "", d)
}

// scripted runs the fidelity and stale lanes on scripted agent traces: per family four
// sessions of build → test → lint and, in three, a migrate failing on a lock timeout fixed by
// releasing the lock (so the producers mine a procedure, a failure and a causal link), and a
// preference. Then the first failure of each family is invalidated and each preference
// changed; weaves and prospective passes are asked before the projection catches up, after it,
// and after the artifact build, and every claim is checked.
func (l *latentBench) scripted(ctx context.Context) (*StaleReport, error) {
	space := "latent-" + l.run
	rep := &StaleReport{Spaces: 1}
	c := &scriptClock{t: time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)}
	var fams []*scriptFamily
	for i := range l.p.Families {
		name := latentFamilies[i%len(latentFamilies)]
		if i >= len(latentFamilies) {
			name = fmt.Sprintf("%s%d", name, i/len(latentFamilies))
		}
		f := &scriptFamily{name: name}
		fams = append(fams, f)
		for s := 1; s <= 4; s++ {
			sess := fmt.Sprintf("%s-task-%d", name, s)
			evs := []eventloom.NewEvent{c.ev("message", sess, fmt.Sprintf("Change the %s service's rounding rule and ship it (task %d).", name, s), map[string]string{"role": "user"})}
			if s == 2 {
				evs = append(evs, c.ev("decision.recorded", sess, "", map[string]string{"decision": "run the " + name + " schema migration before the tests"}))
			}
			evs = append(evs, c.tool(sess, name+"_build", ""), c.tool(sess, name+"_test", ""), c.tool(sess, name+"_lint", ""))
			migrate := 0
			if s <= 3 {
				migrate = len(evs)
				evs = append(evs, c.tool(sess, name+"_migrate", "lock timeout waiting for the "+name+" schema lock after 30s"),
					c.tool(sess, "release_"+name+"_lock", ""), c.tool(sess, name+"_migrate", ""),
					c.ev("message", sess, "The "+name+" migration failed on a lock timeout; releasing the stale schema lock fixed it.", map[string]string{"role": "assistant"}))
			}
			if s == 4 {
				evs = append(evs, c.ev("preference.stated", "", "", map[string]string{"holder": "user", "topic": name + " report format", "preference": "CSV"}))
			}
			res, err := l.store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: evs})
			if err != nil {
				return nil, err
			}
			if s <= 3 {
				f.failures = append(f.failures, res.Receipts[migrate].Seq)
			}
			if s == 4 {
				f.preference = res.Receipts[len(evs)-1].Seq
			}
		}
	}
	if err := l.prepare(ctx, space); err != nil {
		return nil, err
	}
	ask := func(bad map[int64]bool, phase string) (rejected, leaked int, err error) {
		for _, f := range fams {
			for _, step := range []checkout.StepRequest{
				{Goal: "the " + f.name + " migration failed with a lock timeout", ReasoningPhase: checkout.PhaseAct},
				{Goal: "build, test and lint the " + f.name + " service", ReasoningPhase: checkout.PhasePlan},
				{Goal: "which " + f.name + " report format does the user want", ReasoningPhase: checkout.PhaseOrient},
			} {
				step.SpaceID, step.NoRecord = space, true
				w, err := l.svc.WeaveMemory(ctx, &step)
				if err != nil {
					return 0, 0, err
				}
				rep.Weaves++
				rejected += len(w.Rejected)
				for _, a := range w.Inferred {
					if slices.ContainsFunc(a.Citations, func(c checkout.Citation) bool { return bad[c.Seq] }) {
						leaked++
					}
				}
				if phase != "unprojected" {
					if err := l.checkWeave(ctx, space, w, bad); err != nil {
						return 0, 0, err
					}
				}
			}
			step := &checkout.StepRequest{SpaceID: space, Goal: "build, test and lint the " + f.name + " service, then migrate it", ReasoningPhase: checkout.PhasePlan, NoRecord: true}
			p, err := l.svc.Prospective(ctx, step)
			if err != nil {
				return 0, 0, err
			}
			// Priors are scored where the artifacts are settled: between the change and the
			// build, the family's failure pattern is rejected (stale) until it is derived again.
			if phase == "before" || phase == "rebuilt" {
				rep.Prospective++
				if len(p.ProcedurePriors) > 0 && len(p.FailurePriors) > 0 && slices.Contains(p.ProcedurePriors[0].Steps, f.name+"_build") &&
					p.FailurePriors[0].Tool == f.name+"_migrate" {
					rep.PriorHits++
				}
			}
			for _, pr := range append(append(p.ProcedurePriors, p.CausalContext...), priorsOf(p.FailurePriors)...) {
				if slices.ContainsFunc(pr.Citations, func(c checkout.Citation) bool { return bad[c.Seq] }) {
					leaked++
				}
			}
			if phase != "unprojected" {
				var cites []checkout.Citation
				for _, pr := range append(p.ProcedurePriors, p.CausalContext...) {
					cites = append(cites, pr.Citations...)
				}
				for _, fp := range p.FailurePriors {
					cites = append(cites, fp.Citations...)
				}
				if err := l.checkWeave(ctx, space, p.Weave, bad); err != nil {
					return 0, 0, err
				}
				if err := l.checkClaims(ctx, space, cites, bad); err != nil {
					return 0, 0, err
				}
			}
		}
		return rejected, leaked, nil
	}
	if _, _, err := ask(map[int64]bool{}, "before"); err != nil {
		return nil, err
	}
	// The changes: each family's first failure invalidated, its preference changed.
	var changes []eventloom.NewEvent
	var superseded []int64
	for _, f := range fams {
		changes = append(changes,
			c.ev("memory.invalidated", "", "", map[string]any{"target_seq": f.failures[0], "reason": "the failure was another service's lock"}),
			c.ev("preference.stated", "", "", map[string]string{"holder": "user", "topic": f.name + " report format", "preference": "JSON"}))
		superseded = append(superseded, f.preference)
	}
	if _, err := l.store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: changes}); err != nil {
		return nil, err
	}
	bad, err := l.unusable(ctx, space, superseded)
	if err != nil {
		return nil, err
	}
	rep.Unusable = len(bad)
	badSeqs := make([]int64, 0, len(bad))
	for s := range bad {
		badSeqs = append(badSeqs, s)
	}
	var citing []string
	rows, err := l.p.Pool.Query(ctx, `SELECT artifact_id FROM latent_artifacts WHERE space_id = $1 AND source_seqs && $2`, space, badSeqs)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		citing = append(citing, id)
	}
	rows.Close()
	rep.ArtifactsCiting = len(citing)

	// Before the projection: invalidations are read from the log.
	if _, rep.LeakedUnprojected, err = ask(bad, "unprojected"); err != nil {
		return nil, err
	}
	// Projected, artifacts not rebuilt: query-time verification.
	if _, err := l.p.Projector.ProjectSpace(ctx, space); err != nil {
		return nil, err
	}
	rejected, leaked, err := ask(bad, "projected")
	if err != nil {
		return nil, err
	}
	rep.RejectedBeforeRebuild, rep.Leaked = rejected, leaked
	// Rebuilt: the artifacts citing them are stale.
	if err := l.prepare(ctx, space); err != nil {
		return nil, err
	}
	if err := l.p.Pool.QueryRow(ctx, `SELECT count(*) FROM latent_artifacts WHERE space_id = $1 AND artifact_id = ANY ($2) AND stale_at IS NOT NULL`,
		space, citing).Scan(&rep.MarkedStale); err != nil {
		return nil, err
	}
	rejected, leaked, err = ask(bad, "rebuilt")
	if err != nil {
		return nil, err
	}
	rep.RejectedAfterRebuild, rep.Leaked = rejected, rep.Leaked+leaked
	if err := l.checkChain(ctx, space); err != nil {
		return nil, err
	}
	return rep, nil
}

// priorsOf views failure priors as priors (their citations).
func priorsOf(fs []checkout.FailurePrior) []checkout.Prior {
	out := make([]checkout.Prior, len(fs))
	for i, f := range fs {
		out[i] = checkout.Prior{ArtifactID: f.ArtifactID, Type: "failure", Citations: f.Citations}
	}
	return out
}
