package projection

import "math"

// The batch writes pass a NULLable column as an array of plain values, because sqlc types an
// array's elements as never NULL; each query says which value stands for NULL (the empty
// string, zero, NaN) or takes a flag beside the column. These helpers give that value for nil.

// orZero is *p, or T's zero value for nil.
func orZero[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// orNaN is *p, or NaN for nil.
func orNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
