package retrospective

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/vocab"
)

// Actor is the actor of every event the retrospective pass appends; the pass leaves events of
// this actor out of the traces it reads.
const Actor = "zaxy-retro"

// surfacedType is the event a checkout appends listing what it surfaced.
const surfacedType = vocab.TypeCheckoutSurfaced

// Event is one event of a trace as the pass reads it from the log.
type Event struct {
	Seq     int64
	Type    string
	Actor   string
	Content string
	Data    json.RawMessage
}

// Trace is what an outcome is judged against: the outcome event, the events of its session
// before it (seq order, the pass's own events left out) and the events the session's surfaced
// items cite (by seq; they may belong to any session).
type Trace struct {
	// Outcome is the outcome.recorded event.
	Outcome Event
	// Session are the session's events before the outcome, in seq order.
	Session []Event
	// Cited are the events the surfaced items cite, by seq.
	Cited map[int64]Event
	// Judged are events outside the session, before the outcome, that invalidated a surfaced
	// item or judged it outdated or wrong (read through the reinforcement ledger, which the
	// projection has filled up to the outcome by the time the job runs).
	Judged []Event
}

// surfaced is one item checked out into the session: its id, the events it cites and the
// checkout.surfaced event that first surfaced it.
type surfaced struct {
	ItemID   string
	Seqs     []int64
	Checkout int64
}

// surfacedItems lists the items the session's checkouts surfaced, each once (its first
// surfacing), in the order they were surfaced, and the seqs of the checkouts. A checkout's
// memory weave surfaces the events its evidence lines show (weave.evidence_seqs), each an
// item ev:<seq> after the checkout's tier items; the artifacts it wove are context, not
// evidence, and are not judged as items.
func (t *Trace) surfacedItems() ([]surfaced, []int64) {
	var out []surfaced
	var checkouts []int64
	seen := map[string]bool{}
	for _, e := range t.Session {
		if e.Type != surfacedType {
			continue
		}
		var d struct {
			Items []struct {
				ItemID string  `json:"item_id"`
				Seqs   []int64 `json:"seqs"`
			} `json:"items"`
			Weave *struct {
				EvidenceSeqs []int64 `json:"evidence_seqs"`
			} `json:"weave"`
		}
		if json.Unmarshal(e.Data, &d) != nil {
			continue
		}
		if d.Weave != nil {
			for _, s := range d.Weave.EvidenceSeqs {
				if s > 0 {
					d.Items = append(d.Items, struct {
						ItemID string  `json:"item_id"`
						Seqs   []int64 `json:"seqs"`
					}{ItemID: memoryitem.EventID(s), Seqs: []int64{s}})
				}
			}
		}
		checkouts = append(checkouts, e.Seq)
		for _, it := range d.Items {
			if it.ItemID == "" || seen[it.ItemID] {
				continue
			}
			seen[it.ItemID] = true
			seqs := slices.Clone(it.Seqs)
			if n, ok := eventSeq(it.ItemID); ok && !slices.Contains(seqs, n) {
				seqs = append(seqs, n)
			}
			slices.Sort(seqs)
			out = append(out, surfaced{ItemID: it.ItemID, Seqs: seqs, Checkout: e.Seq})
		}
	}
	return out, checkouts
}

// SurfacedIDs is every item id the session's checkouts surfaced.
func SurfacedIDs(session []Event) []string {
	t := Trace{Session: session}
	items, _ := t.surfacedItems()
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.ItemID
	}
	return out
}

// CitedSeqs is every seq the session's surfaced items cite: the events Trace.Cited must hold.
func CitedSeqs(session []Event) []int64 {
	t := Trace{Session: session}
	items, _ := t.surfacedItems()
	var out []int64
	for _, it := range items {
		out = append(out, it.Seqs...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// eventSeq is the seq of an event item id ("ev:<seq>").
func eventSeq(id string) (int64, bool) { return memoryitem.ParseEventID(id) }

// toolCall is a tool_call.completed event decoded.
type toolCall struct {
	seq     int64
	tool    string
	success bool
	err     string
}

// toolCalls decodes the session's tool calls in order.
func (t *Trace) toolCalls() []toolCall {
	var out []toolCall
	for _, e := range t.Session {
		if e.Type != vocab.TypeToolCallCompleted {
			continue
		}
		d, err := vocab.Decode[vocab.ToolCallCompleted](e.Data)
		if err != nil || d.Tool == "" {
			continue
		}
		out = append(out, toolCall{seq: e.Seq, tool: strings.ToLower(strings.TrimSpace(d.Tool)), success: d.Outcome == "success", err: d.Error})
	}
	return out
}

// unrecovered is the failed calls whose tool did not succeed later in the session before the
// outcome, in order.
func unrecovered(calls []toolCall) []toolCall {
	var out []toolCall
	for i, c := range calls {
		if c.success {
			continue
		}
		recovered := slices.ContainsFunc(calls[i+1:], func(l toolCall) bool { return l.tool == c.tool && l.success })
		if !recovered {
			out = append(out, c)
		}
	}
	return out
}
