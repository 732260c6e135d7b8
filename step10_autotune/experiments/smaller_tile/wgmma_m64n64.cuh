/* wgmma_m64n64.cuh — the one wrapper step 10's smaller_tile experiment needs
 * beyond common/wgmma.cuh: no step uses a 64-column tile (the experiment's
 * answer), so it lives here, included only by the experiment's patched copy
 * of kernel.cu (run.sh). */
#ifndef SMALLER_TILE_WGMMA_M64N64_CUH
#define SMALLER_TILE_WGMMA_M64N64_CUH

#include "wgmma.cuh"

/* D[64x64] (+)= A[64x16] * B[64x16]^T: the same instruction 64 columns
 * wide, 32 accumulators per thread (the experiment's tile). */
static __device__ __forceinline__ void wgmma_m64n64k16_bf16(float d[32], uint64_t desc_a,
                                                       uint64_t desc_b, int accumulate)
{
    asm volatile(
        "{\n"
        " .reg .pred p;\n"
        " setp.ne.b32 p, %34, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16\n"
        "  {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,\n"
        "   %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31},\n"
        "  %32, %33, p, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

#endif
