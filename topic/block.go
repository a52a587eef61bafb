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
// spends that once for some thirty terms.
//
// A block's bytes are the dimension count (uint16), the bits of a code (one byte: 6 or 8) and
// then each term in order: its lexeme's length (uint16), the lexeme (UTF-8), its scale (IEEE
// 754 single precision) and its codes: 6-bit codes packed (quant.go: pack6) or one signed byte
// each. Every number is big-endian, as Postgres' int2send and float4send write them. A
// rebuild writes 6-bit codes; migration 000070 wrote the 8-bit codes it found, in the same
// cut, until the space's next rebuild.

// blockBytes is where blocks are cut: a term whose record starts at byte offset o of the
// space's records (the blocks' headers not counted) goes to block o / blockBytes. A block
// then holds blockBytes bytes of records on average, at most one record more, so two rows fit
// in a heap page (the table's toast_tuple_target keeps them inline and uncompressed).
const blockBytes = 3900

// termCode is a term's vector in storage form: its lexeme, scale and codes (one signed byte
// each, within ±codeMax; packed when written).
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
func recordSize(t termCode) int { return 2 + len(t.lexeme) + 4 + packedLen(len(t.codes)) }

// packBlocks cuts terms, sorted by lexeme in byte order and each with dims codes, into blocks.
func packBlocks(dims int, terms []termCode) []termBlock {
	var out []termBlock
	offset, current := 0, -1
	for _, t := range terms {
		if n := offset / blockBytes; n != current {
			current = n
			head := binary.BigEndian.AppendUint16(make([]byte, 0, blockBytes+512), uint16(dims))
			head = append(head, 6)
			out = append(out, termBlock{first: t.lexeme, data: head})
		}
		b := &out[len(out)-1]
		b.data = binary.BigEndian.AppendUint16(b.data, uint16(len(t.lexeme)))
		b.data = append(b.data, t.lexeme...)
		b.data = binary.BigEndian.AppendUint32(b.data, math.Float32bits(t.scale))
		b.data = pack6(b.data, t.codes)
		offset += recordSize(t)
	}
	return out
}

// blockHead is a block's header: the dimensions and the bits of a code.
type blockHead struct{ dims, bits int }

// codes returns a term's codes, one signed byte each, from their stored form.
func (h blockHead) codes(raw []byte) []byte {
	if h.bits == 8 {
		return raw
	}
	return unpack6(raw, h.dims)
}

// unpackBlock calls fn with each term of a block, in order, until fn returns false: its
// lexeme, scale and codes as stored (h.codes reads them). The lexeme and codes fn gets share
// the block's memory.
func unpackBlock(data []byte, fn func(h blockHead, lexeme []byte, scale float32, raw []byte) bool) error {
	if len(data) < 3 {
		return fmt.Errorf("read term block: %d bytes, no header", len(data))
	}
	h := blockHead{dims: int(binary.BigEndian.Uint16(data)), bits: int(data[2])}
	size := h.dims
	switch h.bits {
	case 8:
	case 6:
		size = packedLen(h.dims)
	default:
		return fmt.Errorf("read term block: %d-bit codes", h.bits)
	}
	for pos := 3; pos < len(data); {
		if pos+2 > len(data) {
			return fmt.Errorf("read term block: record at byte %d cut short", pos)
		}
		n := int(binary.BigEndian.Uint16(data[pos:]))
		end := pos + 2 + n + 4 + size
		if end > len(data) {
			return fmt.Errorf("read term block: record at byte %d cut short", pos)
		}
		lexeme := data[pos+2 : pos+2+n]
		scale := math.Float32frombits(binary.BigEndian.Uint32(data[pos+2+n:]))
		if !fn(h, lexeme, scale, data[pos+2+n+4:end]) {
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
		err := unpackBlock(b, func(h blockHead, lexeme []byte, scale float32, raw []byte) bool {
			if want == nil || want[string(lexeme)] {
				terms[string(lexeme)] = dequantize(scale, h.codes(raw))
			}
			return true
		})
		if err != nil {
			return err
		}
	}
	return nil
}
