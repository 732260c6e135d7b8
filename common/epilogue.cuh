/* epilogue.cuh — writing results to D straight from registers (steps 04-09).
 *
 * Used where a TMA store cannot be: D's rows must start 16 bytes apart for a
 * tensor map, i.e. N a multiple of 8.  Steps 06-09 fall back to these stores
 * for other N; steps 04-05 use them always. */
#ifndef COMMON_EPILOGUE_CUH
#define COMMON_EPILOGUE_CUH

#include <cuda_bf16.h>

/* Two adjacent outputs (row, col), (row, col+1) of D, masked at the M and N
 * edges.  With N even the pair is one aligned 4-byte store (col is even; D
 * from cudaMalloc is aligned); with N odd a row starts at an odd element, so
 * the halves are stored one by one. */
static __device__ __forceinline__ void gemm_store_pair(__nv_bfloat16 *D, int M, int N, int row,
                                                       int col, float v0, float v1)
{
    if (row >= M || col >= N) return;
    __nv_bfloat16 *p = D + (size_t)row * N + col;
    if ((N & 1) == 0) {
        *(__nv_bfloat162 *)p = __floats2bfloat162_rn(v0, v1);
    } else {
        p[0] = __float2bfloat16_rn(v0);
        if (col + 1 < N) p[1] = __float2bfloat16_rn(v1);
    }
}

#endif
