package projection

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"unicode"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// The write-time encoding gate (docs/projections.md, "Encoding gate") classifies each new event
// item against the ranked items its space already holds:
//
//   - redundant: its words add nothing to an earlier ranked item of the same event type, actor
//     and cues: they are that item's words in that order with at most a few left out (at least
//     GateMinOverlap of them kept, no negation among those left out), so case, punctuation and
//     spacing never matter; or, with a paraphrase embedder configured, it rewords that item
//     (gate_paraphrase.go). Either way both state the same values (gate_values.go: numbers,
//     dates, names, units, identifiers, quantifiers, polarities, negations). It is projected
//     with redundant_of naming that item, leaves default ranking, and reinforces the item with
//     SignalRepeated.
//   - reinforcing: a typed assertion restating the current fact (the same subject, predicate and
//     value) reinforces that fact version with SignalRepeated; its own text, if any, is gated
//     like any other.
//   - novel: everything else, projected and ranked like any item.
//
// It reads only the log and the projections the log made, at projection time (the embeddings
// of the vector lane are computed later, asynchronously, so they take no part; the paraphrase
// test computes its own vectors from the text): an item is compared with the latest
// GateCandidatesPerKey earlier ranked items under each of its keys (MinHash bands, its word
// sequence, and random-hyperplane keys of its paraphrase vector), whether those were projected
// in an earlier batch (gate_keys) or earlier in the same one, and the earliest qualifying item
// wins. So the tags do not depend on batch boundaries and a rebuild reproduces them.

// GateMinOverlap is the smallest share of an earlier item's words a redundant item must keep
// (its words being the earlier item's with some left out). The gate lane (zaxy bench gate)
// measures the gate's precision on duplicate pairs.
const GateMinOverlap = 0.8

// Gate modes of Config.Gate (the server default of spaces that never recorded gate.configured).
const (
	GateOff = vocab.GateOff
	GateOn  = vocab.GateOn
)

// MinHash banding of an item's set of distinct words, to find the earlier items worth comparing:
// gateBands bands of gateRows minima each. Two word sets with Jaccard similarity J share a band
// with probability 1-(1-J^3)^8: 0.997 at J = 0.8, so near duplicates are all but always
// compared; the comparison itself is exact.
const (
	gateBands = 8
	gateRows  = 3
)

// GateCandidatesPerKey is how many earlier ranked items sharing a key the gate compares a new
// item with: the latest of them. Common words put unrelated items of one actor under the same
// band, so without a bound the candidates of an item grow with its space (31 an item at
// 100,000 items); with it an item has at most GateCandidatesPerKey per key, whatever the space
// holds. A verbatim repeat is found through its sequence key (gateSequenceKey), which only
// items of the same words in the same order share; a near duplicate shares most of an item's
// band keys, so it is missed only when each of those has had this many newer ranked items
// since.
const GateCandidatesPerKey = 32

// gateCandidate is an earlier ranked item the gate may find a new item redundant of.
type gateCandidate struct {
	ItemID string
	Seq    int64
	Words  []string // in order
	Text   string
	// values is the value signature of Text, computed when first needed; phrase its
	// paraphrase data, computed when first compared with the paraphrase test on.
	values *gateValues
	phrase *gatePhrase
	// compared is the gateItem call (gateState.calls) that last compared it: a near duplicate
	// shares most of an item's keys, and is compared once.
	compared int
}

// gateKeyRow is one key of a ranked event item (ev:<Seq>) to write to gate_keys.
type gateKeyRow struct {
	Key int32
	Seq int64
}

// gateState is the gate's view of a space while a batch is applied.
type gateState struct {
	// on is whether the gate applies to the next event: the latest gate.configured, else the
	// server default.
	on bool
	// configured is the batch's last gate.configured (seq and mode), to record.
	configuredSeq *int64
	configuredOn  bool
	// byKey holds the earlier ranked items by key, each key's in seq order.
	byKey   map[int32][]*gateCandidate
	newKeys []gateKeyRow
	// calls counts gateItem's comparisons rounds (gateCandidate.compared).
	calls int
	// para is the paraphrase test, nil when off.
	para *gateParaphraser
}

// gateWords splits text into its words for the gate, in order: lower-cased runs of letters and
// digits (an apostrophe inside a word stays, so "don't" is one word).
func gateWords(text string) []string {
	var words []string
	var b strings.Builder
	runes := []rune(text)
	flush := func() {
		if b.Len() > 0 {
			words = append(words, b.String())
			b.Reset()
		}
	}
	for i, r := range runes {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		case (r == '\'' || r == '’') && b.Len() > 0 && i+1 < len(runes) && unicode.IsLetter(runes[i+1]):
			b.WriteRune('\'')
		default:
			flush()
		}
	}
	flush()
	return words
}

// gateKeys returns the MinHash band keys (the first 4 bytes of each band's hash, big-endian) of
// the distinct words, then the sequence key (gateSequenceKey), all scoped by event type, actor
// and cues (items of other types or actors, or recorded under other cues, never share a key:
// the same note about another repository or task is not a repeat). cues is the event's cues as
// Postgres renders jsonb, so equal objects are equal bytes; absent and empty are the same.
func gateKeys(eventType, actor string, cues []byte, words []string) []int32 {
	if len(words) == 0 {
		return nil
	}
	sequence := gateSequenceKey(eventType, actor, cues, words)
	words = slices.Compact(slices.Sorted(slices.Values(words)))
	mins := make([]uint64, gateBands*gateRows)
	for i := range mins {
		mins[i] = ^uint64(0)
	}
	var seed [8]byte
	for _, w := range words {
		for i := range mins {
			h := fnv.New64a()
			binary.BigEndian.PutUint64(seed[:], uint64(i))
			h.Write(seed[:])
			h.Write([]byte(w))
			if v := h.Sum64(); v < mins[i] {
				mins[i] = v
			}
		}
	}
	keys := make([]int32, gateBands, gateBands+1)
	for band := range gateBands {
		h := sha256.New()
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d", eventType, actor, gateCues(cues), band)
		for _, m := range mins[band*gateRows : (band+1)*gateRows] {
			binary.BigEndian.PutUint64(seed[:], m)
			h.Write(seed[:])
		}
		keys[band] = int32(binary.BigEndian.Uint32(h.Sum(nil)[:4]))
	}
	return append(keys, sequence)
}

// gateSequenceKey is the key of an item's whole word sequence in its scope: items with the
// same words in the same order (a verbatim repeat, whatever its case, punctuation or spacing)
// share it, and few others do. The band keys of a space's common wording are shared by many
// items, of which the gate compares only the latest (GateCandidatesPerKey); this key still
// finds the first of a verbatim repeat's earlier copies, however much alike the space's other
// items are.
func gateSequenceKey(eventType, actor string, cues []byte, words []string) int32 {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00sequence", eventType, actor, gateCues(cues))
	for _, w := range words {
		h.Write([]byte{0})
		h.Write([]byte(w))
	}
	return int32(binary.BigEndian.Uint32(h.Sum(nil)[:4]))
}

// gateRedundant reports whether an item with words adds nothing to an earlier item with
// earlier: its words are the earlier item's in the same order with some left out, keeping at
// least GateMinOverlap of them, and none of those left out is a negation (leaving one out
// reverses a statement). Words are compared as sequences, not sets, so a long text with one
// of its several "not" left out, or with its words reordered, is not redundant.
func gateRedundant(words, earlier []string) bool {
	if len(words) == 0 || len(words) > len(earlier) || float64(len(words)) < GateMinOverlap*float64(len(earlier)) {
		return false
	}
	// Each word of earlier is matched or left out; once more are left out than earlier has
	// words beyond words', the rest cannot match (near-duplicates that differ by a word or two
	// are most of an agent's tool output, and are rejected here after a few words).
	i, skips := 0, len(earlier)-len(words)
	for _, w := range earlier {
		if i < len(words) && words[i] == w {
			i++
			continue
		}
		if skips == 0 || negation(w) {
			return false
		}
		skips--
	}
	return i == len(words)
}

// negation reports whether a word negates what it stands in (English).
func negation(w string) bool {
	switch w {
	case "not", "no", "never", "nor", "none", "nothing", "nobody", "neither", "without", "cannot":
		return true
	}
	return strings.HasSuffix(w, "n't")
}

// gateText is what the gate compares of an event item.
type gateText struct {
	words []string
	keys  []int32 // MinHash band keys and the sequence key, then the paraphrase keys
	text  string
	// values is the value signature of text, computed when first needed; phrase its
	// paraphrase data, with the paraphrase test on.
	values *gateValues
	phrase *gatePhrase
}

// gateTexts computes the words and keys of the batch's event items, nil for events the gate
// never looks at (no text, bookkeeping); with para, their paraphrase vectors and keys too.
func gateTexts(ctx context.Context, para *gateParaphraser, events []eventloom.Event, fxs []effects) ([]*gateText, error) {
	out := make([]*gateText, len(events))
	var texts []string
	for i := range events {
		if fxs[i].Text == "" {
			continue
		}
		words := gateWords(fxs[i].Text)
		out[i] = &gateText{words: words, keys: gateKeys(events[i].Type, events[i].Actor, events[i].Cues, words), text: fxs[i].Text}
		texts = append(texts, fxs[i].Text)
	}
	if para == nil || len(texts) == 0 {
		return out, nil
	}
	vecs, err := para.embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	for i, t := range out {
		if t == nil {
			continue
		}
		t.phrase = newGatePhrase(t.text, vecs[0])
		t.keys = append(t.keys, para.keys(events[i].Type, events[i].Actor, events[i].Cues, vecs[0])...)
		vecs = vecs[1:]
	}
	return out, nil
}

// repeats reports whether t adds nothing to the earlier ranked item c: its words are c's with
// some left out (gateRedundant) or, with the paraphrase test on, it rewords c
// (gateParaphrase), and both state the same values.
func (g *gateState) repeats(t *gateText, c *gateCandidate) bool {
	if gateRedundant(t.words, c.Words) {
		return t.valueSignature().equal(c.valueSignature())
	}
	if g.para == nil || t.phrase == nil {
		return false
	}
	if c.phrase == nil {
		// Its vector is computed only if the word rule and the value guard pass.
		c.phrase = newGatePhrase(c.Text, nil)
	}
	return g.para.paraphrase(t.phrase, c.phrase)
}

// valueSignature is t's value signature, computed once.
func (t *gateText) valueSignature() gateValues {
	if t.phrase != nil {
		return t.phrase.values
	}
	if t.values == nil {
		v := valueSignature(t.text)
		t.values = &v
	}
	return *t.values
}

// valueSignature is c's value signature, computed once.
func (c *gateCandidate) valueSignature() gateValues {
	if c.phrase != nil {
		return c.phrase.values
	}
	if c.values == nil {
		v := valueSignature(c.Text)
		c.values = &v
	}
	return *c.values
}

// gateMayApply reports whether the gate can be on for any event of the batch.
func gateMayApply(on bool, fxs []effects) bool {
	if on {
		return true
	}
	for i := range fxs {
		if fxs[i].GateConfig != nil && fxs[i].GateConfig.Mode == GateOn {
			return true
		}
	}
	return false
}

// loadGate reads the space's gate setting and, when the gate may apply to the batch, the
// earlier ranked items sharing a key with the batch's items. serverOn is the server default,
// para the paraphrase test (nil when off).
func (s *batchState) loadGate(ctx context.Context, tx pgx.Tx, serverOn bool, para *gateParaphraser, events []eventloom.Event, fxs []effects) error {
	rows, err := queries.GateSpaceLoad(ctx, tx, s.space)
	if err != nil {
		return fmt.Errorf("load gate setting: %w", err)
	}
	s.gate.on = serverOn
	if len(rows) > 0 {
		s.gate.on = rows[0]
	}
	if !gateMayApply(s.gate.on, fxs) {
		return nil
	}
	s.gate.para = para
	if s.gateTexts, err = gateTexts(ctx, para, events, fxs); err != nil {
		return err
	}
	var keys []int32
	for _, t := range s.gateTexts {
		if t != nil {
			keys = append(keys, t.keys...)
		}
	}
	s.gate.byKey = map[int32][]*gateCandidate{}
	if len(keys) == 0 {
		return nil
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	cands, err := queries.GateCandidates(ctx, tx, dbsqlc.GateCandidatesParams{SpaceID: s.space, Keys: keys, PerKey: GateCandidatesPerKey})
	if err != nil {
		return fmt.Errorf("load gate candidates: %w", err)
	}
	// In seq order, so each key's candidates are too.
	for _, c := range cands {
		cand := &gateCandidate{ItemID: c.ItemID, Seq: c.Seq, Words: gateWords(c.Text), Text: c.Text}
		for _, k := range c.Keys {
			s.gate.byKey[k] = append(s.gate.byKey[k], cand)
		}
	}
	return nil
}

// configureGate folds a gate.configured event into the batch's gate setting.
func (s *batchState) configureGate(e *eventloom.Event, c *vocab.GateConfigured) {
	seq := e.Seq
	s.gate.on = c.Mode == GateOn
	s.gate.configuredSeq = &seq
	s.gate.configuredOn = s.gate.on
}

// gateItem classifies the event item of e (the i-th event of the batch) and returns the item it
// is redundant of, or "" when it is ranked. A redundant item reinforces what it repeats; a
// ranked one becomes a candidate for the items after it.
func (s *batchState) gateItem(e *eventloom.Event, i int) string {
	if !s.gate.on || s.gateTexts == nil || s.gateTexts[i] == nil {
		return ""
	}
	t := s.gateTexts[i]
	var best *gateCandidate
	s.gate.calls++
	for _, k := range t.keys {
		// The latest GateCandidatesPerKey, all earlier than e (e's own entries come after it).
		cands := s.gate.byKey[k]
		cands = cands[max(0, len(cands)-GateCandidatesPerKey):]
		for _, c := range cands {
			if (best == nil || c.Seq < best.Seq) && c.Seq < e.Seq && c.compared != s.gate.calls {
				c.compared = s.gate.calls
				if s.gate.repeats(t, c) {
					best = c
				}
			}
		}
	}
	if best != nil {
		s.reinforce(e, best.ItemID, SignalRepeated)
		return best.ItemID
	}
	cand := &gateCandidate{ItemID: memoryitem.EventID(e.Seq), Seq: e.Seq, Words: t.words, Text: t.text, values: t.values, phrase: t.phrase}
	for _, k := range t.keys {
		s.gate.byKey[k] = append(s.gate.byKey[k], cand)
		s.gate.newKeys = append(s.gate.newKeys, gateKeyRow{Key: k, Seq: e.Seq})
	}
	return ""
}

// gateFact reinforces the current fact a typed assertion restates, when the gate is on. An
// inferred assertion never does: generated material must not feed on itself.
func (s *batchState) gateFact(e *eventloom.Event, cur *factRow, a *factAssert) {
	if s.gate.on && a.Authority != AuthorityInferred {
		s.reinforce(e, memoryitem.FactID(cur.FactID), SignalRepeated)
	}
}

// queueGate queues the batch's new gate keys and its gate setting.
func (s *batchState) queueGate(b *pgx.Batch) {
	if n := len(s.gate.newKeys); n > 0 {
		p := dbsqlc.GateKeysInsertParams{SpaceID: s.space, Keys: make([]int32, n), Seqs: make([]int64, n)}
		for i, k := range s.gate.newKeys {
			p.Keys[i], p.Seqs[i] = k.Key, k.Seq
		}
		dbsqlc.QueueGateKeysInsert(b, p)
	}
	if s.gate.configuredSeq != nil {
		dbsqlc.QueueGateSpaceUpsert(b, dbsqlc.GateSpaceUpsertParams{SpaceID: s.space, Enabled: s.gate.configuredOn,
			ConfiguredSeq: *s.gate.configuredSeq})
	}
}

// gateCues is the cue scope of gateKeys: "" for absent or empty cues, else their jsonb text.
func gateCues(cues []byte) string {
	switch c := strings.TrimSpace(string(cues)); c {
	case "", "null", "{}":
		return ""
	default:
		return c
	}
}
