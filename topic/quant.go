package topic

import "math"

// Term vectors are stored as 6-bit codes with one scale per vector (in latent_terms' blocks,
// block.go, migration 000070): component i is scale × code[i], code[i] in -31..31. A vector is
// first quantized to 8-bit codes (quantize: the largest magnitude becomes ±127), then narrowed
// to 6 bits from those codes in integer arithmetic (narrow). A 165-dimension term is 124
// bytes of codes instead of 165 in 8 bits and 330 in half precision. (Blocks migration 000070
// converted keep the 8-bit codes they had until their space's next rebuild.)

// quantize returns v's 8-bit codes and their scale. The zero vector has scale 0 and zero codes.
func quantize(v []float32) (float32, []byte) {
	var top float64
	for _, x := range v {
		top = max(top, math.Abs(float64(x)))
	}
	codes := make([]byte, len(v))
	if top == 0 || math.IsNaN(top) || math.IsInf(top, 0) {
		return 0, codes
	}
	scale := float32(top / 127)
	for i, x := range v {
		q := math.Round(float64(x) / float64(scale))
		codes[i] = byte(int8(min(max(q, -127), 127)))
	}
	return scale, codes
}

// codeMax is the largest magnitude of a stored code.
const codeMax = 31

// narrow returns the stored codes (one signed byte each, in -codeMax..codeMax) and scale of
// a vector given as signed byte codes and their scale: with m the codes' largest magnitude,
// the scale becomes scale × m / 31 (in double precision, rounded to single) and each code
// c becomes c × 31 / m rounded half away from zero. Codes already within ±31 with one at ±31
// are kept as they are. All-zero codes give scale 0.
func narrow(scale float32, codes []byte) (float32, []byte) {
	m := 0
	for _, c := range codes {
		m = max(m, abs(int(int8(c))))
	}
	out := make([]byte, len(codes))
	if m == 0 {
		return 0, out
	}
	for i, c := range codes {
		q := int(int8(c))
		n := (abs(q)*2*codeMax + m) / (2 * m)
		if q < 0 {
			n = -n
		}
		out[i] = byte(int8(n))
	}
	return float32(float64(scale) * float64(m) / codeMax), out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// dequantize returns the vector that scale and codes stand for.
func dequantize(scale float32, codes []byte) []float32 {
	v := make([]float32, len(codes))
	for i, c := range codes {
		v[i] = scale * float32(int8(c))
	}
	return v
}

// packedLen is the bytes of dims 6-bit codes packed.
func packedLen(dims int) int { return (dims*6 + 7) / 8 }

// pack6 appends codes (each in -32..31) to dst as 6-bit two's complement fields, the first
// code in the high bits of the first byte, the last byte padded with zero bits.
func pack6(dst, codes []byte) []byte {
	var acc uint32
	bits := 0
	for _, c := range codes {
		acc = acc<<6 | uint32(c&63)
		bits += 6
		for bits >= 8 {
			bits -= 8
			dst = append(dst, byte(acc>>bits))
		}
	}
	if bits > 0 {
		dst = append(dst, byte(acc<<(8-bits)))
	}
	return dst
}

// unpack6 returns dims codes (one signed byte each) from their packed form.
func unpack6(packed []byte, dims int) []byte {
	out := make([]byte, dims)
	var acc uint32
	bits, next := 0, 0
	for i := range out {
		for bits < 6 {
			acc = acc<<8 | uint32(packed[next])
			next++
			bits += 8
		}
		bits -= 6
		u := byte(acc>>bits) & 63
		if u >= 32 {
			u |= 0xC0 // sign-extend
		}
		out[i] = u
	}
	return out
}
