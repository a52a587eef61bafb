#include "textflag.h"

// func sgemm4x16(a *float32, lda int, b *float32, ldb int, c *float32, ldc int, k int)
TEXT ·sgemm4x16(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), R8
	MOVQ lda+8(FP), AX
	SHLQ $2, AX
	LEAQ (R8)(AX*1), R9
	LEAQ (R9)(AX*1), R10
	LEAQ (R10)(AX*1), R11
	MOVQ b+16(FP), BX
	MOVQ ldb+24(FP), DX
	SHLQ $2, DX
	MOVQ k+48(FP), CX
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	VXORPS Y12, Y12, Y12
	VXORPS Y13, Y13, Y13
	VXORPS Y14, Y14, Y14
	VXORPS Y15, Y15, Y15

loop:
	TESTQ CX, CX
	JZ    done
	VMOVUPS      (BX), Y0
	VMOVUPS      32(BX), Y1
	VBROADCASTSS (R8), Y2
	VMULPS       Y0, Y2, Y3
	VADDPS       Y3, Y8, Y8
	VMULPS       Y1, Y2, Y4
	VADDPS       Y4, Y9, Y9
	VBROADCASTSS (R9), Y5
	VMULPS       Y0, Y5, Y6
	VADDPS       Y6, Y10, Y10
	VMULPS       Y1, Y5, Y7
	VADDPS       Y7, Y11, Y11
	VBROADCASTSS (R10), Y2
	VMULPS       Y0, Y2, Y3
	VADDPS       Y3, Y12, Y12
	VMULPS       Y1, Y2, Y4
	VADDPS       Y4, Y13, Y13
	VBROADCASTSS (R11), Y5
	VMULPS       Y0, Y5, Y6
	VADDPS       Y6, Y14, Y14
	VMULPS       Y1, Y5, Y7
	VADDPS       Y7, Y15, Y15
	ADDQ         $4, R8
	ADDQ         $4, R9
	ADDQ         $4, R10
	ADDQ         $4, R11
	ADDQ         DX, BX
	DECQ         CX
	JMP          loop

done:
	MOVQ    c+32(FP), DI
	MOVQ    ldc+40(FP), SI
	SHLQ    $2, SI
	VMOVUPS Y8, (DI)
	VMOVUPS Y9, 32(DI)
	ADDQ    SI, DI
	VMOVUPS Y10, (DI)
	VMOVUPS Y11, 32(DI)
	ADDQ    SI, DI
	VMOVUPS Y12, (DI)
	VMOVUPS Y13, 32(DI)
	ADDQ    SI, DI
	VMOVUPS Y14, (DI)
	VMOVUPS Y15, 32(DI)
	VZEROUPPER
	RET
