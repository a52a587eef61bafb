package topic

import (
	"encoding/binary"
	"fmt"
	"math"
)

// A space's term vectors are stored in blocks (latent_terms, migration 000070): the terms in
// byte order of their lexemes, cut into runs of about blockBytes, one row a run keyed by its
// first lexeme. A lexeme's vector is in the block with the greatest first lexeme not after it.
// A row per term spent about 70 bytes on its tuple header, key and index entry, a block row
// spends that once for some twenty terms.
//
// A block's bytes are the dimension count (uint16) and then each term in order: its lexeme's
// length (uint16), the lexeme (UTF-8), its scale (IEEE 754 single precision) and its 8-bit
// codes (one a dimension, quant.go); every number big-endian, as Postgres' int2send and
// float4send write them, so migration 000070 builds the same blocks in SQL.

// blockBytes is where blocks are cut: a term whose record starts at byte offset o of the
// space's records (the dimension headers not counted) goes to block o / blockBytes. A block
// then holds blockBytes bytes of records on average, at most one record more, so two rows fit
// in a heap page (the table's toast_tuple_target keeps them inline and uncompressed).
const blockBytes = 3900

// termCode is a term's vector in storage form: its lexeme, scale and 8-bit codes.
type termCode struct {
	lexeme string
	scale  float32
	codes  []byte
}

// termBlock is one stored block: its first lexeme and its bytes.
type termBlock struct {
	first string
	data  []byte
}

// recordSize is the bytes of a term's record in a block.
func recordSize(t termCode) int { return 2 + len(t.lexeme) + 4 + len(t.codes) }

// packBlocks cuts terms, sorted by lexeme in byte order and each with dims codes, into blocks.
func packBlocks(dims int, terms []termCode) []termBlock {
	var out []termBlock
	offset, current := 0, -1
	for _, t := range terms {
		if n := offset / blockBytes; n != current {
			current = n
			head := binary.BigEndian.AppendUint16(make([]byte, 0, blockBytes+512), uint16(dims))
			out = append(out, termBlock{first: t.lexeme, data: head})
		}
		b := &out[len(out)-1]
		b.data = binary.BigEndian.AppendUint16(b.data, uint16(len(t.lexeme)))
		b.data = append(b.data, t.lexeme...)
		b.data = binary.BigEndian.AppendUint32(b.data, math.Float32bits(t.scale))
		b.data = append(b.data, t.codes...)
		offset += recordSize(t)
	}
	return out
}

// unpackBlock calls fn with each term of a block, in order, until fn returns false. The
// lexeme and codes fn gets share the block's memory.
func unpackBlock(data []byte, fn func(lexeme []byte, scale float32, codes []byte) bool) error {
	if len(data) < 2 {
		return fmt.Errorf("read term block: %d bytes, no header", len(data))
	}
	dims := int(binary.BigEndian.Uint16(data))
	for pos := 2; pos < len(data); {
		if pos+2 > len(data) {
			return fmt.Errorf("read term block: record at byte %d cut short", pos)
		}
		n := int(binary.BigEndian.Uint16(data[pos:]))
		end := pos + 2 + n + 4 + dims
		if end > len(data) {
			return fmt.Errorf("read term block: record at byte %d cut short", pos)
		}
		lexeme := data[pos+2 : pos+2+n]
		scale := math.Float32frombits(binary.BigEndian.Uint32(data[pos+2+n:]))
		if !fn(lexeme, scale, data[pos+2+n+4:end]) {
			return nil
		}
		pos = end
	}
	return nil
}

// termsOf adds to terms the vectors of the wanted lexemes found in the blocks (every lexeme
// of the blocks when want is nil).
func termsOf(blocks [][]byte, want map[string]bool, terms map[string][]float32) error {
	for _, b := range blocks {
		err := unpackBlock(b, func(lexeme []byte, scale float32, codes []byte) bool {
			if want == nil || want[string(lexeme)] {
				terms[string(lexeme)] = dequantize(scale, codes)
			}
			return true
		})
		if err != nil {
			return err
		}
	}
	return nil
}
