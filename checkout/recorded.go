package checkout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/checkout/checkoutwire"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/sql"
)

type (
	// RecordedPacket is a recorded checkout with its packet re-rendered from the log
	// (checkoutwire.RecordedPacket).
	RecordedPacket = checkoutwire.RecordedPacket
	// RecordedItem is one item of a recorded checkout (checkoutwire.RecordedItem).
	RecordedItem = checkoutwire.RecordedItem
)

// ErrCheckoutNotFound means the seq is not a checkout.surfaced event of the space.
var ErrCheckoutNotFound = errors.New("checkout not found")

// qRecordedEvents reads the events a recorded checkout names (recorded_events.sql).
var qRecordedEvents = sql.Query("checkout/recorded_events")

// recordedEventRow is a row of recorded_events.sql.
type recordedEventRow struct {
	eventloom.Row
	Role        string  `db:"role"`
	Speaker     string  `db:"speaker"`
	Invalidated *string `db:"invalidated"`
}

// recordedData is the part of a checkout.surfaced event's data a re-rendering reads
// (surfacedEvent writes it).
type recordedData struct {
	Purpose       string             `json:"purpose"`
	MaxTokens     int                `json:"max_tokens"`
	UsedTokens    int                `json:"used_tokens"`
	PolicyVersion string             `json:"policy_version"`
	Items         []surfacedItem     `json:"items"`
	Rendered      *surfacedRendering `json:"rendered"`
	Weave         json.RawMessage    `json:"weave"`
}

// Recorded re-renders the packet the checkout.surfaced event seq of space recorded, from the
// log as of that checkout: each item's text read again (an excerpt by its recorded span), with
// the labels, repeats and who-and-when its line showed, its citations' hashes and an
// invalidation's reasons recorded before the checkout; then compares the text's SHA-256 with
// the recorded one and each line's with its recorded hash. An erased item's text is never
// shown: its line says which erasure erased it. A record without a rendering (older ones)
// lists its items as RecordedNotRendered. ErrCheckoutNotFound when seq is no such event.
func Recorded(ctx context.Context, db pgexec.Executor, space string, seq int64) (*RecordedPacket, error) {
	evs, err := recordedEvents(ctx, db, space, []int64{seq}, seq+1)
	if err != nil {
		return nil, err
	}
	ev, ok := evs[seq]
	if !ok || ev.Type != SurfacedType {
		return nil, fmt.Errorf("%w: seq %d of space %q is not a checkout.surfaced event", ErrCheckoutNotFound, seq, space)
	}
	out := &RecordedPacket{Seq: seq, SessionID: ev.SessionID, Actor: ev.Actor, OccurredAt: ev.OccurredAt.UTC(),
		Status: checkoutwire.RecordedNotRendered, ErasedBySeq: ev.ErasedBySeq, Items: []RecordedItem{}}
	var d recordedData
	if err := json.Unmarshal([]byte(ev.Data), &d); err != nil {
		return nil, fmt.Errorf("read checkout %d: %w", seq, err)
	}
	out.Purpose, out.PolicyVersion, out.MaxTokens, out.UsedTokens = d.Purpose, d.PolicyVersion, d.MaxTokens, d.UsedTokens
	for i, si := range d.Items {
		out.Items = append(out.Items, RecordedItem{Ref: i + 1, ItemID: si.ItemID, Tier: si.Tier, Seqs: nonNil(si.Seqs),
			Status: checkoutwire.RecordedNotRendered})
	}
	if d.Rendered == nil || d.Rendered.Format != renderFormat {
		return out, nil
	}
	out.Tokenizer, out.RecordedSHA256 = d.Rendered.Tokenizer, d.Rendered.SHA256
	if d.Rendered.TiersSHA256 != "" {
		out.RecordedSHA256, out.WeaveNotRendered = d.Rendered.TiersSHA256, true
	}
	lines, err := recordedLines(ctx, db, space, seq, ev, &d)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	tier := ""
	for i := range out.Items {
		it := &out.Items[i]
		if it.Tier != tier {
			tier = it.Tier
			b.WriteString(tierHeader[tier] + "\n")
		}
		l := lines[i]
		it.Status, it.Reason, it.ErasedBySeq = l.status, l.reason, l.erasedBy
		switch {
		case l.erasedBy > 0:
			fmt.Fprintf(&b, "[%d] (erased by seq %d)\n", it.Ref, l.erasedBy)
		case l.line == "":
			fmt.Fprintf(&b, "[%d] (no longer in memory)\n", it.Ref)
		default:
			it.Line = l.line
			b.WriteString(l.line + "\n")
		}
	}
	out.Text = b.String()
	sum := sha256.Sum256([]byte(out.Text))
	out.RenderedSHA256 = hex.EncodeToString(sum[:])
	out.Status = checkoutwire.RecordedDiffers
	if out.RenderedSHA256 == out.RecordedSHA256 {
		out.Status = checkoutwire.RecordedMatches
	}
	return out, nil
}

// recordedLine is one item's line re-rendered, with its status.
type recordedLine struct {
	line, status, reason string
	erasedBy             int64
}

// recordedLines re-renders the line of each item of checkout d (the event ev at seq).
func recordedLines(ctx context.Context, db pgexec.Executor, space string, seq int64, ev *recordedEventRow, d *recordedData) ([]recordedLine, error) {
	var seqs []int64
	var factIDs []string
	for _, si := range d.Items {
		seqs = append(seqs, si.Seqs...)
		if id, ok := strings.CutPrefix(si.ItemID, "fact:"); ok {
			factIDs = append(factIDs, id)
		}
	}
	evs, err := recordedEvents(ctx, db, space, seqs, seq)
	if err != nil {
		return nil, err
	}
	facts := map[string]*rankedItem{}
	if len(factIDs) > 0 {
		fetch := itemFetch{db: db, space: space, asOf: ev.OccurredAt}
		if _, err := fetch.facts(ctx, factIDs, facts); err != nil {
			return nil, fmt.Errorf("re-render checkout %d: %w", seq, err)
		}
	}
	out := make([]recordedLine, len(d.Items))
	for i, si := range d.Items {
		out[i] = recordedItemLine(i+1, si, evs, facts, d.Rendered.WhoWhen)
	}
	return out, nil
}

// recordedItemLine re-renders item si (marker ref) from the events evs and fact versions
// facts it names, and compares its line with the recorded hash.
func recordedItemLine(ref int, si surfacedItem, evs map[int64]*recordedEventRow, facts map[string]*rankedItem, whoWhen bool) recordedLine {
	for _, s := range si.Seqs {
		if e := evs[s]; e != nil && e.ErasedBySeq > 0 {
			return recordedLine{status: checkoutwire.RecordedErased, erasedBy: e.ErasedBySeq,
				reason: fmt.Sprintf("seq %d, which it cites, was erased by seq %d", s, e.ErasedBySeq)}
		}
	}
	var it *rankedItem
	if seq := seqOfItem(si.ItemID); seq > 0 {
		e := evs[seq]
		if e == nil {
			return recordedLine{status: checkoutwire.RecordedMissing, reason: fmt.Sprintf("seq %d is not in the log", seq)}
		}
		it = recordedEventItem(e, si.Span)
	} else if it = facts[si.ItemID]; it == nil {
		return recordedLine{status: checkoutwire.RecordedMissing, reason: "the fact version is no longer in memory"}
	}
	reason := recordedReason(it)
	it.Labels = Labels{}
	if l := si.Labels; l != nil {
		it.Labels = Labels{Superseded: l.Superseded, RedundantOf: l.RedundantOf, AttenuatedBy: l.AttenuatedBy,
			Inferred: l.Inferred, Stale: l.Stale, Conflicted: l.Conflicted}
		if l.Invalidated {
			it.Labels.Invalidated = reason
		}
	}
	it.Repeats = si.Repeats
	if it.fact == nil {
		// An event's citations are its own and its last repeat's, as recorded.
		cites := it.Citations[:1]
		for _, s := range si.Seqs[min(1, len(si.Seqs)):] {
			if e := evs[s]; e != nil {
				cites = append(cites, Citation{Seq: s, Hash: e.Hash})
			}
		}
		it.Citations = cites
	}
	line := renderLine(ref, it, whoWhen)
	if lineHash(line) == si.LineHash {
		return recordedLine{line: line, status: checkoutwire.RecordedMatches}
	}
	why := "its line re-renders differently from the log"
	if si.Labels != nil && si.Labels.Invalidated {
		why = "its invalidation's reason reads differently in the log now (an invalidation erased since?)"
	}
	return recordedLine{line: line, status: checkoutwire.RecordedDiffers, reason: why}
}

// recordedReason is the invalidation reason an item's line showed, as read back: an event's
// invalidations before the checkout, a fact version's close reason.
func recordedReason(it *rankedItem) string {
	if it.fact != nil {
		if it.fact.closeReason != nil {
			return *it.fact.closeReason
		}
		return ""
	}
	return it.Labels.Invalidated
}

// recordedEventItem is the event item of e as a checkout rendered it: its whole text, or the
// excerpt span of its content.
func recordedEventItem(e *recordedEventRow, span []int) *rankedItem {
	it := eventItem(e.Seq, e.Type, e.SessionID, e.Content, e.Data, e.Hash, func(text string) (string, *int, *int) {
		if len(span) != 2 {
			return text, nil, nil
		}
		r := []rune(text)
		start, end := max(0, min(span[0], len(r))), max(0, min(span[1], len(r)))
		out := string(r[start:max(start, end)])
		if start > 0 {
			out = "…" + out
		}
		if end < len(r) {
			out += "…"
		}
		return out, &start, &end
	})
	it.role, it.speaker = e.Role, e.Speaker
	at := e.OccurredAt
	it.OccurredAt = &at
	if e.Invalidated != nil {
		it.Labels.Invalidated = *e.Invalidated
	}
	return it
}

// recordedEvents reads the events seqs of space (invalidation reasons before the event
// before) by seq.
func recordedEvents(ctx context.Context, db pgexec.Executor, space string, seqs []int64, before int64) (map[int64]*recordedEventRow, error) {
	out := map[int64]*recordedEventRow{}
	if len(seqs) == 0 {
		return out, nil
	}
	rows, err := db.Query(ctx, qRecordedEvents, space, seqs, before)
	if err != nil {
		return nil, fmt.Errorf("read recorded events: %w", err)
	}
	list, err := pgx.CollectRows(rows, pgx.RowToStructByNameLax[recordedEventRow])
	if err != nil {
		return nil, fmt.Errorf("read recorded events: %w", err)
	}
	for i := range list {
		out[list[i].Seq] = &list[i]
	}
	return out, nil
}

// nonNil is s, or an empty slice for nil (a JSON array either way).
func nonNil(s []int64) []int64 {
	if s == nil {
		return []int64{}
	}
	return s
}
