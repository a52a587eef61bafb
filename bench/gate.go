package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection"
)

// The gate lane (zaxy bench gate): the precision of the write-time encoding gate's "redundant"
// (docs/projections.md, "Encoding gate") on labelled pairs of memories built at run time from
// a benchmark file's turns. A pair is an earlier turn and a later one said by the same speaker;
// the label says whether the later one repeats the earlier one:
//
//   - positives: an exact repeat; a repeat with only case, punctuation and spacing changed; a
//     repeat with one word left out (never a negation, and stating the same values by the
//     gate's value guard, projection.GateSameValues).
//   - negatives: the next turn of the same speaker in the same session; the turn of the same
//     speaker in the same haystack whose words overlap most (same topic, other content); the
//     turn with one word replaced by a word from elsewhere (another fact); the turn with a
//     negation removed (the opposite statement); the turn with one word left out that was a
//     value (a number, a name, a date, a quantifier...: another fact).
//
// Every pair goes through the real projector with the gate on, in one scratch space: each pair
// has its own actor, and the gate only ever compares items of one actor, so pairs cannot see
// each other. Turns are drawn with a seeded generator; no rule names a data set or its wording.

// GateOptions configures Gate (zaxy bench gate's flags).
type GateOptions struct {
	// PerCategory is how many pairs each category holds at most. Default 400.
	PerCategory int
	// Seed makes the draw reproducible. Default 1.
	Seed uint64
	// OpenPool opens the scratch database's pool; required.
	OpenPool func(ctx context.Context, url string) (*pgxpool.Pool, error)
	// Logger defaults to discarding.
	Logger *slog.Logger
}

// GateCategory is one category of labelled pairs and what the gate made of them.
type GateCategory struct {
	Name string `json:"name"`
	// Redundant is the label: whether the later turn repeats the earlier one.
	Redundant bool `json:"redundant"`
	Pairs     int  `json:"pairs"`
	// Tagged counts the pairs whose later turn the gate tagged redundant of the earlier one.
	Tagged int `json:"tagged"`
}

// GateReport is the gate lane's result.
type GateReport struct {
	File       string         `json:"file"`
	Categories []GateCategory `json:"categories"`
	// Precision is the share of tagged pairs that are labelled redundant; Recall the share of
	// redundant-labelled pairs tagged.
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	// ProjectSeconds is how long projecting every pair with the gate on took, Events how many
	// events that was.
	ProjectSeconds float64 `json:"project_seconds"`
	Events         int     `json:"events"`
	// FalsePositives are up to five negative pairs the gate tagged, for reading.
	FalsePositives []GatePair `json:"false_positives,omitempty"`
}

// GatePair is one labelled pair.
type GatePair struct {
	Category string `json:"category"`
	Earlier  string `json:"earlier"`
	Later    string `json:"later"`
}

// gatePairs draws the labelled pairs from cases.
func gatePairs(cases []Case, perCategory int, seed uint64) map[string][]GatePair {
	rng := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
	type turn struct {
		scope, session, text, norm string
		words, set                 []string
	}
	// Distinct turns (haystacks share sessions), scoped by haystack and speaker.
	var turns []turn
	seen := map[string]bool{}
	byScope := map[string][]int{}
	for ci := range cases {
		for _, t := range cases[ci].Turns {
			words := laneWords(t.Text)
			if len(words) < 4 {
				continue
			}
			scope := cases[ci].ID + "\x00" + firstNonEmpty(t.Speaker, t.Role)
			if seen[scope+"\x00"+t.Text] {
				continue
			}
			seen[scope+"\x00"+t.Text] = true
			byScope[scope] = append(byScope[scope], len(turns))
			turns = append(turns, turn{scope: scope, session: t.SessionID, text: t.Text, norm: strings.Join(words, " "), words: words, set: distinct(words)})
		}
	}
	out := map[string][]GatePair{}
	add := func(cat, a, b string) {
		if len(out[cat]) < perCategory {
			out[cat] = append(out[cat], GatePair{Category: cat, Earlier: a, Later: b})
		}
	}
	order := rng.Perm(len(turns))
	for _, i := range order {
		t := turns[i]
		add("exact repeat", t.text, t.text)
		add("case, punctuation, spacing", t.text, strings.Join(t.words, "  "))
		if len(t.words) >= 10 {
			if j := droppableWord(t.words, rng); j >= 0 {
				edited := strings.Join(slices.Delete(slices.Clone(t.words), j, j+1), " ")
				if projection.GateSameValues(t.text, edited) {
					add("one word left out", t.text, edited)
				} else {
					add("one value left out", t.text, edited)
				}
			}
		}
		if edited, ok := replaceWord(t.text, t.words, turns[order[(i+1)%len(order)]].words, rng); ok {
			add("one word replaced", t.text, edited)
		}
		if negated, ok := dropNegation(t.text); ok {
			add("negation removed", t.text, negated)
		}
		same := byScope[t.scope]
		if k := slices.Index(same, i); k >= 0 {
			for _, j := range same[k+1:] {
				if turns[j].session == t.session && turns[j].norm != t.norm {
					add("next turn, same session", t.text, turns[j].text)
					break
				}
			}
			best, bestJ := -1, 0.0
			for _, j := range same {
				if len(out["most overlapping turn"]) >= perCategory {
					break
				}
				if j == i || turns[j].norm == t.norm {
					continue
				}
				if jac := jaccard(t.set, turns[j].set); jac > bestJ {
					best, bestJ = j, jac
				}
			}
			if best >= 0 {
				add("most overlapping turn", turns[best].text, t.text)
			}
		}
	}
	return out
}

// laneWords is the turn's words in order: lower-cased runs of letters and digits.
func laneWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}

func distinct(words []string) []string {
	out := slices.Clone(words)
	slices.Sort(out)
	return slices.Compact(out)
}

func jaccard(a, b []string) float64 {
	inter := 0
	for _, w := range a {
		if _, ok := slices.BinarySearch(b, w); ok {
			inter++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// laneNegations are the words whose removal reverses a statement (English).
var laneNegations = []string{"not", "no", "never", "nor", "none", "nothing", "nobody", "neither", "without", "cannot"}

func isNegation(w string) bool {
	return slices.Contains(laneNegations, w) || strings.HasSuffix(w, "n't")
}

// droppableWord picks a word occurring once that is no negation, or -1.
func droppableWord(words []string, rng *rand.Rand) int {
	start := rng.IntN(len(words))
	for k := range words {
		j := (start + k) % len(words)
		w := words[j]
		if !isNegation(w) && strings.Count(" "+strings.Join(words, " ")+" ", " "+w+" ") == 1 {
			return j
		}
	}
	return -1
}

// replaceWord replaces one word of four or more letters in text with a word of another turn
// that text does not contain.
func replaceWord(text string, words, other []string, rng *rand.Rand) (string, bool) {
	var from, to []string
	for _, w := range words {
		if len(w) >= 4 && !isNegation(w) {
			from = append(from, w)
		}
	}
	for _, w := range other {
		if len(w) >= 4 && !slices.Contains(words, w) && !isNegation(w) {
			to = append(to, w)
		}
	}
	if len(from) == 0 || len(to) == 0 {
		return "", false
	}
	f, r := from[rng.IntN(len(from))], to[rng.IntN(len(to))]
	re := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(f) + `\b`)
	loc := re.FindStringIndex(text)
	if loc == nil {
		return "", false
	}
	return text[:loc[0]] + r + text[loc[1]:], true
}

var negationPattern = regexp.MustCompile(`(?i)\b(not|never|no)\s+|n't\b`)

// dropNegation removes the first negation of text ("do not go" → "do go", "don't" → "do").
func dropNegation(text string) (string, bool) {
	loc := negationPattern.FindStringIndex(text)
	if loc == nil {
		return "", false
	}
	return text[:loc[0]] + text[loc[1]:], true
}

// Gate builds the labelled pairs from cases (file names them in the report), appends them to a
// scratch database beside dbURL's with the gate on, projects them and scores the tags.
func Gate(ctx context.Context, dbURL, file string, cases []Case, o GateOptions) (*GateReport, error) {
	if o.PerCategory == 0 {
		o.PerCategory = 400
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.OpenPool == nil {
		return nil, errors.New("bench gate: OpenPool is required")
	}
	pairs := gatePairs(cases, o.PerCategory, o.Seed)
	scratch, drop, err := scratchDatabase(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer drop()
	pool, err := o.OpenPool(ctx, scratch)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	store := eventloom.NewStore(pool, nil, nil)
	const space = "gate"
	if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{
		{Type: "gate.configured", Data: json.RawMessage(`{"mode":"on"}`)}}}); err != nil {
		return nil, err
	}
	rep := &GateReport{File: file}
	names := []string{"exact repeat", "case, punctuation, spacing", "one word left out",
		"next turn, same session", "most overlapping turn", "one word replaced", "negation removed", "one value left out"}
	type placed struct {
		cat        int
		pair       GatePair
		earlier    int64
		later      int64
		redundant  bool
		laterActor string
	}
	var all []placed
	var batch []eventloom.NewEvent
	for ci, name := range names {
		rep.Categories = append(rep.Categories, GateCategory{Name: name, Redundant: ci < 3})
		for _, p := range pairs[name] {
			actor := "p" + strconv.Itoa(len(all))
			all = append(all, placed{cat: ci, pair: p, redundant: ci < 3, laterActor: actor})
			batch = append(batch, gateMessage(actor, p.Earlier), gateMessage(actor, p.Later))
		}
	}
	for i := 0; i < len(batch); i += 1000 {
		res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: batch[i:min(i+1000, len(batch))]})
		if err != nil {
			return nil, err
		}
		for j, rc := range res.Receipts {
			k := (i + j) / 2
			if (i+j)%2 == 0 {
				all[k].earlier = rc.Seq
			} else {
				all[k].later = rc.Seq
			}
		}
	}
	rep.Events = len(batch) + 1
	proj, err := projection.New(ctx, pool, projection.Config{Logger: o.Logger})
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if _, err := proj.ProjectSpace(ctx, space); err != nil {
		return nil, err
	}
	rep.ProjectSeconds = time.Since(start).Seconds()
	tags := map[string]string{}
	rows, err := pool.Query(ctx, `SELECT item_id, redundant_of FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND redundant_of IS NOT NULL`, space)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id, of string
		if err := rows.Scan(&id, &of); err != nil {
			return nil, err
		}
		tags[id] = of
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	tp, fp, positives := 0, 0, 0
	for _, p := range all {
		c := &rep.Categories[p.cat]
		c.Pairs++
		if p.redundant {
			positives++
		}
		if tags[memoryitem.EventID(p.later)] != memoryitem.EventID(p.earlier) {
			continue
		}
		c.Tagged++
		if p.redundant {
			tp++
		} else {
			fp++
			if len(rep.FalsePositives) < 5 {
				rep.FalsePositives = append(rep.FalsePositives, p.pair)
			}
		}
	}
	if tp+fp > 0 {
		rep.Precision = float64(tp) / float64(tp+fp)
	}
	if positives > 0 {
		rep.Recall = float64(tp) / float64(positives)
	}
	return rep, nil
}

func gateMessage(actor, text string) eventloom.NewEvent {
	return eventloom.NewEvent{Type: "message", Actor: actor, Content: text, Data: json.RawMessage(`{"role":"user"}`)}
}

// WriteText prints the report as a table.
func (rep *GateReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "gate lane on %s: %d events projected with the gate on in %.2f s\n", rep.File, rep.Events, rep.ProjectSeconds)
	fmt.Fprintf(w, "%-28s %-9s %6s %7s\n", "category", "label", "pairs", "tagged")
	for _, c := range rep.Categories {
		label := "novel"
		if c.Redundant {
			label = "redundant"
		}
		fmt.Fprintf(w, "%-28s %-9s %6d %7d\n", c.Name, label, c.Pairs, c.Tagged)
	}
	fmt.Fprintf(w, "precision of redundant %.3f, recall %.3f\n", rep.Precision, rep.Recall)
	for _, p := range rep.FalsePositives {
		fmt.Fprintf(w, "false positive (%s): %q → %q\n", p.Category, p.Earlier, p.Later)
	}
}
