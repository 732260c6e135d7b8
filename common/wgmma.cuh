/* wgmma.cuh — warpgroup matrix multiply-accumulate (sm_90a only).
 *
 * wgmma.mma_async is issued by the 128 threads of a warpgroup together
 * (.sync.aligned: never inside a branch that splits the warpgroup).  It reads
 * A and B from shared memory through descriptors (wgmma_desc.h), accumulates
 * into registers spread over the warpgroup, and returns at once: the
 * multiply runs asynchronously.  The rules that keep it correct:
 *
 *   wgmma_fence()          before the first wgmma, and again whenever other
 *                          instructions touched the accumulator registers
 *                          (zeroing, the epilogue) since the last wgmma;
 *   wgmma_commit_group()   closes a group of the wgmmas issued so far;
 *   wgmma_wait_group(n)    returns when at most n groups are still running.
 *                          Until a wait covers a wgmma, its accumulators must
 *                          not be read or written, and the shared memory it
 *                          reads must not be overwritten (so a pipeline slot
 *                          is released only after this wait).
 *
 * The compiler does not know the hardware is still writing the accumulator
 * registers after the asm statement "returned".  wgmma_fence_operands() is an
 * empty asm that claims to read and write every accumulator: placed around
 * the async window it stops the compiler from moving accumulator uses (a
 * copy, a spill, the epilogue's conversion) across it.
 *
 * Shapes wrapped here: m64nNk16 for N = 128, 192 and 256 (a warpgroup
 * computes a 64 x N block in N/2 f32 registers per thread; steps 05-06 use
 * N = 256, steps 07-09 N = 128 by default, step 10 all three).  bf16 inputs, f32 accumulators, both
 * operands K-major from shared memory, no negation or transposition. */
#ifndef COMMON_WGMMA_CUH
#define COMMON_WGMMA_CUH

#include <stdint.h>

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "wgmma needs the sm_90a target: build with -gencode=arch=compute_90a,code=sm_90a"
#endif

/* Make this warpgroup's earlier register accesses visible to the wgmmas
 * issued after it. */
/* This thread's index in its warpgroup, 0 .. 127: the t of the accumulator
 * fragment layout (wgmma_desc.h).  Recomputed where it is used (a special
 * register read and a mask) rather than carried: a consumer warpgroup's
 * registers are all taken, and a carried copy measured as a spill (step 09). */
static __device__ __forceinline__ int warpgroup_thread(void)
{
    return (int)threadIdx.x % 128;
}

static __device__ __forceinline__ void wgmma_fence(void)
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

/* Batch every wgmma issued by this warpgroup since the last commit into one
 * group that wgmma_wait_group can wait for. */
static __device__ __forceinline__ void wgmma_commit_group(void)
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

/* Wait until at most n of this warpgroup's committed groups are pending.
 * The count is an immediate in the instruction, hence the switch (0..7;
 * larger n waits as for 7).  Pass a compile-time constant, so the switch
 * folds away: with a run-time n, ptxas cannot tell which wait guards which
 * accumulator use and serializes the wgmmas (C7514 in -Xptxas -v). */
static __device__ __forceinline__ void wgmma_wait_group(int n)
{
    switch (n) {
    case 0: asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); break;
    case 1: asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory"); break;
    case 2: asm volatile("wgmma.wait_group.sync.aligned 2;" ::: "memory"); break;
    case 3: asm volatile("wgmma.wait_group.sync.aligned 3;" ::: "memory"); break;
    case 4: asm volatile("wgmma.wait_group.sync.aligned 4;" ::: "memory"); break;
    case 5: asm volatile("wgmma.wait_group.sync.aligned 5;" ::: "memory"); break;
    case 6: asm volatile("wgmma.wait_group.sync.aligned 6;" ::: "memory"); break;
    default: asm volatile("wgmma.wait_group.sync.aligned 7;" ::: "memory"); break;
    }
}

/* Compiler-only fence on n accumulator registers (n = N/2 per m64 block:
 * 128 for m64n256; up to 256 for two blocks): emits no instruction. */
static __device__ __forceinline__ void wgmma_fence_operands(float *d, int n)
{
#pragma unroll
    for (int i = 0; i < 256; ++i)
        if (i < n) asm volatile("" : "+f"(d[i])::"memory");
}

/* D[64x256] (+)= A[64x16] * B[256x16]^T.  desc_a: 64 rows of A, desc_b: 256
 * rows of B (both K-major SW128, wgmma_desc_k_major_sw128).  accumulate = 0
 * writes D = A*B (the registers' old values are ignored), 1 adds to D.
 * Register i of thread t holds D[wgmma_acc_row(t,i)][wgmma_acc_col(t,i)]. */
static __device__ __forceinline__ void wgmma_m64n256k16_bf16(float d[128], uint64_t desc_a,
                                                        uint64_t desc_b, int accumulate)
{
    asm volatile(
        "{\n"
        " .reg .pred p;\n"
        " setp.ne.b32 p, %130, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16\n"
        "  {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,\n"
        "   %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,\n"
        "   %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,\n"
        "   %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,\n"
        "   %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,\n"
        "   %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,\n"
        "   %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,\n"
        "   %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127},\n"
        "  %128, %129, p, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
          "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
          "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
          "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
          "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
          "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
          "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
          "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}



/* D[64x128] (+)= A[64x16] * B[128x16]^T: the same instruction 128 columns
 * wide, 64 accumulators per thread (step 07). */
static __device__ __forceinline__ void wgmma_m64n128k16_bf16(float d[64], uint64_t desc_a,
                                                        uint64_t desc_b, int accumulate)
{
    asm volatile(
        "{\n"
        " .reg .pred p;\n"
        " setp.ne.b32 p, %66, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16\n"
        "  {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,\n"
        "   %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,\n"
        "   %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,\n"
        "   %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63},\n"
        "  %64, %65, p, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

/* D[64x192] (+)= A[64x16] * B[192x16]^T: the same instruction 192 columns
 * wide, 96 accumulators per thread (step 07). */
static __device__ __forceinline__ void wgmma_m64n192k16_bf16(float d[96], uint64_t desc_a,
                                                        uint64_t desc_b, int accumulate)
{
    asm volatile(
        "{\n"
        " .reg .pred p;\n"
        " setp.ne.b32 p, %98, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16\n"
        "  {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,\n"
        "   %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,\n"
        "   %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,\n"
        "   %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,\n"
        "   %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,\n"
        "   %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95},\n"
        "  %96, %97, p, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
          "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
          "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
          "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
          "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
        : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

/* D[64x64] (+)= A[64x16] * B[64x16]^T: the same instruction 64 columns
 * wide, 32 accumulators per thread (step 10's 64x64, for shapes whose
 * 64 x 128 tiles would leave most SMs idle). */
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
