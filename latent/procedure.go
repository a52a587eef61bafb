package latent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/zaxy/zaxy/vocab"
)

// Mining thresholds.
const (
	// MinProcedureSessions is how many sessions a tool sequence must recur in to be a procedure.
	MinProcedureSessions = 3
	// MinFailureOccurrences is how often a failure must recur to be a failure pattern.
	MinFailureOccurrences = 2
	minSteps, maxSteps    = 2, 4
	maxProcedures         = 50
	maxFailures           = 50
)

// toolCall is a tool_call.completed event decoded.
type toolCall struct {
	ev      *event
	tool    string
	args    string // the call's arguments, spaces collapsed
	success bool
	err     string
}

// toolCalls groups the usable tool_call.completed events by session, in seq order.
func toolCalls(evs []event) (map[string][]toolCall, []string) {
	by := map[string][]toolCall{}
	for i := range evs {
		e := &evs[i]
		if e.Type != vocab.TypeToolCallCompleted || e.Session == "" {
			continue
		}
		d, err := vocab.Decode[vocab.ToolCallCompleted](e.Data)
		if err != nil || strings.TrimSpace(d.Tool) == "" {
			continue
		}
		by[e.Session] = append(by[e.Session], toolCall{ev: e, tool: normTool(d.Tool), args: normArgs(d.Arguments),
			success: d.Outcome == "success", err: d.Error})
	}
	sessions := make([]string, 0, len(by))
	for s := range by {
		sessions = append(sessions, s)
	}
	sort.Strings(sessions)
	return by, sessions
}

func normTool(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// normArgs is a call's arguments with spaces collapsed, to tell a retry from another call.
func normArgs(s string) string { return strings.Join(strings.Fields(s), " ") }

// procedurePayload is a procedure's payload.
type procedurePayload struct {
	Steps       []string `json:"steps"`
	Sessions    []string `json:"sessions"`
	Occurrences int      `json:"occurrences"`
}

// procedures mines successful tool sequences (2 to 4 consecutive successful calls) that recur
// in at least MinProcedureSessions sessions. A sequence inside a longer one with the same
// sessions is left out. Every occurrence's calls are cited.
func procedures(evs []event) []*Artifact {
	by, sessions := toolCalls(evs)
	type gram struct {
		steps    []string
		sessions map[string]bool
		cites    map[int64]*event
		count    int
		first    time.Time
	}
	grams := map[string]*gram{}
	for _, s := range sessions {
		calls := by[s]
		for i := range calls {
			for n := minSteps; n <= maxSteps && i+n <= len(calls); n++ {
				run := calls[i : i+n]
				if !allSucceeded(run) {
					break
				}
				steps := make([]string, n)
				for j, c := range run {
					steps[j] = c.tool
				}
				key := slotSteps(steps)
				g := grams[key]
				if g == nil {
					g = &gram{steps: steps, sessions: map[string]bool{}, cites: map[int64]*event{}, first: run[0].ev.OccurredAt}
					grams[key] = g
				}
				g.sessions[s] = true
				g.count++
				for _, c := range run {
					g.cites[c.ev.Seq] = c.ev
				}
				if run[0].ev.OccurredAt.Before(g.first) {
					g.first = run[0].ev.OccurredAt
				}
			}
		}
	}
	var keys []string
	for k, g := range grams {
		if len(g.sessions) >= MinProcedureSessions {
			keys = append(keys, k)
		}
	}
	// Drop a sequence contained in a longer kept one recurring in the same number of sessions.
	var kept []string
	for _, k := range keys {
		subsumed := false
		for _, l := range keys {
			if len(grams[l].steps) > len(grams[k].steps) && containsRun(grams[l].steps, grams[k].steps) && len(grams[l].sessions) == len(grams[k].sessions) {
				subsumed = true
				break
			}
		}
		if !subsumed {
			kept = append(kept, k)
		}
	}
	sort.Slice(kept, func(i, j int) bool {
		a, b := grams[kept[i]], grams[kept[j]]
		if len(a.sessions) != len(b.sessions) {
			return len(a.sessions) > len(b.sessions)
		}
		if len(a.steps) != len(b.steps) {
			return len(a.steps) > len(b.steps)
		}
		return kept[i] < kept[j]
	})
	if len(kept) > maxProcedures {
		kept = kept[:maxProcedures]
	}
	var out []*Artifact
	for _, k := range kept {
		g := grams[k]
		p := procedurePayload{Steps: g.steps, Sessions: sortedKeys(g.sessions), Occurrences: g.count}
		first := g.first
		out = append(out, &Artifact{
			Slot: "procedure:" + k, Type: TypeProcedure,
			Summary: fmt.Sprintf("Procedure seen in %d sessions (%d times): %s.", len(g.sessions), g.count, k),
			Sources: refsOf(g.cites), ValidFrom: &first, Method: MethodDeterministic,
			Confidence: supportConfidence(len(g.sessions)), PurposeProfile: "planning", ReasoningPhase: "plan",
			Payload:     mustJSON(p),
			Diagnostics: mustJSON(map[string]int{"min_sessions": MinProcedureSessions, "sessions": len(g.sessions)}),
		})
	}
	return out
}

// containsRun reports whether run occurs in steps as consecutive elements.
func containsRun(steps, run []string) bool {
	for i := 0; i+len(run) <= len(steps); i++ {
		if slices.Equal(steps[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

func allSucceeded(calls []toolCall) bool {
	for _, c := range calls {
		if !c.success {
			return false
		}
	}
	return true
}

// failurePayload is a failure pattern's payload.
type failurePayload struct {
	Tool        string       `json:"tool"`
	Error       string       `json:"error"`
	Occurrences []FailureFix `json:"occurrences"`
	// Fix is the most common sequence of calls between a failure and the same tool's next
	// success (empty when it was simply retried), when any occurrence was fixed.
	Fix []string `json:"fix"`
}

// FailureFix is one occurrence of a failure pattern (a failure artifact's payload.occurrences):
// the failing call, the same tool's next success in the session (0: none), and the tools
// called in between.
type FailureFix struct {
	FailureSeq int64    `json:"failure_seq"`
	FixSeq     int64    `json:"fix_seq,omitempty"`
	Steps      []string `json:"steps"`
}

// FailureFixes decodes a failure artifact's payload into its occurrences.
func FailureFixes(payload []byte) ([]FailureFix, error) {
	var pl failurePayload
	if err := json.Unmarshal(payload, &pl); err != nil {
		return nil, fmt.Errorf("failure payload: %w", err)
	}
	return pl.Occurrences, nil
}

// retryOf is the index of the call that retried calls[i] successfully, 0 when none did: the same
// tool's next success with the same arguments, else (a retry that changed its arguments) the
// same tool's next success. An agent whose tool is generic, a shell, runs its look around and
// its fix through the same tool, so the tool's next success alone would be the look around.
func retryOf(calls []toolCall, i int) int {
	next := 0
	for j := i + 1; j < len(calls); j++ {
		if calls[j].tool != calls[i].tool || !calls[j].success {
			continue
		}
		if calls[j].args == calls[i].args {
			return j
		}
		if next == 0 {
			next = j
		}
	}
	return next
}

var digits = regexp.MustCompile(`[0-9]+`)

// normError is an error message with its numbers masked, spaces collapsed and cut to 120
// bytes, so that the same failure with another line number or pid groups together.
func normError(s string) string {
	s = strings.Join(strings.Fields(strings.ToLower(digits.ReplaceAllString(s, "#"))), " ")
	if len(s) > 120 {
		s = strings.ToValidUTF8(s[:120], "")
	}
	return s
}

// failures mines tool failures with the same tool and error recurring at least
// MinFailureOccurrences times, each with its fix: the calls after it up to its retry in the
// session (retryOf). Every failure and fix call is cited.
func failures(evs []event) []*Artifact {
	by, sessions := toolCalls(evs)
	type pattern struct {
		tool, err string
		occ       []FailureFix
		cites     map[int64]*event
		first     time.Time
	}
	pats := map[string]*pattern{}
	for _, s := range sessions {
		calls := by[s]
		for i, c := range calls {
			if c.success {
				continue
			}
			key := c.tool + "\x00" + normError(c.err)
			p := pats[key]
			if p == nil {
				p = &pattern{tool: c.tool, err: normError(c.err), cites: map[int64]*event{}, first: c.ev.OccurredAt}
				pats[key] = p
			}
			p.cites[c.ev.Seq] = c.ev
			if c.ev.OccurredAt.Before(p.first) {
				p.first = c.ev.OccurredAt
			}
			occ := FailureFix{FailureSeq: c.ev.Seq, Steps: []string{}}
			if j := retryOf(calls, i); j > 0 {
				occ.FixSeq = calls[j].ev.Seq
				for _, step := range calls[i+1 : j] {
					occ.Steps = append(occ.Steps, step.tool)
				}
				for _, step := range calls[i+1 : j+1] {
					p.cites[step.ev.Seq] = step.ev
				}
			}
			p.occ = append(p.occ, occ)
		}
	}
	var keys []string
	for k, p := range pats {
		if len(p.occ) >= MinFailureOccurrences {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(pats[keys[i]].occ) != len(pats[keys[j]].occ) {
			return len(pats[keys[i]].occ) > len(pats[keys[j]].occ)
		}
		return keys[i] < keys[j]
	})
	if len(keys) > maxFailures {
		keys = keys[:maxFailures]
	}
	var out []*Artifact
	for _, k := range keys {
		p := pats[k]
		fixes := map[string]int{}
		fixSteps := map[string][]string{}
		fixed := 0
		for _, o := range p.occ {
			if o.FixSeq != 0 {
				fixed++
				k := slotSteps(o.Steps)
				fixes[k]++
				fixSteps[k] = o.Steps
			}
		}
		pl := failurePayload{Tool: p.tool, Error: p.err, Occurrences: p.occ, Fix: []string{}}
		summary := fmt.Sprintf("%s failed %d times with %q; never fixed in the same session.", p.tool, len(p.occ), p.err)
		if fixed > 0 {
			best, bestN := "", -1
			for f, n := range fixes {
				if n > bestN || (n == bestN && f < best) {
					best, bestN = f, n
				}
			}
			if best != "" {
				pl.Fix = fixSteps[best]
				summary = fmt.Sprintf("%s failed %d times with %q; fixed %d times, most often by %s, then %s again.", p.tool, len(p.occ), p.err, fixed, best, p.tool)
			} else {
				summary = fmt.Sprintf("%s failed %d times with %q; fixed %d times by running it again.", p.tool, len(p.occ), p.err, fixed)
			}
		}
		sum := sha256.Sum256([]byte(k))
		first := p.first
		out = append(out, &Artifact{
			Slot: "failure:" + p.tool + ":" + hex.EncodeToString(sum[:8]), Type: TypeFailure, Summary: summary,
			Sources: refsOf(p.cites), ValidFrom: &first, Method: MethodDeterministic,
			Confidence: supportConfidence(len(p.occ)), PurposeProfile: "avoidance", ReasoningPhase: "act",
			Payload:     mustJSON(pl),
			Diagnostics: mustJSON(map[string]int{"min_occurrences": MinFailureOccurrences, "fixed": fixed}),
		})
	}
	return out
}

// supportConfidence grows with the number of supporting sessions or occurrences: n/(n+1).
func supportConfidence(n int) float64 { return float64(n) / float64(n+1) }

func refsOf(m map[int64]*event) []SourceRef {
	seqs := make([]int64, 0, len(m))
	for s := range m {
		seqs = append(seqs, s)
	}
	sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
	out := make([]SourceRef, len(seqs))
	for i, s := range seqs {
		out[i] = m[s].ref()
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("latent: marshal %T: %v", v, err))
	}
	return b
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
