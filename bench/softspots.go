package bench

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Soft-spot sets: small labelled question sets, generated from templates with a fixed seed,
// for the three kinds of question retrieval was weakest on (docs/benchmarks.md, "Soft spots"):
// preferences stated in passing (SoftSpotPreference), coding-assistant sessions with long code
// and logs (SoftSpotCoding), and questions whose answer is spread over several sessions
// (SoftSpotMultiSession). Each set has a dev split, to look at while changing ranking, and
// held-out splits, each drawn from its own seed and from phrasings the dev split never uses: a
// held-out split is run once, at the end of a change, and a later change takes a new one.
const (
	SoftSpotPreference   = "preference"
	SoftSpotCoding       = "coding"
	SoftSpotMultiSession = "multi-session"
	// SoftSpotDev, SoftSpotHeldOut and SoftSpotHeldOut2 name the splits.
	SoftSpotDev      = "dev"
	SoftSpotHeldOut  = "held-out"
	SoftSpotHeldOut2 = "held-out-2"
)

// SoftSpotSplits are the splits SoftSpotCases generates, in report order.
var SoftSpotSplits = []string{SoftSpotDev, SoftSpotHeldOut, SoftSpotHeldOut2}

// SoftSpotSets are the sets SoftSpotCases generates, in report order.
var SoftSpotSets = []string{SoftSpotPreference, SoftSpotCoding, SoftSpotMultiSession}

// softSpotSeeds are the splits' seeds; each differs so no case repeats.
var softSpotSeeds = map[string]uint64{SoftSpotDev: 35_01, SoftSpotHeldOut: 35_99, SoftSpotHeldOut2: 35_57}

// softSpotCases is how many cases (spaces) each split of each set has.
var softSpotCases = map[string]int{SoftSpotDev: 6, SoftSpotHeldOut: 4, SoftSpotHeldOut2: 4}

// SoftSpotCases generates the cases of one set ("preference", "coding", "multi-session" or
// "all") and split ("dev", "held-out", "held-out-2" or "all"). The same arguments give the same cases on
// every machine: the generator draws from a PCG with a fixed seed per split. Cases come out as
// LongMemEval-shaped cases (roles user and assistant, session ids, evidence turns), so the
// retrieval benchmark scores them as it scores LongMemEval.
func SoftSpotCases(set, split string) ([]Case, error) {
	sets, err := pickNames("set", set, SoftSpotSets)
	if err != nil {
		return nil, err
	}
	splits, err := pickNames("split", split, SoftSpotSplits)
	if err != nil {
		return nil, err
	}
	var out []Case
	for _, sp := range splits {
		for si, s := range sets {
			for i := 0; i < softSpotCases[sp]; i++ {
				g := newSSGen(softSpotSeeds[sp]+uint64(si)*1000+uint64(i), sp != SoftSpotDev)
				id := fmt.Sprintf("ss-%s-%s-%d", s, sp, i)
				switch s {
				case SoftSpotPreference:
					g.preferenceCase()
				case SoftSpotCoding:
					g.codingCase()
				default:
					g.multiSessionCase()
				}
				out = append(out, g.build(id, s))
			}
		}
	}
	return out, nil
}

func pickNames(field, v string, all []string) ([]string, error) {
	if v == "" || v == "all" {
		return all, nil
	}
	for _, a := range all {
		if a == v {
			return []string{v}, nil
		}
	}
	return nil, fmt.Errorf("soft spots: %s must be one of %s or all, got %q", field, strings.Join(all, ", "), v)
}

// ssTurn is a generated turn; key, when set, names the evidence it is for.
type ssTurn struct {
	role, text string
	keys       []string
}

type ssSession struct{ turns []ssTurn }

type ssQuestion struct {
	typ, text string
	keys      []string // evidence keys: every turn carrying one is evidence
}

// ssGen generates one case: sessions (shuffled into time order at build) and questions.
type ssGen struct {
	r         *rand.Rand
	held      bool
	sessions  []ssSession
	questions []ssQuestion
	used      map[string]bool
}

func newSSGen(seed uint64, held bool) *ssGen {
	return &ssGen{r: rand.New(rand.NewPCG(seed, seed^0x5eed)), held: held, used: map[string]bool{}}
}

// phrase picks a phrasing: the dev split draws from the first two thirds of the list only, a
// held-out split from all of it, so a third of the held-out phrasings are never seen in dev.
func (g *ssGen) phrase(xs []string) string {
	n := len(xs)
	if !g.held && n >= 3 {
		n = (2*n + 2) / 3
	}
	return xs[g.r.IntN(n)]
}

// one picks any value of xs.
func (g *ssGen) one(xs []string) string { return xs[g.r.IntN(len(xs))] }

// fresh picks a value of xs not picked before in this case (any, once all are used).
func (g *ssGen) fresh(xs []string) string {
	for range 20 {
		v := g.one(xs)
		if !g.used[v] {
			g.used[v] = true
			return v
		}
	}
	return g.one(xs)
}

// fill replaces {name} placeholders with their values.
func fill(tmpl string, kv ...string) string {
	for i := 0; i+1 < len(kv); i += 2 {
		tmpl = strings.ReplaceAll(tmpl, "{"+kv[i]+"}", kv[i+1])
	}
	return tmpl
}

// capFirst upper-cases the first letter.
func capFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// build shuffles the sessions into a time line and assigns ids, dates and evidence.
func (g *ssGen) build(id, set string) Case {
	g.r.Shuffle(len(g.sessions), func(i, j int) { g.sessions[i], g.sessions[j] = g.sessions[j], g.sessions[i] })
	start := time.Date(2025, 1, 6, 9, 0, 0, 0, time.UTC)
	c := Case{ID: id, Dataset: DatasetLongMemEval}
	byKey := map[string][]string{}
	sessOf := map[string]string{}
	for s, sess := range g.sessions {
		sid := id + "_s" + strconv.Itoa(s+1)
		date := start.Add(time.Duration(s)*61*time.Hour + time.Duration(g.r.IntN(180))*time.Minute)
		for i, t := range sess.turns {
			tid := sid + "_" + strconv.Itoa(i+1)
			c.Turns = append(c.Turns, Turn{SessionID: sid, TurnID: tid, Role: t.role, Text: t.text, Date: date})
			for _, k := range t.keys {
				byKey[k] = append(byKey[k], tid)
				sessOf[tid] = sid
			}
		}
	}
	qDate := endOfDay(start.Add(time.Duration(len(g.sessions)+2) * 61 * time.Hour))
	for qi, q := range g.questions {
		qq := Question{ID: fmt.Sprintf("%s#%d", id, qi), Type: set, Text: q.text, Date: qDate}
		for _, k := range q.keys {
			qq.EvidenceTurns = append(qq.EvidenceTurns, byKey[k]...)
		}
		qq.EvidenceTurns = dedupe(qq.EvidenceTurns)
		for _, t := range qq.EvidenceTurns {
			qq.EvidenceSessions = append(qq.EvidenceSessions, sessOf[t])
		}
		qq.EvidenceSessions = dedupe(qq.EvidenceSessions)
		if len(qq.EvidenceTurns) == 0 {
			panic("soft spots: question without evidence: " + q.text)
		}
		c.Questions = append(c.Questions, qq)
	}
	return c
}
