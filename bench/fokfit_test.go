package bench

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// syntheticLogistic draws n rows with three inputs uniform in [0, 1], an offset in [-1, 0] and
// a target drawn from the logistic of beta (intercept first).
func syntheticLogistic(n int, beta []float64, seed uint64) []logisticRow {
	rng := rand.New(rand.NewPCG(seed, 2))
	rows := make([]logisticRow, n)
	for i := range rows {
		x := []float64{rng.Float64(), rng.Float64(), rng.Float64()}
		off := -rng.Float64()
		z := beta[0] + off
		for j, v := range x {
			z += beta[j+1] * v
		}
		y := 0.0
		if rng.Float64() < 1/(1+math.Exp(-z)) {
			y = 1
		}
		rows[i] = logisticRow{x: x, offset: off, y: y, w: 1}
	}
	return rows
}

func TestFitLogistic_RecoversKnownCoefficients(t *testing.T) {
	want := []float64{1.5, -2.5, -2.0, 1.8}
	got, err := fitLogistic(syntheticLogistic(40000, want, 1), 0)
	require.NoError(t, err)
	require.Len(t, got, 4)
	for j := range want {
		require.InDelta(t, want[j], got[j], 0.15, "coefficient %d: %v", j, got)
	}
}

func TestFitLogistic_OffsetIsFixed(t *testing.T) {
	// The rows are drawn with their offsets; fitted without them, the intercept absorbs their
	// mean (-0.5), so the offset is used, not fitted.
	want := []float64{1.5, -2.5, -2.0, 1.8}
	rows := syntheticLogistic(40000, want, 3)
	with, err := fitLogistic(rows, 0)
	require.NoError(t, err)
	for i := range rows {
		rows[i].offset = 0
	}
	without, err := fitLogistic(rows, 0)
	require.NoError(t, err)
	require.InDelta(t, 1.5, with[0], 0.15)
	require.InDelta(t, 1.0, without[0], 0.15)
}

func TestFitLogistic_WeightIsRepetition(t *testing.T) {
	rows := syntheticLogistic(300, []float64{0.5, 1, -1, 2}, 5)
	doubled := append([]logisticRow(nil), rows...)
	weighted := append([]logisticRow(nil), rows...)
	for i := range 100 {
		doubled = append(doubled, rows[i])
		weighted[i].w = 2
	}
	a, err := fitLogistic(doubled, 1)
	require.NoError(t, err)
	b, err := fitLogistic(weighted, 1)
	require.NoError(t, err)
	require.InDeltaSlice(t, a, b, 1e-9)
}

func TestFitLogistic_PenaltyShrinksSlopesNotIntercept(t *testing.T) {
	// Balanced targets that one input separates perfectly: without a penalty the slope grows
	// without bound; with one it is finite and shrinks as the penalty grows, and the intercept
	// keeps the mean at the base rate (the symmetric data's intercept is minus half the slope).
	var rows []logisticRow
	for i := range 20 {
		x := float64(i % 2)
		rows = append(rows, logisticRow{x: []float64{x}, y: x, w: 1})
	}
	_, err := fitLogistic(rows, 0)
	require.Error(t, err) // no convergence, or a Hessian gone singular
	weak, err := fitLogistic(rows, 1)
	require.NoError(t, err)
	strong, err := fitLogistic(rows, 10)
	require.NoError(t, err)
	require.Greater(t, weak[1], strong[1])
	require.Greater(t, strong[1], 0.0)
	require.InDelta(t, -weak[1]/2, weak[0], 1e-9)
	require.InDelta(t, -strong[1]/2, strong[0], 1e-9)
	// The first-order condition of the penalised likelihood: the slope's gradient is zero.
	g := 0.0
	for _, r := range rows {
		p := 1 / (1 + math.Exp(-(weak[0] + weak[1]*r.x[0])))
		g += (r.y - p) * r.x[0]
	}
	require.InDelta(t, weak[1], g, 1e-9)
}

func TestFitLogistic_RejectsBadInput(t *testing.T) {
	_, err := fitLogistic(nil, 1)
	require.ErrorContains(t, err, "no rows")
	_, err = fitLogistic([]logisticRow{{x: []float64{1}, y: 1, w: 1}}, -1)
	require.ErrorContains(t, err, "penalty")
	_, err = fitLogistic([]logisticRow{{x: []float64{1}, y: 1, w: 1}, {x: nil, y: 0, w: 1}}, 1)
	require.ErrorContains(t, err, "row 1 has 0 inputs")
	_, err = fitLogistic([]logisticRow{{x: []float64{1}, y: 1, w: 0}}, 1)
	require.ErrorContains(t, err, "weight")
	_, err = fitLogistic([]logisticRow{{x: []float64{1}, y: 0.5, w: 1}}, 1)
	require.ErrorContains(t, err, "target")
}
