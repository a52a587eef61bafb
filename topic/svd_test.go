package topic

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomSparse returns a documents × terms matrix of rank about `rank` with ~`perRow`
// nonzeros per row, and its dense copy.
func randomSparse(docs, terms, perRow int, seed uint64) (*sparseRows, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 7))
	a := &sparseRows{terms: terms}
	dense := mat.NewDense(docs, terms, nil)
	for d := range docs {
		seen := map[int]bool{}
		var row []entry
		for range perRow {
			t := rng.IntN(terms)
			if seen[t] {
				continue
			}
			seen[t] = true
			w := 1 + rng.Float64()
			row = append(row, entry{term: t, weight: w})
			dense.Set(d, t, w)
		}
		a.rows = append(a.rows, row)
	}
	return a, dense
}

func TestTruncatedSVD_MatchesExactSVD(t *testing.T) {
	a, dense := randomSparse(120, 300, 12, 1)
	var exact mat.SVD
	if !exact.Factorize(dense, mat.SVDThin) {
		t.Fatal("exact SVD failed")
	}
	want := exact.Values(nil)
	var wantV mat.Dense
	exact.VTo(&wantV)
	k := 10
	// Enough power iterations for the leading values of a matrix with a flat spectrum.
	v, sigma, err := truncatedSVD(a, k, 20, 6, 1)
	if err != nil {
		t.Fatal(err)
	}
	for j := range k {
		if rel := math.Abs(sigma[j]-want[j]) / want[j]; rel > 0.01 {
			t.Errorf("singular value %d: got %.4f, want %.4f", j, sigma[j], want[j])
		}
	}
	// Each of the first vectors matches the exact one up to sign.
	for j := range 3 {
		dot := mat.Dot(v.ColView(j), wantV.ColView(j))
		if math.Abs(math.Abs(dot)-1) > 0.01 {
			t.Errorf("singular vector %d: |cos| = %.4f with the exact one, want 1", j, math.Abs(dot))
		}
	}
	// Orthonormal columns.
	var gram mat.Dense
	gram.Mul(v.T(), v)
	for i := range k {
		for j := range k {
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(gram.At(i, j)-want) > 1e-9 {
				t.Fatalf("VᵀV[%d][%d] = %g, want %g", i, j, gram.At(i, j), want)
			}
		}
	}
}

func TestTruncatedSVD_IsDeterministic(t *testing.T) {
	a, _ := randomSparse(80, 200, 10, 2)
	v1, _, err := truncatedSVD(a, 12, 10, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	v2, _, err := truncatedSVD(a, 12, 10, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(v1, v2) {
		t.Fatal("the same input and seed gave different vectors")
	}
}

func TestTruncatedSVD_RefusesTooManyDims(t *testing.T) {
	a, _ := randomSparse(5, 40, 4, 3)
	if _, _, err := truncatedSVD(a, 6, 2, 1, 1); err == nil {
		t.Fatal("6 dimensions of a 5-row matrix: want an error")
	}
}

// BenchmarkTruncatedSVD is a LongMemEval-sized space: 500 turns, 4,000 terms, 170 dims.
func BenchmarkTruncatedSVD(b *testing.B) {
	a, _ := randomSparse(500, 4000, 40, 4)
	for b.Loop() {
		if _, _, err := truncatedSVD(a, 170, 10, 2, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTruncatedSVDLarge is the cap: 20,000 items, 50,000 terms, 200 dims.
func BenchmarkTruncatedSVDLarge(b *testing.B) {
	a, _ := randomSparse(20000, 50000, 30, 5)
	for b.Loop() {
		if _, _, err := truncatedSVD(a, 200, 10, 2, 1); err != nil {
			b.Fatal(err)
		}
	}
}
