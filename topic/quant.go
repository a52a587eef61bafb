package topic

import "math"

// Term vectors are stored as 8-bit codes with one scale per vector (in latent_terms' blocks,
// block.go): component i is scale × int8(q8[i]), scale the largest magnitude over 127. A
// 143-dimension term is 147 bytes instead of half precision's 294.

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

// dequantize returns the vector that scale and codes stand for.
func dequantize(scale float32, codes []byte) []float32 {
	v := make([]float32, len(codes))
	for i, c := range codes {
		v[i] = scale * float32(int8(c))
	}
	return v
}
