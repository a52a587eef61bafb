package topic

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// blockTerms returns n terms of dims codes each, sorted in byte order, with lexemes of
// varied lengths (one long, some not ASCII).
func blockTerms(n, dims int) []termCode {
	out := make([]termCode, n)
	for i := range out {
		lexeme := fmt.Sprintf("t%05d", i*7919%100000)
		switch i % 13 {
		case 3:
			lexeme += "é"
		case 5:
			lexeme += strings.Repeat("x", 300)
		}
		codes := make([]byte, dims)
		for j := range codes {
			codes[j] = byte(i*31 + j*7)
		}
		out[i] = termCode{lexeme: lexeme, scale: float32(i+1) / 1024, codes: codes}
	}
	slices.SortFunc(out, func(a, b termCode) int { return strings.Compare(a.lexeme, b.lexeme) })
	return out
}

func TestPackBlocks_EveryTermReadsBackFromTheBlockItsLexemeFalls(t *testing.T) {
	terms := blockTerms(500, 165)
	blocks := packBlocks(165, terms)
	require.Greater(t, len(blocks), 10)
	var got []termCode
	offset := 0
	for i, b := range blocks {
		if i > 0 {
			require.Less(t, blocks[i-1].first, b.first)
		}
		var in []termCode
		require.NoError(t, unpackBlock(b.data, func(lexeme []byte, scale float32, codes []byte) bool {
			in = append(in, termCode{lexeme: string(lexeme), scale: scale, codes: slices.Clone(codes)})
			return true
		}))
		require.Equal(t, b.first, in[0].lexeme, "a block is keyed by its first lexeme")
		for _, c := range in {
			require.Equal(t, i, offset/blockBytes, "the record starting at byte %d goes to block %d", offset, offset/blockBytes)
			offset += recordSize(c)
		}
		require.LessOrEqual(t, len(b.data), 2+blockBytes+2+306+4+165, "at most one record past blockBytes")
		got = append(got, in...)
	}
	require.Equal(t, terms, got)

	// The block a lexeme is looked up in: the greatest first lexeme not after it.
	for _, term := range terms {
		i, found := slices.BinarySearchFunc(blocks, term.lexeme, func(b termBlock, l string) int { return strings.Compare(b.first, l) })
		if !found {
			i--
		}
		vecs := map[string][]float32{}
		require.NoError(t, termsOf([][]byte{blocks[i].data}, map[string]bool{term.lexeme: true}, vecs))
		require.Equal(t, dequantize(term.scale, term.codes), vecs[term.lexeme])
		require.Len(t, vecs, 1, "only the wanted lexeme")
	}
}

func TestUnpackBlock_RefusesCutShortBlocks(t *testing.T) {
	b := packBlocks(4, []termCode{{lexeme: "harbour", scale: 0.5, codes: []byte{1, 2, 3, 4}}})[0].data
	require.NoError(t, unpackBlock(b, func([]byte, float32, []byte) bool { return true }))
	for _, n := range []int{0, 1, 3, len(b) - 1} {
		require.Error(t, unpackBlock(b[:n], func([]byte, float32, []byte) bool { return true }), "%d bytes", n)
	}
	require.NoError(t, unpackBlock(b[:2], func([]byte, float32, []byte) bool { return true }), "a header alone holds no terms")
}
