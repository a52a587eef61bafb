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
			codes[j] = byte(int8((i*31+j*7)%63 - codeMax))
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
		require.NoError(t, unpackBlock(b.data, func(h blockHead, lexeme []byte, scale float32, raw []byte) bool {
			require.Equal(t, blockHead{dims: 165, bits: 6}, h)
			in = append(in, termCode{lexeme: string(lexeme), scale: scale, codes: h.codes(raw)})
			return true
		}))
		require.Equal(t, b.first, in[0].lexeme, "a block is keyed by its first lexeme")
		for _, c := range in {
			require.Equal(t, i, offset/blockBytes, "the record starting at byte %d goes to block %d", offset, offset/blockBytes)
			offset += recordSize(c)
		}
		require.LessOrEqual(t, len(b.data), 3+blockBytes+2+306+4+packedLen(165), "at most one record past blockBytes")
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
	all := func(blockHead, []byte, float32, []byte) bool { return true }
	b := packBlocks(4, []termCode{{lexeme: "harbour", scale: 0.5, codes: []byte{1, 2, 3, 4}}})[0].data
	require.NoError(t, unpackBlock(b, all))
	for _, n := range []int{0, 1, 2, 4, len(b) - 1} {
		require.Error(t, unpackBlock(b[:n], all), "%d bytes", n)
	}
	require.NoError(t, unpackBlock(b[:3], all), "a header alone holds no terms")
	b[2] = 7
	require.Error(t, unpackBlock(b, all), "7-bit codes")
}

// Blocks as migration 000070 writes them hold the 8-bit codes it found, one signed byte each:
// they read back as they were.
func TestUnpackBlock_ReadsEightBitBlocks(t *testing.T) {
	b := []byte{0, 3, 8, 0, 2, 'a', 'b', 0x3f, 0x80, 0, 0, 0x7f, 0x81, 0x05, 0, 1, 'c', 0, 0, 0, 0, 0, 0, 0}
	vecs := map[string][]float32{}
	require.NoError(t, termsOf([][]byte{b}, nil, vecs))
	require.Equal(t, map[string][]float32{"ab": {127, -127, 5}, "c": {0, 0, 0}}, vecs)
}
