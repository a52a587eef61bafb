package topic

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestQuantize_RoundTripsWithinHalfAStep(t *testing.T) {
	v := []float32{0.5, -1.27, 0.001, 0, 1.0, -0.3333}
	scale, codes := quantize(v)
	require.Len(t, codes, len(v))
	require.InDelta(t, 1.27/127, scale, 1e-9)
	back := dequantize(scale, codes)
	for i := range v {
		require.InDelta(t, v[i], back[i], float64(scale)/2+1e-7, "component %d", i)
	}
	require.Equal(t, int8(-127), int8(codes[1]), "the largest magnitude is ±127")
	s2, c2 := quantize(back)
	require.Equal(t, codes, c2, "the stored vector quantizes to the same codes")
	require.InDelta(t, scale, s2, 1e-7)
}

func TestQuantize_ZeroAndNonFiniteGiveZeroCodes(t *testing.T) {
	for _, v := range [][]float32{{0, 0}, {float32(math.NaN()), 1}, {float32(math.Inf(1)), 1}} {
		scale, codes := quantize(v)
		require.Zero(t, scale)
		require.Equal(t, []byte{0, 0}, codes)
	}
}

func TestNarrow_SixBitCodesRoundHalfAwayFromZero(t *testing.T) {
	codes := []byte{127, 0x81, 2, 0xFE, 0, 64, 0xC0, 6, 0xFA}
	scale, six := narrow(0.01, codes)
	require.Equal(t, float32(0.01*127.0/31), scale)
	// c × 31 / 127: 31, -31, 0.49 → 0, -0.49 → 0, 0, 15.6 → 16, -16, 1.46 → 1, -1
	require.Equal(t, []int8{31, -31, 0, 0, 0, 16, -16, 1, -1}, int8s(six))
	s2, again := narrow(scale, six)
	require.Equal(t, scale, s2, "codes with one at ±31 are kept")
	require.Equal(t, six, again)
	s0, zero := narrow(0.5, []byte{0, 0})
	require.Zero(t, s0)
	require.Equal(t, []byte{0, 0}, zero)
	// 2 × 31 / 4 = 15.5 rounds away from zero.
	_, half := narrow(1, []byte{4, 2, 0xFE})
	require.Equal(t, []int8{31, 16, -16}, int8s(half))
}

func TestPack6_RoundTripsEveryCodeAndLength(t *testing.T) {
	for dims := 1; dims <= 13; dims++ {
		codes := make([]byte, dims)
		for i := range codes {
			codes[i] = byte(int8((i*17)%63 - 31))
		}
		packed := pack6(nil, codes)
		require.Len(t, packed, packedLen(dims))
		require.Equal(t, codes, unpack6(packed, dims), "%d codes", dims)
	}
	// -1, 31, -32, 1: 111111 011111 100000 000001.
	require.Equal(t, []byte{0xFD, 0xF8, 0x01}, pack6(nil, []byte{0xFF, 31, 0xE0, 1}))
}

func int8s(b []byte) []int8 {
	out := make([]int8, len(b))
	for i, c := range b {
		out[i] = int8(c)
	}
	return out
}
