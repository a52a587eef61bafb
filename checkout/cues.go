package checkout

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/validation"
)

// Limits of a request's cues.
const (
	maxCueKeys      = 16
	maxCueValueLen  = 200
	cueKeyPatternRE = `^[a-z][a-z0-9_]{0,31}$`
)

var cueKeyPattern = regexp.MustCompile(cueKeyPatternRE)

// validateCues names the first bad key or value: at most 16 keys, each 1–32 characters of lower-case
// letters, digits and underscores starting with a letter, each value 1–200 characters.
func validateCues(c Cues) error {
	if len(c) > maxCueKeys {
		return &validation.Error{Field: "cues", Message: "must have at most " + strconv.Itoa(maxCueKeys) + " keys, got " + strconv.Itoa(len(c))}
	}
	for _, k := range slices.Sorted(maps.Keys(c)) {
		if !cueKeyPattern.MatchString(k) {
			return &validation.Error{Field: "cues", Message: fmt.Sprintf("key %q must be 1-32 lower-case letters, digits or underscores, starting with a letter", k)}
		}
		switch v := strings.TrimSpace(c[k]); {
		case v == "":
			return &validation.Error{Field: "cues." + k, Message: "must not be empty"}
		case utf8.RuneCountInString(v) > maxCueValueLen:
			return &validation.Error{Field: "cues." + k, Message: "must be at most " + strconv.Itoa(maxCueValueLen) + " characters"}
		}
	}
	return nil
}

// ComponentCues names the cue boost's part of an item's score in its components (beside the
// lanes' parts): Rank is how many cues matched, Weight the multiplier, Score what it added.
const ComponentCues = "cues"

// cueValue normalizes a cue value for comparison: trimmed and case-folded.
func cueValue(v string) string { return strings.ToLower(strings.TrimSpace(v)) }

// cueMatches counts the request's cues that an event's cues (a JSON object) carry with the same
// value; an event cue that is an array matches when one of its strings does, and numbers and
// booleans compare as their JSON text.
func cueMatches(want Cues, eventCues []byte) int {
	var got map[string]json.RawMessage
	if json.Unmarshal(eventCues, &got) != nil {
		return 0
	}
	n := 0
	for k, v := range want {
		raw, ok := got[k]
		if !ok {
			continue
		}
		w := cueValue(v)
		var s string
		var list []string
		switch {
		case json.Unmarshal(raw, &s) == nil:
			if cueValue(s) == w {
				n++
			}
		case json.Unmarshal(raw, &list) == nil:
			if slices.ContainsFunc(list, func(x string) bool { return cueValue(x) == w }) {
				n++
			}
		default:
			if cueValue(string(raw)) == w {
				n++
			}
		}
	}
	return n
}

// cueBoost returns m's multiplier for n matching cues: CueBoostPerMatch^n, at most CueBoostMax.
func cueBoost(m *Mechanism, n int) float64 {
	b := 1.0
	for range n {
		b *= m.CueBoostPerMatch
	}
	return min(b, m.CueBoostMax)
}

// applyCues multiplies the score of each ranked item whose event carries some of the request's
// cues (a fact's: the event that recorded it) and records the boost in its components. It reads
// the cues of the fetched items' events from the log by seq in one query (the primary key: the
// candidates are few, so no index on cues is needed). Without cues it does nothing.
func applyCues(ctx context.Context, q pgexec.Executor, m *Mechanism, space string, want Cues, fused []*scored, items map[string]*rankedItem) error {
	if len(want) == 0 {
		return nil
	}
	seqOf := func(it *rankedItem) int64 {
		if it.fact != nil {
			return it.fact.recordedSeq
		}
		return seqOfItem(it.ItemID)
	}
	// An event item's cues came with it (fetch_events.sql); a fact's are its recording event's,
	// read here.
	cues := map[int64][]byte{}
	var seqs []int64
	for _, c := range fused {
		if it := items[c.itemID]; it != nil {
			if seq := seqOf(it); seq > 0 {
				if it.event != nil {
					cues[seq] = it.cues
				} else {
					seqs = append(seqs, seq)
				}
			}
		}
	}
	if len(seqs) > 0 {
		rows, err := queries.EventCues(ctx, q, dbsqlc.EventCuesParams{SpaceID: space, Seqs: seqs})
		if err != nil {
			return fmt.Errorf("event cues: %w", err)
		}
		for _, r := range rows {
			cues[r.Seq] = r.Cues
		}
	}
	for _, c := range fused {
		it := items[c.itemID]
		if it == nil {
			continue
		}
		raw, ok := cues[seqOf(it)]
		if !ok {
			continue
		}
		if n := cueMatches(want, raw); n > 0 {
			b := cueBoost(m, n)
			c.components[ComponentCues] = Component{Rank: n, Weight: b, Score: c.score * (b - 1)}
			c.score *= b
		}
	}
	return nil
}
