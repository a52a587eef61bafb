package embedding

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// useSeparator replaces spaces and starts every text, as in SentencePiece.
const useSeparator = '▁'

// useReserved is the number of reserved vocabulary entries (unknown, <s>, </s> and three extra
// ids) that never match text; an unknown character gets id 0.
const useReserved = 6

// useTokenizer is the Universal Sentence Encoder lite's tokenizer, a port of the reference
// TF.js implementation (@energetic-ai/embeddings, after tfjs-models' universal-sentence-encoder):
// NFKC, "▁" for every space and at the start, then the segmentation of highest total piece
// score (Viterbi over a trie of the vocabulary), with runs of unknown characters merged into
// one id 0. It reproduces that implementation's quirks on purpose (ties go to the later start;
// a best score of exactly 0 counts as unset), because the ids must be the ones the model saw.
type useTokenizer struct {
	// children maps (node<<21 | rune) to the child node; node 0 is the root.
	children map[uint64]int32
	// piece is the vocabulary index ending at each node, -1 when none; score is its score.
	piece []int32
	score []float64
	// runes is each vocabulary entry's length in UTF-16 code units (what the reference steps
	// back by); the vocabulary has no character outside the BMP, so it is also its rune count.
	runes []int
}

// newUSETokenizer builds the trie of vocab (piece, score pairs in id order).
func newUSETokenizer(pieces []string, scores []float64) *useTokenizer {
	t := &useTokenizer{children: make(map[uint64]int32, len(pieces)*2), piece: []int32{-1}, score: []float64{0}, runes: make([]int, len(pieces))}
	for i, p := range pieces {
		n := 0
		for _, r := range p {
			n++
			if r > 0xFFFF {
				n++
			}
		}
		t.runes[i] = n
		if i < useReserved {
			continue
		}
		node := int32(0)
		for _, r := range p {
			key := uint64(node)<<21 | uint64(r)
			child, ok := t.children[key]
			if !ok {
				child = int32(len(t.piece))
				t.children[key] = child
				t.piece = append(t.piece, -1)
				t.score = append(t.score, 0)
			}
			node = child
		}
		if node != 0 {
			t.piece[node], t.score[node] = int32(i), scores[i] // a repeated piece: the later id wins
		}
	}
	return t
}

// useEdge is a piece that ends at some position: where it starts, its id and score.
type useEdge struct {
	start int
	id    int32
	score float64
}

// encode returns the ids of text.
func (t *useTokenizer) encode(text string) []int32 {
	s := norm.NFKC.String(text)
	if s == "" {
		return nil
	}
	syms := []rune(string(useSeparator) + strings.ReplaceAll(s, " ", string(useSeparator)))
	n := len(syms)
	// ends[e] lists the pieces ending at e, by ascending start (the order the reference visits).
	ends := make([][]useEdge, n+1)
	for i := 0; i < n; i++ {
		found := false
		node := int32(0)
		for j := i; j < n; j++ {
			child, ok := t.children[uint64(node)<<21|uint64(syms[j])]
			if !ok {
				break
			}
			node = child
			if id := t.piece[node]; id >= 0 {
				ends[j+1] = append(ends[j+1], useEdge{start: i, id: id, score: t.score[node]})
				found = true
			}
		}
		if !found {
			ends[i+1] = append(ends[i+1], useEdge{start: i, id: 0, score: 0})
		}
	}
	best := make([]float64, n+1)
	words := make([]int32, n+1)
	for e := 0; e <= n; e++ {
		for _, w := range ends[e] {
			sc := w.score + best[w.start]
			if best[e] == 0 || sc >= best[e] {
				best[e], words[e] = sc, w.id
			}
		}
	}
	var rev []int32
	for i := n; i > 0; i -= t.runes[words[i]] {
		rev = append(rev, words[i])
	}
	out := make([]int32, 0, len(rev))
	prevUnk := false
	for _, id := range rev {
		if !(prevUnk && id == 0) {
			out = append(out, id)
		}
		prevUnk = id == 0
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
