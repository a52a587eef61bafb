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
