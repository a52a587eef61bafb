package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/zaxy/zaxy/latent"
)

// PriorsOptions configure the procedure and failure prior lane.
type PriorsOptions struct {
	// Families is how many scripted task families (default 12).
	Families int
	// Sessions is how many sessions each family is worked in (default 8, at least 4; the
	// procedure miner needs a sequence in at least latent.MinProcedureSessions sessions and the
	// failure miner a failure at least latent.MinFailureOccurrences times).
	Sessions int
	// Noise is the chance of a stray call between two steps of a session (default 0.15).
	Noise float64
	// Seed seeds the generator (default 1).
	Seed uint64
	// Spaces is how many independent spaces (each its own families, seeded Seed, Seed+1, ...)
	// the scores are pooled over (default 5).
	Spaces int
}

// PriorsReport is what the lane measured.
type PriorsReport struct {
	Seed     uint64 `json:"seed"`
	Spaces   int    `json:"spaces"`
	Families int    `json:"families"`
	Sessions int    `json:"sessions"`
	Calls    int    `json:"calls"`
	// Procedures and Failures are the artifacts the producers mined.
	Procedures int `json:"procedures"`
	Failures   int `json:"failures"`
	// ProcedureQueries and ProcedureTop1 count the new tasks asked and how often the top
	// procedure prior was the family's own (a prefix of its procedure, two steps or more: it
	// tells the next steps right); ProcedureComplete how often it was the whole procedure.
	// Likewise the failures, whose top prior is right when its fix is the mode's fix.
	ProcedureQueries  int     `json:"procedure_queries"`
	ProcedureTop1     float64 `json:"procedure_top1"`
	ProcedureComplete float64 `json:"procedure_complete"`
	FailureQueries    int     `json:"failure_queries"`
	FailureTop1       float64 `json:"failure_top1"`
}

// family is one scripted task family: its procedure and its failure modes.
type family struct {
	steps []string
	modes []failureMode
}

// failureMode is a tool failing with an error (a template with a number) and the calls that fix it.
type failureMode struct {
	tool, err string
	fix       []string
}

// Priors runs the prior lane: it scripts task families (each a procedure of 3 or 4 tool calls
// with a first step of its own and later steps shared with other families, and two failure
// modes, one of them sharing its tool with another mode), works each family in several
// sessions with stray calls and failures, mines the calls with the latent producers
// (latent.MineToolCalls, the procedure and failure producers a build runs), then asks for each
// family's procedure prior given a new task's first step and for each failure mode's prior
// given a fresh failure, and scores the top-1 prior.
//
// The lookup is the lane's own: procedure artifacts whose first step is the task's, ranked by
// supporting sessions times steps (then sessions); failure artifacts of the failing tool, the one whose
// masked error equals the new error first, then by word overlap of the errors, then by
// occurrences.
func Priors(o PriorsOptions) (*PriorsReport, error) {
	if o.Families == 0 {
		o.Families = 12
	}
	if o.Sessions == 0 {
		o.Sessions = 8
	}
	if o.Noise == 0 {
		o.Noise = 0.15
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Spaces == 0 {
		o.Spaces = 5
	}
	if o.Spaces < 1 || o.Spaces > 100 {
		return nil, fmt.Errorf("bench priors: spaces 1-100, got %d", o.Spaces)
	}
	if o.Families < 2 || o.Families > 200 || o.Sessions < 4 || o.Sessions > 100 || o.Noise < 0 || o.Noise > 0.9 {
		return nil, fmt.Errorf("bench priors: families 2-200, sessions %d-100 and noise 0-0.9, got %d, %d, %g",
			4, o.Families, o.Sessions, o.Noise)
	}
	rep := &PriorsReport{Seed: o.Seed, Spaces: o.Spaces, Families: o.Families, Sessions: o.Sessions}
	var right, complete, fright int
	for sp := range o.Spaces {
		r, c, f := priorsSpace(o, o.Seed+uint64(sp), rep)
		right, complete, fright = right+r, complete+c, fright+f
	}
	rep.ProcedureTop1 = float64(right) / float64(rep.ProcedureQueries)
	rep.ProcedureComplete = float64(complete) / float64(rep.ProcedureQueries)
	rep.FailureTop1 = float64(fright) / float64(rep.FailureQueries)
	return rep, nil
}

// priorsSpace scripts and scores one space, adding its counts to rep; it returns the right
// and complete procedure priors and the right failure priors.
func priorsSpace(o PriorsOptions, seed uint64, rep *PriorsReport) (right, complete, fright int) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9a1))
	fams := scriptFamilies(rng, o.Families)
	var calls []latent.ToolCall
	seq := int64(0)
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	add := func(session, tool, outcome, errText string) {
		seq++
		at = at.Add(time.Minute)
		calls = append(calls, latent.ToolCall{Seq: seq, Session: session, Tool: tool, Outcome: outcome, Error: errText, OccurredAt: at})
	}
	for s := range o.Sessions {
		for fi, f := range fams {
			session := fmt.Sprintf("f%d-s%d", fi, s)
			// A session may meet one of its family's failure modes: the first (a step of the
			// family's own fails) in every fourth session, the second (a shared tool fails before
			// the work) in the next one and at random in a third of the others.
			var mode *failureMode
			switch {
			case s%4 == 0:
				mode = &f.modes[0]
			case s%4 == 1 || rng.Float64() < 1.0/3:
				mode = &f.modes[1]
			}
			failed := mode == nil
			fail := func() {
				add(session, mode.tool, "failure", fmt.Sprintf(mode.err, 1+rng.IntN(999)))
				for _, x := range mode.fix {
					add(session, x, "success", "")
				}
				add(session, mode.tool, "success", "")
				failed = true
			}
			if mode != nil && !slices.Contains(f.steps, mode.tool) {
				fail()
			}
			for i, step := range f.steps {
				if i > 0 && rng.Float64() < o.Noise {
					add(session, genStray[rng.IntN(len(genStray))], "success", "")
				}
				if !failed && step == mode.tool {
					fail()
					continue
				}
				add(session, step, "success", "")
			}
		}
	}
	rep.Calls += len(calls)
	procs, fails := latent.MineToolCalls(calls)
	rep.Procedures += len(procs)
	rep.Failures += len(fails)
	for _, f := range fams {
		rep.ProcedureQueries++
		if top := topProcedure(procs, f.steps[0]); len(top) >= 2 && isPrefix(top, f.steps) {
			right++
			if len(top) == len(f.steps) {
				complete++
			}
		}
	}
	for _, f := range fams {
		for _, m := range f.modes {
			rep.FailureQueries++
			if fix, ok := topFailureFix(fails, m.tool, fmt.Sprintf(m.err, 1000+rng.IntN(9000))); ok && slices.Equal(fix, m.fix) {
				fright++
			}
		}
	}
	return right, complete, fright
}

// WriteText prints the report for people.
func (rep *PriorsReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "prior lane: %d spaces of %d task families × %d sessions, %d tool calls (seed %d)\n", rep.Spaces, rep.Families, rep.Sessions, rep.Calls, rep.Seed)
	fmt.Fprintf(w, "  mined: %d procedures, %d failure patterns\n", rep.Procedures, rep.Failures)
	fmt.Fprintf(w, "  procedure prior top-1 %.3f over %d tasks (the whole procedure: %.3f)\n", rep.ProcedureTop1, rep.ProcedureQueries, rep.ProcedureComplete)
	fmt.Fprintf(w, "  failure prior top-1   %.3f over %d failures\n", rep.FailureTop1, rep.FailureQueries)
}

// Tool vocabulary of the prior lane: generic build and operations steps.
var (
	genVerbs   = []string{"fetch", "build", "check", "package", "sign", "upload", "notify", "scan", "seed", "render", "index", "sync"}
	genObjects = []string{"api", "web", "docs", "cli", "worker", "schema", "assets", "images", "reports", "search", "billing", "auth"}
	genShared  = []string{"run tests", "open pull request", "tag release", "restart service"}
	genStray   = []string{"git status", "ls", "read log", "check disk", "list jobs"}
	genErrTpl  = []string{"connection refused on port %d", "lock held by pid %d", "disk quota exceeded by %d MB", "schema version %d is newer than expected",
		"request timed out after %d ms", "certificate expires in %d days"}
	genFixes = [][]string{{"clear cache"}, {"renew token"}, {"kill stale process"}, {"free disk", "rotate logs"}, {"rollback schema"}, {"restart proxy"}}
)

// scriptFamilies draws n families: a first step of their own, then 2 or 3 steps mixing
// family-specific and shared ones; two failure modes each, the second of a tool another
// family's mode also fails with, but with another error and fix.
func scriptFamilies(rng *rand.Rand, n int) []family {
	var fams []family
	used := map[string]bool{}
	tool := func() string {
		for {
			t := genVerbs[rng.IntN(len(genVerbs))] + " " + genObjects[rng.IntN(len(genObjects))]
			if !used[t] {
				used[t] = true
				return t
			}
		}
	}
	for i := range n {
		f := family{steps: []string{tool()}}
		for range 2 + rng.IntN(2) {
			if rng.IntN(2) == 0 {
				f.steps = append(f.steps, genShared[rng.IntN(len(genShared))])
			} else {
				f.steps = append(f.steps, tool())
			}
		}
		f.steps = slices.Compact(f.steps)
		if len(f.steps) < 3 {
			f.steps = append(f.steps, tool())
		}
		// Mode 1 fails a step of the family's own; mode 2 fails a shared service tool whose
		// error names the family, so only the error tells the modes apart.
		own := f.steps[1+rng.IntN(len(f.steps)-1)]
		e1 := rng.IntN(len(genErrTpl))
		f.modes = []failureMode{{tool: own, err: genErrTpl[e1], fix: genFixes[rng.IntN(len(genFixes))]}}
		shared := "deploy " + genObjects[i%len(genObjects)]
		f.modes = append(f.modes, failureMode{tool: shared, err: fmt.Sprintf("family %d: %s", i, genErrTpl[(e1+1+i)%len(genErrTpl)]),
			fix: genFixes[(i+rng.IntN(2))%len(genFixes)]})
		fams = append(fams, f)
	}
	return fams
}

// topProcedure is the steps of the best procedure prior for a task starting with first.
func topProcedure(procs []*latent.Artifact, first string) []string {
	type cand struct {
		steps    []string
		sessions int
	}
	var cands []cand
	for _, a := range procs {
		var p struct {
			Steps    []string `json:"steps"`
			Sessions []string `json:"sessions"`
		}
		if json.Unmarshal(a.Payload, &p) != nil || len(p.Steps) == 0 || p.Steps[0] != first {
			continue
		}
		cands = append(cands, cand{p.Steps, len(p.Sessions)})
	}
	if len(cands) == 0 {
		return nil
	}
	// Support times length: a longer procedure seen in almost as many sessions covers more of
	// the task than its own prefix.
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i].sessions*len(cands[i].steps), cands[j].sessions*len(cands[j].steps)
		if a != b {
			return a > b
		}
		return cands[i].sessions > cands[j].sessions
	})
	return cands[0].steps
}

// topFailureFix is the fix of the best failure prior for tool failing with errText.
func topFailureFix(fails []*latent.Artifact, tool, errText string) ([]string, bool) {
	type cand struct {
		fix         []string
		exact       bool
		overlap     float64
		occurrences int
	}
	masked := maskDigits(errText)
	var cands []cand
	for _, a := range fails {
		var p struct {
			Tool        string            `json:"tool"`
			Error       string            `json:"error"`
			Fix         []string          `json:"fix"`
			Occurrences []json.RawMessage `json:"occurrences"`
		}
		if json.Unmarshal(a.Payload, &p) != nil || p.Tool != tool {
			continue
		}
		cands = append(cands, cand{p.Fix, p.Error == masked, wordOverlap(p.Error, masked), len(p.Occurrences)})
	}
	if len(cands) == 0 {
		return nil, false
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.exact != b.exact {
			return a.exact
		}
		if a.overlap != b.overlap {
			return a.overlap > b.overlap
		}
		return a.occurrences > b.occurrences
	})
	return cands[0].fix, true
}

// maskDigits masks an error as the failure producer does (numbers as #, lower case, spaces
// collapsed).
func maskDigits(s string) string {
	var b strings.Builder
	inDigits := false
	for _, r := range strings.ToLower(s) {
		if r >= '0' && r <= '9' {
			if !inDigits {
				b.WriteByte('#')
			}
			inDigits = true
			continue
		}
		inDigits = false
		b.WriteRune(r)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// wordOverlap is the Jaccard overlap of two texts' words.
func wordOverlap(a, b string) float64 {
	wa, wb := map[string]bool{}, map[string]bool{}
	for _, w := range strings.Fields(a) {
		wa[w] = true
	}
	for _, w := range strings.Fields(b) {
		wb[w] = true
	}
	inter := 0
	for w := range wa {
		if wb[w] {
			inter++
		}
	}
	union := len(wa) + len(wb) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// isPrefix reports whether p is a prefix of s.
func isPrefix(p, s []string) bool { return len(p) <= len(s) && slices.Equal(p, s[:len(p)]) }
