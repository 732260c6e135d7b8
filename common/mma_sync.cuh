/* mma_sync.cuh — warp-level tensor-core math (sm_80+): ldmatrix + mma.sync.
 *
 * mma.sync.m16n8k16 multiplies a 16x16 tile of A by a 16x8 tile of B into a
 * 16x8 fp32 tile of C, with the three tiles spread over the 32 lanes of one
 * warp.  Lane l = 4*g + t (g = l>>2, t = l&3) holds, each .b32 register being
 * two bf16 with the lower k (or n) index in the low half
 * (docs/hopper_ptx.md, "ldmatrix and mma.sync"; checked on an H100):
 *
 *   A (row-major 16x16)  a[0]: (g,   2t..2t+1)    a[1]: (g+8, 2t..2t+1)
 *                        a[2]: (g,   2t+8..+9)    a[3]: (g+8, 2t+8..+9)
 *   B (16x8, "col")      b[0]: (k = 2t..2t+1, n = g)
 *                        b[1]: (k = 2t+8..+9, n = g)
 *   C/D (16x8 fp32)      c[0], c[1]: (g, 2t), (g, 2t+1)
 *                        c[2], c[3]: (g+8, 2t), (g+8, 2t+1)
 *
 * ldmatrix builds exactly these fragments from shared memory in one
 * instruction: lanes 8j..8j+7 each give the address of one 16-byte row of
 * 8x8 matrix j, and register j of lane l receives matrix j's (row l/4,
 * columns 2(l%4), 2(l%4)+1).  The caller chooses which rows each lane points
 * at; the kernel's comments say how that lines up with the table above.
 * Only the .x4 form is wrapped, because that is all step 04 issues: its B is
 * stored N x K (K contiguous), exactly the "col" operand, so it needs no
 * .trans form either (docs/hopper_ptx.md says when one would).
 *
 * All of these are .sync.aligned: every lane of the warp executes them, with
 * the same qualifiers, never inside a lane-divergent branch. */
#ifndef COMMON_MMA_SYNC_CUH
#define COMMON_MMA_SYNC_CUH

#include <stdint.h>

/* Four 8x8 b16 matrices from shared memory; lane 8j+i gives row i of matrix j.
 * The "memory" clobber keeps the compiler from moving the read across the
 * barrier that makes the data visible. */
static __device__ __forceinline__ void ldmatrix_x4(uint32_t r[4], uint32_t smem_row_addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_row_addr)
                 : "memory");
}

/* c += a * b on the tensor cores: 16x16 (bf16) times 16x8 (bf16) into a 16x8
 * fp32 accumulator held in registers.  Pure register math; volatile only so
 * that the PTX keeps the source order (readable PTX, and timeline stamps stay
 * around the math they measure).  ptxas still schedules the machine code. */
static __device__ __forceinline__ void mma_m16n8k16_bf16_f32(float c[4], const uint32_t a[4],
                                                             const uint32_t b[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

#endif
