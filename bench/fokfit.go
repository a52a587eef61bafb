package bench

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// logisticRow is one observation of a weighted logistic regression: its inputs (the intercept
// is implicit), a fixed offset added to the linear predictor, the 0/1 target and its weight.
type logisticRow struct {
	x      []float64
	offset float64
	y      float64
	w      float64
}

// Newton's method stops when no coefficient moves by more than fitTolerance, and fails after
// fitMaxIterations.
const (
	fitTolerance     = 1e-10
	fitMaxIterations = 100
)

// fitLogistic fits p = 1 / (1 + exp(-(b0 + b·x + offset))) to the rows by maximising the
// weighted log-likelihood minus penalty/2 times the sum of the squared slopes (the intercept is
// not penalised), with Newton's method from zero. It returns the intercept first, then one slope
// per input. The rows must all have the same number of inputs and positive weights.
func fitLogistic(rows []logisticRow, penalty float64) ([]float64, error) {
	if len(rows) == 0 {
		return nil, errors.New("fit logistic: no rows")
	}
	if penalty < 0 || math.IsNaN(penalty) || math.IsInf(penalty, 0) {
		return nil, fmt.Errorf("fit logistic: penalty must be finite and at least 0, got %g", penalty)
	}
	k := len(rows[0].x) + 1
	for i, r := range rows {
		if len(r.x) != k-1 {
			return nil, fmt.Errorf("fit logistic: row %d has %d inputs, row 0 has %d", i, len(r.x), k-1)
		}
		if !(r.w > 0) || math.IsInf(r.w, 0) {
			return nil, fmt.Errorf("fit logistic: row %d has weight %g (must be positive)", i, r.w)
		}
		if r.y != 0 && r.y != 1 {
			return nil, fmt.Errorf("fit logistic: row %d has target %g (must be 0 or 1)", i, r.y)
		}
	}
	beta := make([]float64, k)
	xi := make([]float64, k)
	hess := mat.NewSymDense(k, nil)
	grad := mat.NewVecDense(k, nil)
	var chol mat.Cholesky
	var step mat.VecDense
	for range fitMaxIterations {
		// grad is the gradient of the penalised log-likelihood, hess minus its Hessian
		// (positive definite when the inputs are not collinear or the penalty is positive).
		hess.Zero()
		grad.Zero()
		for _, r := range rows {
			xi[0] = 1
			copy(xi[1:], r.x)
			z := r.offset
			for j := range k {
				z += beta[j] * xi[j]
			}
			p := 1 / (1 + math.Exp(-z))
			for j := range k {
				grad.SetVec(j, grad.AtVec(j)+r.w*(r.y-p)*xi[j])
				for l := j; l < k; l++ {
					hess.SetSym(j, l, hess.At(j, l)+r.w*p*(1-p)*xi[j]*xi[l])
				}
			}
		}
		for j := 1; j < k; j++ {
			grad.SetVec(j, grad.AtVec(j)-penalty*beta[j])
			hess.SetSym(j, j, hess.At(j, j)+penalty)
		}
		if !chol.Factorize(hess) {
			return nil, errors.New("fit logistic: singular system (collinear inputs?)")
		}
		if err := chol.SolveVecTo(&step, grad); err != nil {
			return nil, fmt.Errorf("fit logistic: %w", err)
		}
		moved := 0.0
		for j := range k {
			beta[j] += step.AtVec(j)
			moved = max(moved, math.Abs(step.AtVec(j)))
		}
		if math.IsNaN(moved) {
			return nil, errors.New("fit logistic: diverged")
		}
		if moved < fitTolerance {
			return beta, nil
		}
	}
	return nil, fmt.Errorf("fit logistic: no convergence in %d Newton steps (separable data without a penalty?)", fitMaxIterations)
}
