package projection

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/zaxy/zaxy/embedding"
)

// The encoding gate's paraphrase test (docs/projections.md, "Encoding gate"): with a paraphrase
// embedder configured (Config.GateParaphrase), an event item is also redundant of an earlier
// ranked item of the same scope (event type, actor, cues) that says the same in other words:
//
//   - the embedder's vectors of the two texts have a cosine of at least
//     GateParaphraseMinCosine;
//   - the two texts state the same values (valueSignature: numbers, dates, names, units,
//     identifiers, quantifiers, polarities, negations);
//   - the new text's content words (stopwords left out, crudely stemmed) are the earlier text's
//     but for at most GateParaphraseMaxNewWords, each standing in for one of the earlier
//     text's that it leaves out, and both have at least gateParaphraseMinWords of them: a
//     paraphrase rewords, it does not add.
//
// Its candidates are found like the MinHash ones, through gate_keys: every ranked item also
// gets gateVecBands keys of random-hyperplane signatures of its vector (gateVecRows signs
// each), scoped like the MinHash keys and by the embedder's model. The gate computes the
// vectors itself, from the text, with the embedder the projector was built with; the
// embedders it accepts are pure functions of the text (the same bytes on every machine), so a
// rebuild reproduces the incremental projection.

// GateParaphraseMinCosine is the smallest cosine similarity of two items' paraphrase vectors
// for the later to be a paraphrase of the earlier.
const GateParaphraseMinCosine = 0.90

// GateParaphraseMaxNewWords is how many of a paraphrase's content words may be absent from the
// text it rewords.
const GateParaphraseMaxNewWords = 1

// gateParaphraseMinWords is the fewest content words a text needs to be compared as a
// paraphrase ("thanks" and "thank you" are left to the word-sequence test).
const gateParaphraseMinWords = 3

// Random-hyperplane banding of an item's vector: two vectors at angle θ agree on one sign with
// probability 1-θ/π; they share one of gateVecBands bands of gateVecRows signs with probability
// 1-(1-(1-θ/π)^gateVecRows)^gateVecBands.
const (
	gateVecBands = 8
	gateVecRows  = 8
)

// gateParaphraser is the paraphrase test's embedder and its hyperplanes.
type gateParaphraser struct {
	emb    embedding.Embedder
	planes [][]float32 // gateVecBands*gateVecRows hyperplanes of ±1 entries
}

// newGateParaphraser returns the paraphrase test over emb, nil when emb is nil.
func newGateParaphraser(emb embedding.Embedder) *gateParaphraser {
	if emb == nil {
		return nil
	}
	d := emb.Dimensions()
	p := &gateParaphraser{emb: emb, planes: make([][]float32, gateVecBands*gateVecRows)}
	for i := range p.planes {
		row := make([]float32, d)
		var seed [16]byte
		for j := range row {
			binary.BigEndian.PutUint64(seed[:8], uint64(i))
			binary.BigEndian.PutUint64(seed[8:], uint64(j))
			if sha256.Sum256(seed[:])[0]&1 == 0 {
				row[j] = 1
			} else {
				row[j] = -1
			}
		}
		p.planes[i] = row
	}
	return p
}

// embed returns the vectors of texts.
func (p *gateParaphraser) embed(ctx context.Context, texts []string) ([][]float32, error) {
	vs, err := p.emb.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embed gate texts: %w", err)
	}
	return vs, nil
}

// keys returns the band keys of vec, scoped by the model, event type, actor and cues (as
// gateKeys); none for the zero vector.
func (p *gateParaphraser) keys(eventType, actor string, cues []byte, vec []float32) []int32 {
	zero := true
	for _, x := range vec {
		if x != 0 {
			zero = false
			break
		}
	}
	if zero {
		return nil
	}
	keys := make([]int32, gateVecBands)
	for band := range gateVecBands {
		var bits uint64
		for r := range gateVecRows {
			var dot float64
			for j, x := range p.planes[band*gateVecRows+r] {
				dot += float64(x * vec[j])
			}
			if dot >= 0 {
				bits |= 1 << r
			}
		}
		h := sha256.New()
		fmt.Fprintf(h, "paraphrase\x00%s\x00%s\x00%s\x00%s\x00%d\x00%d", p.emb.Model(), eventType, actor, gateCues(cues), band, bits)
		keys[band] = int32(binary.BigEndian.Uint32(h.Sum(nil)[:4]))
	}
	return keys
}

// gatePhrase is what the paraphrase test compares of a text.
type gatePhrase struct {
	text string
	// order is the text's content words in order (stemmed as content), numbers its words with
	// a digit, repeats kept, sorted, and asks its question words ("how", "what"...), sorted.
	order, numbers, asks []string
	// contrast is whether it sets things against each other ("over", "than", "instead"...),
	// where swapping them says the opposite.
	contrast bool
	vec      []float32 // nil until needed (vector)
	values   gateValues
	content  map[string]struct{}
	words    int // content words, repeats counted once
}

// newGatePhrase computes the comparison data of text, with its vector when known (nil: computed
// when needed).
func newGatePhrase(text string, vec []float32) *gatePhrase {
	words := gateWords(text)
	c := contentWords(words)
	ph := &gatePhrase{text: text, vec: vec, values: valueSignature(text), content: c, words: len(c)}
	for _, w := range words {
		ph.contrast = ph.contrast || gateContrasts[w]
		switch _, stop := gateStopwords[w]; {
		case strings.IndexFunc(w, unicode.IsDigit) >= 0:
			ph.numbers = append(ph.numbers, w)
		case gateAsks[w]:
			ph.asks = append(ph.asks, w)
		case !stop && !negation(w):
			ph.order = append(ph.order, crudeStem(w))
		}
	}
	slices.Sort(ph.numbers)
	slices.Sort(ph.asks)
	ph.asks = slices.Compact(ph.asks)
	return ph
}

// vector returns ph's vector, computing it the first time. The embedders the gate accepts only
// compute (no I/O) and fail only when their context is done, so it runs without one.
func (p *gateParaphraser) vector(ph *gatePhrase) []float32 {
	if ph.vec == nil {
		vs, err := p.emb.Embed(context.Background(), []string{ph.text})
		if err != nil || len(vs) != 1 {
			return nil
		}
		ph.vec = vs[0]
	}
	return ph.vec
}

// paraphrase reports whether later rewords earlier (the rules above), checking the words and
// values before computing a vector.
func (p *gateParaphraser) paraphrase(later, earlier *gatePhrase) bool {
	if later.words < gateParaphraseMinWords || earlier.words < gateParaphraseMinWords {
		return false
	}
	added, kept := 0, 0
	for w := range later.content {
		if _, ok := earlier.content[w]; !ok {
			added++
		} else {
			kept++
		}
	}
	// A new word must stand in for one of the earlier text's ("began" for "started"), not
	// come on top of them ("peanuts and shellfish").
	if added > GateParaphraseMaxNewWords || added > earlier.words-kept {
		return false
	}
	if !later.values.equal(earlier.values) || !slices.Equal(later.numbers, earlier.numbers) || !slices.Equal(later.asks, earlier.asks) {
		return false
	}
	if (later.contrast || earlier.contrast) && !slices.Equal(sharedInOrder(later.order, earlier.content), sharedInOrder(earlier.order, later.content)) {
		// "animation over live video" is not "live video over animation".
		return false
	}
	a, b := p.vector(later), p.vector(earlier)
	return a != nil && b != nil && cosine(a, b) >= GateParaphraseMinCosine
}

// sharedInOrder returns the words of order that set holds, in order, each once.
func sharedInOrder(order []string, set map[string]struct{}) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range order {
		if _, ok := set[w]; ok && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// gateAsks are the question words: a paraphrase asks what the text asks, or states what it
// states.
var gateAsks = map[string]bool{"how": true, "what": true, "why": true, "where": true, "which": true, "who": true,
	"whom": true, "whose": true, "when": true, "another": true}

// gateContrasts are the words that set two things against each other.
var gateContrasts = map[string]bool{"over": true, "than": true, "versus": true, "vs": true, "instead": true, "rather": true,
	"from": true, "into": true, "replace": true, "replaced": true, "replacing": true}

// cosine is the cosine similarity of two vectors of one length (0 when either is zero).
func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// contentWords returns the distinct content words of words: stopwords left out, the rest
// crudely stemmed ("failing", "fails" and "failed" are "fail").
func contentWords(words []string) map[string]struct{} {
	out := map[string]struct{}{}
	for _, w := range words {
		if _, stop := gateStopwords[w]; stop || negation(w) {
			continue
		}
		out[crudeStem(w)] = struct{}{}
	}
	return out
}

// crudeStem strips one common English suffix from a word longer than four letters.
func crudeStem(w string) string {
	if len(w) <= 4 {
		return w
	}
	for _, suf := range []string{"ing", "ed", "es", "s", "ly"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// gateStopwords are the words a paraphrase may add or drop freely.
var gateStopwords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`a an the this that these those it its there here my our your his her their we you he
	she they me us them i i'm i've i'd i'll we're we've you're it's that's let's let please
	can could would should will shall may might must do does did done is are was were be been being am
	have has had having get got gets getting when where what why how which who whom whose if because
	since as for in on at to from with by of into onto about over under during while so but and or
	nor yet then also just still even again really very quite actually anyway maybe perhaps well
	yes yeah ok okay sure hi hello hey thanks thank sorry some any one another other such than too
	now lately currently recently own same like want need over than`) {
		m[w] = struct{}{}
	}
	return m
}()
