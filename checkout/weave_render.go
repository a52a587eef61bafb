package checkout

import (
	"fmt"
	"strings"
	"time"
)

// The section headers of the weave's rendered text (renderWeave); this file renders the
// weave's prompt text and its lines.
const (
	evidenceHeader = "### Evidence (log events: only these back claims)"
	inferredHeader = "### Inferred context (suggestive, not evidence)"
)

// weaveHeader opens the weave's text: phase, purpose, goal and the expected and prohibited use.
func weaveHeader(p weaveParams) string {
	return fmt.Sprintf("## Memory weave (%s, %s)\nGoal: %s\nExpected use: %s\nProhibited use: %s",
		p.phase, p.purpose, remembered(p.goal), WeaveExpectedUse, WeaveProhibitedUse)
}

// renderWeave is the weave's prompt text: header with expected and prohibited use, evidence
// lines ([W<n>] text (seq, hash)), inferred context (type, confidence, cited seqs, summary)
// and the warnings that fit budget.
func renderWeave(p weaveParams, w *Weave, budget int) string {
	var b strings.Builder
	b.WriteString(weaveHeader(p) + "\n")
	if len(w.Evidence) > 0 {
		b.WriteString(evidenceHeader + "\n")
		for _, ev := range w.Evidence {
			b.WriteString(evidenceLine(ev.Ref, ev, p.woven.whoWhen[ev.Citation.Seq]) + "\n")
		}
	}
	if len(w.Inferred) > 0 {
		b.WriteString(inferredHeader + "\n")
		evRef := map[int64]int{}
		for _, ev := range w.Evidence {
			evRef[ev.Citation.Seq] = ev.Ref
		}
		for _, a := range w.Inferred {
			b.WriteString(inferredLine(a, evRef, p.mech.WeaveInferredChars, p.woven.when[a.ArtifactID]) + "\n")
		}
	}
	// Warnings as fit the budget (all of them are in Warnings).
	header := "### Weave warnings\n"
	for i, wr := range w.Warnings {
		line := fmt.Sprintf("- %s: %s\n", wr.Code, remembered(wr.Message))
		extra := line
		if i == 0 {
			extra = header + line
		}
		if p.count(b.String()+extra) > budget {
			break
		}
		b.WriteString(extra)
	}
	return b.String()
}

// evidenceLine renders an evidence line, opened by whoWhen (empty unless the checkout asks for
// who_when).
func evidenceLine(ref int, ev WeaveEvidence, whoWhen string) string {
	short := func(c Citation) string {
		return fmt.Sprintf("seq %d #%s", c.Seq, c.Hash.String()[:min(8, len(c.Hash)*2)])
	}
	if ev.LastRepeat != nil {
		return flatLine(fmt.Sprintf("[W%d] %s%s (%s; %s; %s)", ref, whoWhen, remembered(ev.Text), repeatedLater(ev.Repeats), short(ev.Citation), short(*ev.LastRepeat)))
	}
	return flatLine(fmt.Sprintf("[W%d] %s%s (%s)", ref, whoWhen, remembered(ev.Text), short(ev.Citation)))
}

// inferredLine renders an artifact (an episode at its time window when), showing at most chars
// of its summary; evRef (nil when estimating) maps its cited seqs to evidence markers.
func inferredLine(a WeaveArtifact, evRef map[int64]int, chars int, when string) string {
	var cites []string
	for _, c := range a.Citations {
		if r, ok := evRef[c.Seq]; ok {
			cites = append(cites, fmt.Sprintf("W%d", r))
		}
	}
	n := len(a.Citations)
	src := fmt.Sprintf("%d cited events", n)
	if evRef == nil || len(cites) > 0 {
		src += "; shown " + strings.Join(cites, ", ")
	}
	head, label, text := a.Type, "suggestive", a.Summary
	if a.Type == "episode" {
		// An episode orients in time: when it happened, which its evidence lines do not say.
		// Its extractive summary is sentences of the same session the lanes could rank; a cut of
		// it told a reader little, so the line shows it only as an LLM summary.
		text = ""
		if when != "" {
			head = "episode, " + when
		}
	}
	if a.LLMSummary != nil {
		label, text = "suggestive; llm-assisted summary by "+remembered(a.LLMSummary.Model), a.LLMSummary.Summary
	}
	line := fmt.Sprintf("- %s (%s; confidence %.2f; %s)", head, label, a.Confidence, src)
	if a.Type == "episode" && a.LLMSummary == nil {
		// An episode is a session's stretch: how many events it cites tells a reader nothing,
		// and its confidence only when revised below 1. Its line is its date and its evidence,
		// which leaves the budget another evidence line now and then.
		line = fmt.Sprintf("- %s (%s", head, label)
		if a.Confidence < 1 {
			line += fmt.Sprintf("; confidence %.2f", a.Confidence)
		}
		if len(cites) > 0 {
			line += "; shown " + strings.Join(cites, ", ")
		}
		line += ")"
	}
	if text != "" {
		line += ": " + remembered(clipTo(text, chars))
	}
	return flatLine(line) // one line, whatever the summary (or an LLM's) holds
}

// episodeWhen is an episode's time window (its validity: first and last event) as its
// inferred line shows it: the UTC date of its first event, and of its last when another day;
// empty when it has none.
func episodeWhen(from, to *time.Time) string {
	if from == nil {
		return ""
	}
	start := from.UTC().Format(time.DateOnly)
	if to == nil || to.UTC().Format(time.DateOnly) == start {
		return start
	}
	return start + " to " + to.UTC().Format(time.DateOnly)
}

func clipTo(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
