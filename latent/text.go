package latent

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// sentence is one sentence of an event's text.
type sentence struct {
	Seq   int64
	Index int // position within the event's text
	Text  string
}

// maxSentenceBytes caps a quoted sentence; longer ones are cut at a rune boundary with "…".
const maxSentenceBytes = 300

// splitSentences splits text at sentence ends (., ! or ? followed by a space) and line breaks,
// keeping sentences of at least three words.
func splitSentences(seq int64, text string) []sentence {
	var out []sentence
	start := 0
	flush := func(end int) {
		s := strings.Join(strings.Fields(text[start:end]), " ")
		start = end
		if len(strings.Fields(s)) < 3 {
			return
		}
		if len(s) > maxSentenceBytes {
			cut := maxSentenceBytes
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			s = s[:cut] + "…"
		}
		out = append(out, sentence{Seq: seq, Index: len(out), Text: s})
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n':
			flush(i + 1)
		case (c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n'):
			flush(i + 1)
		}
	}
	flush(len(text))
	return out
}

// stopwords are left out of the centrality vectors.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the and for that this with you are was were have has had not but all any can
		her his its our their them they she him who what when where which why how will would could should
		from into onto about over under then than there here just also very more most some such only own
		same too out off again further once been being does did doing each few other nor yes let get got
		my me we us it is be do an of to in on at by or as if so no up i a`) {
		stopwords[w] = true
	}
}

// terms are a text's lowercase words of at least three letters or digits, stopwords left out.
func terms(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if utf8.RuneCountInString(f) >= 3 && !stopwords[f] {
			out = append(out, f)
		}
	}
	return out
}

// central returns up to k of the sentences, the most central first dropped into seq order:
// each sentence is a tf-idf vector over the sentences, its centrality the cosine to their sum.
// Ties go to the earlier sentence; duplicate texts count once.
func central(sents []sentence, k int) []sentence {
	seen := map[string]bool{}
	var uniq []sentence
	for _, s := range sents {
		key := strings.ToLower(s.Text)
		if !seen[key] {
			seen[key] = true
			uniq = append(uniq, s)
		}
	}
	if len(uniq) <= k {
		return uniq
	}
	df := map[string]int{}
	tfs := make([]map[string]float64, len(uniq))
	for i, s := range uniq {
		tfs[i] = map[string]float64{}
		for _, t := range terms(s.Text) {
			tfs[i][t]++
		}
		for t := range tfs[i] {
			df[t]++
		}
	}
	n := float64(len(uniq))
	vecs := make([]map[string]float64, len(uniq))
	sum := map[string]float64{}
	keys := make([][]string, len(uniq))
	for i, tf := range tfs {
		// Sorted keys: float sums in a fixed order give the same bits on every run.
		keys[i] = make([]string, 0, len(tf))
		for t := range tf {
			keys[i] = append(keys[i], t)
		}
		sort.Strings(keys[i])
		v := map[string]float64{}
		norm := 0.0
		for _, t := range keys[i] {
			w := (1 + math.Log(tf[t])) * math.Log(1+n/float64(df[t]))
			v[t] = w
			norm += w * w
		}
		norm = math.Sqrt(norm)
		for _, t := range keys[i] {
			if norm > 0 {
				v[t] /= norm
			}
			sum[t] += v[t]
		}
		vecs[i] = v
	}
	type scored struct {
		i     int
		score float64
	}
	sc := make([]scored, len(uniq))
	for i, v := range vecs {
		dot := 0.0
		for _, t := range keys[i] {
			dot += v[t] * sum[t]
		}
		// Rounded so that float summation order cannot reorder near-ties between runs.
		sc[i] = scored{i, math.Round(dot*1e9) / 1e9}
	}
	sort.SliceStable(sc, func(a, b int) bool { return sc[a].score > sc[b].score })
	picked := make([]int, 0, k)
	for _, s := range sc[:k] {
		picked = append(picked, s.i)
	}
	sort.Ints(picked)
	out := make([]sentence, len(picked))
	for j, i := range picked {
		out[j] = uniq[i]
	}
	return out
}
