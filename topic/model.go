package topic

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Doc is one text as the model sees it: its text search lexemes and how often each occurs.
type Doc map[string]int

// Params are the knobs of a model build. The zero value of a field means its default.
type Params struct {
	// MinDocs is the fewest documents a model is built from. Default 50: below that, word
	// co-occurrence says nothing.
	MinDocs int
	// MinDF drops terms found in fewer documents. Default 2.
	MinDF int
	// MaxTerms keeps the terms found in the most documents. Default 50,000.
	MaxTerms int
	// DocsPerDim sets the dimensions: documents / DocsPerDim, within 8..MaxDims. Default 3
	// (measured on LongMemEval, docs/topic.md).
	DocsPerDim int
	// MaxDims caps the dimensions. Default 200.
	MaxDims int
	// Seed seeds the random projection, so a rebuild from the same documents gives the same
	// model. Default 1.
	Seed uint64
}

// DefaultParams are the parameters the service uses.
var DefaultParams = Params{MinDocs: 50, MinDF: 2, MaxTerms: 50000, DocsPerDim: 3, MaxDims: 200, Seed: 1}

func (p Params) withDefaults() Params {
	d := DefaultParams
	return Params{
		MinDocs: cmp.Or(p.MinDocs, d.MinDocs), MinDF: cmp.Or(p.MinDF, d.MinDF), MaxTerms: cmp.Or(p.MaxTerms, d.MaxTerms),
		DocsPerDim: cmp.Or(p.DocsPerDim, d.DocsPerDim), MaxDims: cmp.Or(p.MaxDims, d.MaxDims), Seed: cmp.Or(p.Seed, d.Seed),
	}
}

// Model is a latent semantic model (latent semantic indexing): the truncated SVD of a
// space's tf-idf document × term matrix. Terms that occur in the same documents, or with
// the same other terms, get nearby vectors, so two texts can be close without sharing a
// word. Terms maps each kept term to its right singular vector scaled by its idf: a text's
// vector is then the sum of its terms' vectors weighted by 1 + ln(frequency), which for a
// document of the build equals its row of U·Σ.
type Model struct {
	Dims  int
	Docs  int
	Terms map[string][]float32
}

// ErrTooFewDocs means there were fewer documents than Params.MinDocs.
var ErrTooFewDocs = fmt.Errorf("topic: too few documents for a model")

// Build builds a model from docs.
func Build(docs []Doc, p Params) (*Model, error) {
	p = p.withDefaults()
	if len(docs) < p.MinDocs {
		return nil, fmt.Errorf("%w: %d, need %d", ErrTooFewDocs, len(docs), p.MinDocs)
	}
	df := map[string]int{}
	for _, d := range docs {
		for t := range d {
			df[t]++
		}
	}
	var vocab []string
	for t, n := range df {
		if n >= p.MinDF {
			vocab = append(vocab, t)
		}
	}
	// The most widespread terms first, ties by the term, so the vocabulary is deterministic.
	slices.SortFunc(vocab, func(a, b string) int {
		if df[a] != df[b] {
			return df[b] - df[a]
		}
		return strings.Compare(a, b)
	})
	vocab = vocab[:min(len(vocab), p.MaxTerms)]
	if len(vocab) < 2 {
		return nil, fmt.Errorf("%w: only %d terms occur in %d or more documents", ErrTooFewDocs, len(vocab), p.MinDF)
	}
	index := make(map[string]int, len(vocab))
	idf := make([]float64, len(vocab))
	n := float64(len(docs))
	for i, t := range vocab {
		index[t] = i
		idf[i] = math.Log(n / float64(df[t]))
	}
	a := &sparseRows{terms: len(vocab), rows: make([][]entry, 0, len(docs))}
	for _, d := range docs {
		var row []entry
		for t, tf := range d {
			if i, ok := index[t]; ok && idf[i] > 0 {
				row = append(row, entry{term: i, weight: tfWeight(tf) * idf[i]})
			}
		}
		slices.SortFunc(row, func(x, y entry) int { return x.term - y.term })
		a.rows = append(a.rows, row)
	}
	dims := min(max(len(docs)/p.DocsPerDim, 8), p.MaxDims, len(docs)-1, len(vocab)-1)
	v, _, err := truncatedSVD(a, dims, 10, 2, p.Seed)
	if err != nil {
		return nil, err
	}
	m := &Model{Dims: dims, Docs: len(docs), Terms: make(map[string][]float32, len(vocab))}
	for i, t := range vocab {
		vec := make([]float32, dims)
		for j := range dims {
			vec[j] = float32(idf[i] * v.At(i, j))
		}
		m.Terms[t] = vec
	}
	return m, nil
}

// tfWeight is the sublinear term frequency weight 1 + ln(tf).
func tfWeight(tf int) float64 { return 1 + math.Log(float64(max(tf, 1))) }

// Fold returns the unit-length latent vector of a text from its terms' vectors (terms the
// model does not know are skipped), or nil when it knows none of them.
func Fold(terms map[string][]float32, doc Doc) []float32 {
	var sum []float64
	// Sorted, so the float sums are the same on every run.
	keys := make([]string, 0, len(doc))
	for t := range doc {
		keys = append(keys, t)
	}
	slices.Sort(keys)
	for _, t := range keys {
		vec, ok := terms[t]
		if !ok {
			continue
		}
		if sum == nil {
			sum = make([]float64, len(vec))
		}
		w := tfWeight(doc[t])
		for j, x := range vec {
			sum[j] += w * float64(x)
		}
	}
	if sum == nil {
		return nil
	}
	norm := mat.Norm(mat.NewVecDense(len(sum), sum), 2)
	if norm == 0 {
		return nil
	}
	out := make([]float32, len(sum))
	for j, x := range sum {
		out[j] = float32(x / norm)
	}
	return out
}
