package latent

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/zaxy/zaxy/vocab"
)

// episodeSentences is how many sentences an episode's summary quotes.
const episodeSentences = 3

// EpisodeMaxEvents is how many events one episode covers at most: a session is cut after each
// task that ends and after EpisodeMaxEvents usable events (segments). A weave verifies every
// source of what it weaves against the log at query time, so an episode's sources are
// bounded; cuts that depend only on earlier events keep a growing session's earlier episodes
// as they were (only its last one changes).
const EpisodeMaxEvents = 48

// episodeAnswerSlack is how many events past EpisodeMaxEvents an episode may run so that its
// cut does not fall between an event that asks something and the event after it, its answer
// (the weave shows an asking event's answer from its episode: docs/checkout.md, "Packing").
const episodeAnswerSlack = 8

// episodePayload is an episode's payload.
type episodePayload struct {
	Session string `json:"session"`
	// Segment is the episode's number in its session, from 1 (segments).
	Segment int `json:"segment"`
	Window  struct {
		Start string `json:"start"`
		End   string `json:"end"`
	} `json:"window"`
	// Outcome is done, cancelled or blocked (the session's last task update), else failure or
	// success (its last tool call), else none.
	Outcome   string           `json:"outcome"`
	Events    int              `json:"events"`
	Types     map[string]int   `json:"types"`
	Sentences []quotedSentence `json:"sentences"`
}

type quotedSentence struct {
	Seq  int64  `json:"seq"`
	Text string `json:"text"`
}

// segment is one episode's worth of a session: its k-th run of usable events.
type segment struct {
	session string
	k       int
	evs     []event
}

// slot is the segment's episode slot.
func (s segment) slot() string { return episodeSlot(s.session, s.k) }

// seqs are the segment's events' seqs, in order.
func (s segment) seqs() []int64 {
	out := make([]int64, len(s.evs))
	for i := range s.evs {
		out[i] = s.evs[i].Seq
	}
	return out
}

// segments cuts a session's usable events (seq order, meta events and excluded sources already
// left out) into its episodes' segments: after a task.updated that ends a task (done or
// cancelled), and after EpisodeMaxEvents events unless the last of them asks something (a "?"
// in its text, as the weave reads it): then after the first event that does not ask, so a
// question and its answer stay in one episode, and after EpisodeMaxEvents+episodeAnswerSlack
// events whatever they say. Every cut depends only on the events up to it, so a growing
// session keeps its earlier segments. A segment of fewer than two events makes no episode
// (episode).
func segments(session string, evs []event) []segment {
	var out []segment
	k, start := 1, 0
	for i := range evs {
		n := i + 1 - start
		full := n >= EpisodeMaxEvents+episodeAnswerSlack || (n >= EpisodeMaxEvents && !asks(&evs[i]))
		if !full && i+1 < len(evs) && !endsTask(&evs[i]) {
			continue
		}
		out = append(out, segment{session: session, k: k, evs: evs[start : i+1]})
		k, start = k+1, i+1
	}
	return out
}

// asks reports whether e asks something: a "?" in its text, as checkout's weave reads it (the
// event after it in its episode is its answer).
func asks(e *event) bool { return strings.Contains(e.text(), "?") }

// endsTask reports whether e is a task.updated that ends its task (done or cancelled).
func endsTask(e *event) bool {
	if e.Type != vocab.TypeTaskUpdated {
		return false
	}
	d, err := vocab.Decode[vocab.TaskUpdated](e.Data)
	return err == nil && (d.Status == "done" || d.Status == "cancelled")
}

// episode derives the k-th segment of a session as an episode: a summary quoting its most central
// sentences, each cited, its time window and outcome. A segment of fewer than two events has
// none.
func episode(session string, k int, evs []event) *Artifact {
	if session == "" || len(evs) < 2 {
		return nil
	}
	var sents []sentence
	p := episodePayload{Session: session, Segment: k, Events: len(evs), Types: map[string]int{}, Outcome: "none"}
	taskOutcome, toolOutcome := "", ""
	for i := range evs {
		e := &evs[i]
		p.Types[e.Type]++
		sents = append(sents, splitSentences(e.Seq, e.text())...)
		switch e.Type {
		case vocab.TypeTaskUpdated:
			if d, err := vocab.Decode[vocab.TaskUpdated](e.Data); err == nil {
				switch d.Status {
				case "done", "cancelled", "blocked":
					taskOutcome = d.Status
				default:
					taskOutcome = ""
				}
			}
		case vocab.TypeToolCallCompleted:
			if d, err := vocab.Decode[vocab.ToolCallCompleted](e.Data); err == nil && d.Outcome != "" {
				toolOutcome = d.Outcome
			}
		}
	}
	switch {
	case taskOutcome != "":
		p.Outcome = taskOutcome
	case toolOutcome != "":
		p.Outcome = toolOutcome
	}
	start, end := evs[0].OccurredAt, evs[0].OccurredAt
	for _, e := range evs {
		if e.OccurredAt.Before(start) {
			start = e.OccurredAt
		}
		if e.OccurredAt.After(end) {
			end = e.OccurredAt
		}
	}
	p.Window.Start, p.Window.End = rfc3339(start), rfc3339(end)
	var quoted []string
	for _, s := range central(sents, episodeSentences) {
		p.Sentences = append(p.Sentences, quotedSentence{Seq: s.Seq, Text: s.Text})
		quoted = append(quoted, fmt.Sprintf("%s [%d]", s.Text, s.Seq))
	}
	if p.Sentences == nil {
		p.Sentences = []quotedSentence{}
	}
	summary := strings.Join(quoted, " ")
	if summary == "" {
		summary = fmt.Sprintf("Session %s: %d events (%s).", session, len(evs), typeList(p.Types))
	}
	payload, _ := json.Marshal(p) // a struct of strings, ints and maps: cannot fail
	refs := make([]SourceRef, len(evs))
	for i := range evs {
		refs[i] = evs[i].ref()
	}
	from, to := start, end
	return &Artifact{
		Slot: episodeSlot(session, k), Type: TypeEpisode, Summary: summary, Sources: refs,
		ValidFrom: &from, ValidTo: &to, Method: MethodDeterministic, Confidence: 1,
		PurposeProfile: "recall", ReasoningPhase: "orient", Payload: payload,
		Diagnostics: mustJSON(map[string]int{"sentences": len(sents), "quoted": len(p.Sentences)}),
	}
}

func typeList(types map[string]int) string {
	keys := make([]string, 0, len(types))
	for t := range types {
		keys = append(keys, t)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, t := range keys {
		parts[i] = fmt.Sprintf("%d %s", types[t], t)
	}
	return strings.Join(parts, ", ")
}
