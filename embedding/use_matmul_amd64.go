package embedding

import "golang.org/x/sys/cpu"

// useKernel says whether sgemm4x16 (AVX2, multiplies and adds kept apart) runs on this CPU.
var useKernel = cpu.X86.HasAVX2

// sgemm4x16 sets the 4×16 block at c (row stride ldc) to the product of the 4 rows of a (row
// stride lda, k columns) and the 16 columns of b (row stride ldb, k rows).
//
//go:noescape
func sgemm4x16(a *float32, lda int, b *float32, ldb int, c *float32, ldc int, k int)
