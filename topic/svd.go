package topic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// sparseRows is a documents × terms matrix, one row per document holding its nonzero
// (term, weight) pairs.
type sparseRows struct {
	terms int
	rows  [][]entry
}

// entry is one nonzero of a sparseRows row.
type entry struct {
	term   int
	weight float64
}

// mul returns A·X (documents × l) for X (terms × l).
func (a *sparseRows) mul(x *mat.Dense) *mat.Dense {
	_, l := x.Dims()
	out := mat.NewDense(len(a.rows), l, nil)
	raw, xr := out.RawMatrix(), x.RawMatrix()
	for d, row := range a.rows {
		dst := raw.Data[d*raw.Stride : d*raw.Stride+l]
		for _, e := range row {
			src := xr.Data[e.term*xr.Stride : e.term*xr.Stride+l]
			for j, v := range src {
				dst[j] += e.weight * v
			}
		}
	}
	return out
}

// mulT returns Aᵀ·Z (terms × l) for Z (documents × l).
func (a *sparseRows) mulT(z *mat.Dense) *mat.Dense {
	_, l := z.Dims()
	out := mat.NewDense(a.terms, l, nil)
	raw, zr := out.RawMatrix(), z.RawMatrix()
	for d, row := range a.rows {
		src := zr.Data[d*zr.Stride : d*zr.Stride+l]
		for _, e := range row {
			dst := raw.Data[e.term*raw.Stride : e.term*raw.Stride+l]
			for j, v := range src {
				dst[j] += e.weight * v
			}
		}
	}
	return out
}

// orthonormalize returns an orthonormal basis of y's columns (thin QR's Q, y's rows ≥ its
// columns), computed in place in y by LAPACK's Householder QR and Orgqr.
func orthonormalize(y *mat.Dense) *mat.Dense {
	g := y.RawMatrix()
	tau := make([]float64, g.Cols)
	work := make([]float64, 1)
	lapack64.Geqrf(g, tau, work, -1)
	work = make([]float64, max(int(work[0]), g.Rows))
	lapack64.Geqrf(g, tau, work, len(work))
	lapack64.Orgqr(g, tau, work, -1)
	if n := int(work[0]); n > len(work) {
		work = make([]float64, n)
	}
	lapack64.Orgqr(g, tau, work, len(work))
	return y
}

// truncatedSVD returns the k leading right singular vectors of a (terms × k, one column per
// singular vector, largest singular value first) by randomized range finding with power
// iterations (Halko, Martinsson and Tropp 2011, algorithms 4.4 and 5.1): the columns of
// Aᵀ·Ω for a seeded Gaussian Ω span nearly the top of Aᵀ's range, and the small problem
// left is an l × l symmetric eigenproblem. The seed makes a rebuild reproducible.
func truncatedSVD(a *sparseRows, k, oversample, powerIters int, seed uint64) (*mat.Dense, []float64, error) {
	m, n := len(a.rows), a.terms
	l := min(k+oversample, m, n)
	if k < 1 || l < k {
		return nil, nil, fmt.Errorf("topic: cannot take %d dimensions of a %d × %d matrix", k, m, n)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	omega := mat.NewDense(m, l, nil)
	for i := range m {
		for j := range l {
			omega.Set(i, j, rng.NormFloat64())
		}
	}
	q := orthonormalize(a.mulT(omega)) // terms × l
	for range powerIters {
		q = orthonormalize(a.mulT(orthonormalize(a.mul(q))))
	}
	// B = Qᵀ·Aᵀ = (A·Q)ᵀ, l × documents; B·Bᵀ = (A·Q)ᵀ·(A·Q) is l × l.
	aq := a.mul(q)
	var bbt mat.SymDense
	bbt.SymOuterK(1, aq.T())
	var eig mat.EigenSym
	if !eig.Factorize(&bbt, true) {
		return nil, nil, fmt.Errorf("topic: eigendecomposition did not converge")
	}
	values := eig.Values(nil) // ascending
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	order := make([]int, l)
	for i := range order {
		order[i] = l - 1 - i
	}
	top := mat.NewDense(l, k, nil)
	sigma := make([]float64, k)
	for j := range k {
		sigma[j] = math.Sqrt(max(values[order[j]], 0))
		for i := range l {
			top.Set(i, j, vecs.At(i, order[j]))
		}
	}
	var v mat.Dense
	v.Mul(q, top) // Aᵀ ≈ Q·Ub·S·Vbᵀ: A's right singular vectors are Q·Ub
	// Fix each vector's sign (largest component positive) so equal input gives equal output
	// whatever the eigensolver chose.
	for j := range k {
		col := mat.Col(nil, j, &v)
		big := slices.MaxFunc(col, func(x, y float64) int {
			switch ax, ay := math.Abs(x), math.Abs(y); {
			case ax < ay:
				return -1
			case ax > ay:
				return 1
			}
			return 0
		})
		if big < 0 {
			for i := range col {
				v.Set(i, j, -col[i])
			}
		}
	}
	return &v, sigma, nil
}
