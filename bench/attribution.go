package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/retrospective"
	"github.com/zaxy/zaxy/vocab"
)

// AttributionOptions configure the attribution lane.
type AttributionOptions struct {
	// Traces is how many scripted traces to judge (default 180, at least 100): spread evenly
	// over the causes in retrospective.Causes.
	Traces int
	// Seed seeds the generator (default 1).
	Seed uint64
	// Confounded is the share of traces scripted with a confounder that misleads the rules on
	// purpose (default 0.2; negative means none): memory naming the tool in another word form,
	// an unrelated memory mentioning the failing tool, a second unrecovered failure beside a
	// bad plan, an empty checkout before a tool failure, an invalidation recorded outside the
	// session, a decision in a trace that otherwise does not say.
	Confounded float64
}

// ClassScores are the precision, recall and F1 of one cause.
type ClassScores struct {
	Support   int     `json:"support"`
	Predicted int     `json:"predicted"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// AttributionReport is what the lane measured.
type AttributionReport struct {
	Traces     int     `json:"traces"`
	Seed       uint64  `json:"seed"`
	Confounded int     `json:"confounded"`
	Accuracy   float64 `json:"accuracy"`
	// CleanAccuracy and ConfoundedAccuracy split Accuracy by whether the trace was confounded.
	CleanAccuracy      float64                 `json:"clean_accuracy"`
	ConfoundedAccuracy float64                 `json:"confounded_accuracy"`
	MacroF1            float64                 `json:"macro_f1"`
	Classes            map[string]*ClassScores `json:"classes"`
	// Confusion counts label → predicted cause.
	Confusion map[string]map[string]int `json:"confusion"`
	// FalseBlame counts items blamed (feedback-worthy unhelpful) that the script did not mark
	// as misleading; BlameRecall is the share of the scripted misleading items blamed.
	FalseBlame  int     `json:"false_blame"`
	BlameRecall float64 `json:"blame_recall"`
	// ActionTraces are the traces that consulted memory through a recorded memory action
	// (memory_action.surfaced) and ActionVerdicts how many of those the judgement gave the
	// verdict the script meant (blamed, credited or not implicated).
	ActionTraces   int `json:"action_traces"`
	ActionVerdicts int `json:"action_verdicts"`
}

// Attribution runs the attribution lane: it scripts agent traces with known causes (retrieval,
// stale memory, missing evidence, tool failure, planning, and traces that do not say: unknown),
// each with distractors (recovered tool failures, unrelated invalidations, several checkouts,
// memories that name other tools), judges each with retrospective.Attribute, the function the
// retrospective_credit job runs, and scores the causes (macro-F1) and the blamed items.
func Attribution(o AttributionOptions) (*AttributionReport, error) {
	if o.Traces == 0 {
		o.Traces = 180
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	switch {
	case o.Confounded == 0:
		o.Confounded = 0.2
	case o.Confounded < 0:
		o.Confounded = 0
	}
	if o.Traces < 100 {
		return nil, fmt.Errorf("bench attribution: at least 100 traces, got %d", o.Traces)
	}
	rep := &AttributionReport{Traces: o.Traces, Seed: o.Seed, Classes: map[string]*ClassScores{}, Confusion: map[string]map[string]int{}}
	for _, c := range retrospective.Causes {
		rep.Classes[c] = &ClassScores{}
		rep.Confusion[c] = map[string]int{}
	}
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed^0xa77))
	correct, misleading, blamed, confCorrect := 0, 0, 0, 0
	for i := range o.Traces {
		label := retrospective.Causes[i%len(retrospective.Causes)]
		g := &traceGen{rng: rng, cited: map[int64]retrospective.Event{}, confound: rng.Float64() < o.Confounded}
		if g.confound {
			rep.Confounded++
		}
		tr, bad := g.script(label)
		att := retrospective.Attribute(tr)
		got := att.Cause
		rep.Confusion[label][got]++
		rep.Classes[label].Support++
		if c, ok := rep.Classes[got]; ok {
			c.Predicted++
		}
		if got == label {
			correct++
			if g.confound {
				confCorrect++
			}
		}
		if g.expect != "" {
			rep.ActionTraces++
			for _, j := range att.Actions {
				if j.Type == vocab.TypeMemoryActionSurfaced && j.Verdict == g.expect {
					rep.ActionVerdicts++
				}
			}
		}
		misleading += len(bad)
		for _, j := range att.Items {
			if j.Signal != "unhelpful" || j.Confidence < retrospective.MinFeedbackConfidence {
				continue
			}
			if slices.Contains(bad, j.ItemID) {
				blamed++
			} else {
				rep.FalseBlame++
			}
		}
	}
	for _, c := range retrospective.Causes { // in a fixed order: the sum is the same every run
		s := rep.Classes[c]
		tp := rep.Confusion[c][c]
		if s.Predicted > 0 {
			s.Precision = float64(tp) / float64(s.Predicted)
		}
		if s.Support > 0 {
			s.Recall = float64(tp) / float64(s.Support)
		}
		if s.Precision+s.Recall > 0 {
			s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
		}
		rep.MacroF1 += s.F1 / float64(len(rep.Classes))
	}
	rep.Accuracy = float64(correct) / float64(o.Traces)
	if rep.Confounded > 0 {
		rep.ConfoundedAccuracy = float64(confCorrect) / float64(rep.Confounded)
	}
	if clean := o.Traces - rep.Confounded; clean > 0 {
		rep.CleanAccuracy = float64(correct-confCorrect) / float64(clean)
	}
	if misleading > 0 {
		rep.BlameRecall = float64(blamed) / float64(misleading)
	}
	return rep, nil
}

// WriteText prints the report for people.
func (rep *AttributionReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "attribution lane: %d scripted traces (seed %d, %d confounded)\n", rep.Traces, rep.Seed, rep.Confounded)
	fmt.Fprintf(w, "  macro-F1 %.3f  accuracy %.3f (clean %.3f, confounded %.3f)  blame recall %.3f  false blame %d\n",
		rep.MacroF1, rep.Accuracy, rep.CleanAccuracy, rep.ConfoundedAccuracy, rep.BlameRecall, rep.FalseBlame)
	fmt.Fprintf(w, "  memory actions: %d traces consulted memory through one; the verdict the script meant in %d\n",
		rep.ActionTraces, rep.ActionVerdicts)
	for _, c := range retrospective.Causes {
		s := rep.Classes[c]
		fmt.Fprintf(w, "  %-17s support %3d  precision %.3f  recall %.3f  F1 %.3f\n", c, s.Support, s.Precision, s.Recall, s.F1)
	}
}

// Tool names, memory texts and error messages the generator draws from: generic engineering
// vocabulary, no data set's.
var (
	genTools  = []string{"deploy", "migrate", "lint", "compile", "backup", "fetch", "render", "publish", "index", "archive"}
	genTopics = []string{"the release calendar", "the on-call rota", "the style guide", "the budget sheet", "the team offsite",
		"the office wifi", "the design review", "the quarterly goals"}
	genErrors = []string{"timeout after %d s", "exit status %d", "permission denied on port %d", "checksum mismatch in chunk %d", "out of memory at %d MB"}
)

// traceGen scripts one trace.
type traceGen struct {
	rng      *rand.Rand
	confound bool
	seq      int64
	evs      []retrospective.Event
	cited    map[int64]retrospective.Event
	judged   []retrospective.Event
	// expect is the verdict the script means for its recorded memory action ("" when none).
	expect string
}

func (g *traceGen) add(typ, content string, data any) int64 {
	g.seq++
	raw, _ := json.Marshal(data)
	g.evs = append(g.evs, retrospective.Event{Seq: g.seq, Type: typ, Content: content, Data: raw})
	return g.seq
}

// memory adds an earlier event of another session to the space (not to the trace) and returns
// its seq: a note about tool, or about an unrelated topic when tool is "".
func (g *traceGen) memory(tool string) int64 {
	return g.note(tool, fmt.Sprintf("Before running %s, check the %s settings on the shared host.", tool, genTopics[g.rng.IntN(len(genTopics))]))
}

// note adds an earlier event with text (or an unrelated note when tool is "").
func (g *traceGen) note(tool, text string) int64 {
	g.seq++
	if tool == "" {
		text = "Notes on " + genTopics[g.rng.IntN(len(genTopics))] + ": nothing unusual this week."
	}
	g.cited[g.seq] = retrospective.Event{Seq: g.seq, Type: "message", Content: text, Data: json.RawMessage(`{"role":"user"}`)}
	return g.seq
}

func (g *traceGen) checkout(seqs ...int64) int64 {
	items := []map[string]any{}
	for _, s := range seqs {
		items = append(items, map[string]any{"item_id": memoryitem.EventID(s), "seqs": []int64{s}, "tier": "query"})
	}
	return g.add(vocab.TypeCheckoutSurfaced, "", map[string]any{"items": items})
}

// action records a reading memory action (memory_action.surfaced) asked about tools that
// returned arts, artifacts of type kind ("procedure": the tools are its steps; "failure": a
// failure pattern of the one tool), each citing an earlier event.
func (g *traceGen) action(name string, asked []string, arts ...[2]any) int64 {
	list := []vocab.SurfacedArtifact{}
	for i, a := range arts {
		list = append(list, vocab.SurfacedArtifact{ArtifactID: fmt.Sprintf("a%d-%d", g.seq, i), Type: a[0].(string),
			Tools: a[1].([]string), Confidence: 0.8, Seqs: []int64{g.memory(a[1].([]string)[0])}})
	}
	return g.add(vocab.TypeMemoryActionSurfaced, "", vocab.MemoryActionSurfaced{Action: name, Tools: asked, Artifacts: list})
}

// viaAction reports whether this trace consults memory through a memory action rather than
// a checkout (a third of the traces whose cause allows both).
func (g *traceGen) viaAction() bool { return g.rng.IntN(3) == 0 }

func (g *traceGen) call(tool string, ok bool) int64 {
	if ok {
		return g.add(vocab.TypeToolCallCompleted, "", map[string]string{"tool": tool, "outcome": "success"})
	}
	msg := fmt.Sprintf(genErrors[g.rng.IntN(len(genErrors))], 1+g.rng.IntN(900))
	return g.add(vocab.TypeToolCallCompleted, "", map[string]string{"tool": tool, "outcome": "failure", "error": msg})
}

func (g *traceGen) chat(text string) { g.add("message", text, map[string]string{"role": "assistant"}) }

// tools picks n distinct tools.
func (g *traceGen) tools(n int) []string {
	p := g.rng.Perm(len(genTools))
	out := make([]string, n)
	for i := range out {
		out[i] = genTools[p[i]]
	}
	return out
}

// unrelated are k memories about no tool, or about the tools in avoid's complement.
func (g *traceGen) unrelated(k int, avoid string) []int64 {
	var out []int64
	for range k {
		tool := ""
		if g.rng.IntN(2) == 0 {
			for tool == "" || tool == avoid {
				tool = genTools[g.rng.IntN(len(genTools))]
			}
		}
		out = append(out, g.memory(tool))
	}
	return out
}

// noise adds distractors every trace may hold: a recovered failure of a side tool, chatter,
// an invalidation of a memory that was never surfaced.
func (g *traceGen) noise(side string) {
	if g.rng.IntN(2) == 0 {
		g.call(side, false)
		g.call(side, true)
	}
	if g.rng.IntN(2) == 0 {
		g.chat("Looking at the next step now.")
	}
	if g.rng.IntN(3) == 0 {
		never := g.memory("")
		g.add(vocab.TypeMemoryInvalidated, "", map[string]any{"target_seq": never, "reason": "superseded"})
	}
}

// status is a failure or partial outcome, declared or (when undeclared) left to classification.
func (g *traceGen) outcome(status string, evidence []int64) retrospective.Event {
	d := map[string]any{"session_id": "run", "summary": "the work ended"}
	if status != "" {
		d["status"] = status
	}
	if len(evidence) > 0 {
		d["evidence"] = evidence
	}
	g.seq++
	raw, _ := json.Marshal(d)
	return retrospective.Event{Seq: g.seq, Type: vocab.TypeOutcomeRecorded, Data: raw}
}

// declared picks failure or partial, or "" (undeclared) when an unrecovered failure lets the
// classifier tell.
func (g *traceGen) declared(classifiable bool) string {
	switch n := g.rng.IntN(4); {
	case n == 0 && classifiable:
		return ""
	case n == 1:
		return vocab.OutcomePartial
	default:
		return vocab.OutcomeFailure
	}
}

// script builds a trace whose cause is label; bad are the items the script made misleading.
func (g *traceGen) script(label string) (*retrospective.Trace, []string) {
	ts := g.tools(3)
	main, side, other := ts[0], ts[1], ts[2]
	var bad []string
	var out retrospective.Event
	switch label {
	case retrospective.CauseStaleMemory:
		m := g.memory(main)
		rest := g.unrelated(1+g.rng.IntN(2), main)
		g.checkout(append([]int64{m}, rest...)...)
		g.noise(side)
		switch {
		case g.confound:
			// Invalidated from another session: only the ledger shows it.
			g.seq++
			raw, _ := json.Marshal(map[string]any{"target_seq": m, "reason": "no longer true"})
			g.judged = append(g.judged, retrospective.Event{Seq: g.seq, Type: vocab.TypeMemoryInvalidated, Data: raw})
		case g.rng.IntN(2) == 0:
			g.add(vocab.TypeMemoryInvalidated, "", map[string]any{"target_seq": m, "reason": "no longer true"})
		default:
			g.add(vocab.TypeFeedbackRecorded, "", map[string]any{"target_seqs": []int64{m}, "signal": "outdated"})
		}
		g.call(main, false)
		out = g.outcome(g.declared(true), nil)
		bad = []string{memoryitem.EventID(m)}
	case retrospective.CauseRetrieval:
		if !g.confound && g.viaAction() {
			// A memory action recommended a procedure whose step failed.
			g.action("retrieve_procedure_prior", []string{side}, [2]any{"procedure", []string{side, main}})
			g.expect = "blamed"
			g.noise(other)
			g.call(side, true)
			g.call(main, false)
			out = g.outcome(g.declared(true), nil)
			break
		}
		m := g.memory(main)
		if g.confound {
			// The memory names the tool in another word form.
			m = g.note(main, fmt.Sprintf("Before %sing, check the %s settings.", main, genTopics[g.rng.IntN(len(genTopics))]))
		}
		rest := g.unrelated(1+g.rng.IntN(2), main)
		g.checkout(append(rest, m)...)
		g.noise(side)
		if !g.confound && g.rng.IntN(2) == 0 {
			// The outcome names the memory it relied on.
			g.call(other, true)
			out = g.outcome(vocab.OutcomeFailure, []int64{m})
		} else {
			// Memory about the tool was surfaced; the tool failed anyway.
			g.call(main, false)
			out = g.outcome(g.declared(true), nil)
		}
		bad = []string{memoryitem.EventID(m)}
	case retrospective.CauseMissingEvidence:
		switch {
		case !g.confound && g.viaAction():
			// Asked about the tool, memory returned only other tools' patterns.
			g.action("simulate_forward", []string{side, main}, [2]any{"failure", []string{other}})
			g.expect = "blamed"
		case g.confound:
			// An unrelated memory mentions the failing tool in passing.
			g.checkout(g.note(main, fmt.Sprintf("The %s meeting moved; %s is not on the agenda.", genTopics[g.rng.IntN(len(genTopics))], main)))
		case g.rng.IntN(3) == 0:
			g.checkout() // memory had nothing at all
		default:
			g.checkout(g.unrelated(1+g.rng.IntN(3), main)...)
		}
		g.noise(side)
		g.call(main, false)
		out = g.outcome(g.declared(true), nil)
	case retrospective.CauseToolFailure:
		switch {
		case g.confound:
			g.checkout() // an empty checkout: now it reads as missing evidence
		case g.viaAction():
			// Memory warned that the tool fails; it failed anyway.
			g.action("retrieve_failure_prior", []string{other}, [2]any{"failure", []string{other}})
			g.expect = "credited"
		}
		g.chat("Starting on the task without looking anything up.")
		g.noise(side)
		g.call(main, true)
		g.call(other, false)
		out = g.outcome(g.declared(true), nil)
	case retrospective.CausePlanning:
		if g.rng.IntN(2) == 0 {
			g.checkout(g.unrelated(1+g.rng.IntN(2), "")...)
		}
		if g.viaAction() {
			// A distractor: a procedure of the tools the plan ran, which all succeeded.
			g.action("retrieve_procedure_prior", []string{main}, [2]any{"procedure", []string{main, other}})
			g.expect = "not_implicated"
		}
		g.add(vocab.TypeDecisionRecorded, "", map[string]string{"decision": "do " + main + " before " + other})
		g.noise(side)
		g.call(main, true)
		g.call(other, true)
		if g.confound {
			g.call(side, false) // a side failure nobody recovered from, beside the bad plan
		}
		if g.rng.IntN(3) == 0 {
			g.add(vocab.TypeTaskUpdated, "", map[string]string{"task_id": "t", "status": "cancelled"})
			out = g.outcome("", nil)
		} else {
			out = g.outcome(vocab.OutcomeFailure, nil)
		}
	default: // unknown: the trace does not say why
		if g.rng.IntN(2) == 0 {
			g.checkout(g.unrelated(1+g.rng.IntN(2), "")...)
		}
		g.noise(side)
		if g.confound {
			g.add(vocab.TypeDecisionRecorded, "", map[string]string{"decision": "keep going"})
		}
		g.chat("That did not work out.")
		out = g.outcome(vocab.OutcomeFailure, nil)
	}
	return &retrospective.Trace{Outcome: out, Session: g.evs, Cited: g.cited, Judged: g.judged}, bad
}
