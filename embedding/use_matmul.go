package embedding

// gemm sets the m×n matrix at c (row stride ldc) to the product of the m×k matrix at a (row
// stride lda) and the k×n matrix at b (row stride ldb). Every element is accumulated the same
// way on every architecture and code path: from 0, adding the float32 product a[i][l]·b[l][j]
// for l = 0, 1, … with a rounding after each multiply and each add (no fused multiply-add).
// So the vectors are the same bytes everywhere (TestUSE_GoldenBytes holds on amd64, with and
// without the AVX2 kernel, and on 386).
func gemm(c []float32, ldc int, a []float32, lda int, b []float32, ldb int, m, k, n int) {
	i := 0
	if useKernel && n%16 == 0 && k > 0 && m >= 4 {
		for j := 0; j < n; j += 16 {
			for i = 0; i+4 <= m; i += 4 {
				sgemm4x16(&a[i*lda], lda, &b[j], ldb, &c[i*ldc+j], ldc, k)
			}
		}
	}
	for ; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		clear(row)
		for l, av := range a[i*lda : i*lda+k] {
			for j, bv := range b[l*ldb : l*ldb+n] {
				row[j] += float32(av * bv)
			}
		}
	}
}

// matmul sets c[m][n] = a[m][k]·b[k][n] + bias[n] (row-major, contiguous), the bias added
// after the product.
func matmul(c, a, b, bias []float32, m, k, n int) {
	gemm(c, n, a, k, b, n, m, k, n)
	for i := 0; i < m; i++ {
		row := c[i*n : (i+1)*n]
		for j := range row {
			row[j] += bias[j]
		}
	}
}
