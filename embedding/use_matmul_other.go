//go:build !amd64

package embedding

// useKernel is false: matmul's Go loop computes every block.
const useKernel = false

func sgemm4x16(a *float32, lda int, b *float32, ldb int, c *float32, ldc int, k int) {
	panic("sgemm4x16 has no kernel on this architecture")
}
