/* step04_cpasync_multistage — a GEMM whose loads run S-1 k-tiles ahead of
 * its math, through a ring of S shared-memory stages filled by cp.async.
 *
 *   D[M x N] = A[M x K] . B[N x K]^T    bf16 in, fp32 accumulate, bf16 out
 *
 * Concept.  Each CTA computes one BM x BN tile of D (128 x 128 by default)
 * by walking K in k-tiles of BK (64 by default).  A k-tile is copied global -> shared with
 * cp.async (16-byte copies that the thread issues and forgets), then the
 * warps read it with ldmatrix and multiply with mma.sync.  Loading k-tile kt
 * and computing it one after the other would leave the tensor cores idle for
 * a whole DRAM latency per k-tile, so the CTA keeps S shared-memory stages in
 * a ring and copies k-tile kt+S-1 while it computes k-tile kt:
 *
 *   prologue:  copy k-tiles 0 .. S-2, one commit_group each
 *   for kt:    wait_group(S-2) + __syncthreads     k-tile kt has landed
 *              copy k-tile kt+S-1 into the stage k-tile kt-1 used; commit
 *              ldmatrix + mma.sync on stage kt % S
 *
 * What changed from step 03 (streaming, producer/consumer warps, mbarriers):
 *   - the workload: step 03's "chunk of x" is now a k-tile of A and B, and
 *     "f(x)" is BK x BM x BN multiply-adds on the tensor cores;
 *   - step 03's slots are the stages of the ring, indexed kt % S exactly as
 *     pipeline_state's index (no phase: nothing here waits by parity);
 *   - producer_commit (arrive on full[i]) becomes cp.async.commit_group: the
 *     hardware tracks which group is still in flight, per thread;
 *   - consumer_wait on full[i] becomes wait_group(S-2) followed by one
 *     __syncthreads: wait_group says "my own copies for this k-tile landed",
 *     the barrier turns that into "everyone's copies landed";
 *   - there are no producer or consumer warps: every warp copies and every
 *     warp computes (warp specialization is step 05's lesson), so the empty
 *     barriers disappear too.  The same __syncthreads that publishes k-tile
 *     kt also proves that every warp finished reading k-tile kt-1 (all warps
 *     read it before reaching this barrier), so the stage k-tile kt-1 used
 *     may be overwritten right after it: one barrier per k-tile covers both
 *     the RAW hazard (read before landed) and the WAR hazard (overwrite
 *     before read).  That is why the new copies go to the stage freed LAST
 *     iteration, not to the one being read now;
 *   - step 03's --stages reaches the kernel as a run-time argument; here it
 *     picks one of five kernels, one per ring depth 2..6, because
 *     wait_group's count must be an immediate (see "one kernel per ring
 *     depth" below).
 *
 * Why wait_group(S-2): when iteration kt waits, this thread has committed
 * S-1 (prologue) + kt groups, for k-tiles 0 .. kt+S-2.  Allowing the newest
 * S-2 to stay in flight forces groups 0 .. kt to be complete, i.e. exactly
 * k-tile kt, while k-tiles kt+1 .. kt+S-2 keep travelling.  The count only
 * works if every iteration commits one group, also the last S-1 iterations
 * that have nothing left to copy (empty groups complete at once).
 *
 * Build and run:
 *   make step04
 *   ./build/step04_cpasync_multistage --m 4096 --n 4096 --k 4096
 *   ./build/step04_cpasync_multistage --m 4096 --n 4096 --k 4096 --stages 2
 *   diff -u step03_staged_pipeline/kernel.cu step04_cpasync_multistage/kernel.cu
 * Other tile shapes are a -D away (see "tile shape" below); a separate
 * BUILD folder keeps the default binary next to the variant, e.g.
 *   make step04 BUILD=build/bk32 NVCC_EXTRA="-DBK=32"
 *   ./build/bk32/step04_cpasync_multistage --m 4096 --n 4096 --k 4096
 */
#include "gemm.cuh"
#include "cp_async.cuh"
#include "mma_sync.cuh"
#include "epilogue.cuh"
#include "raster.h"
#include "str.h"

/* ---- tile shape ------------------------------------------------------------
 * Every knob is a macro that a build may override (nvcc -DBK=32 ...), so that
 * other shapes can be built and timed against the default; the code and the
 * static_asserts below hold for all of them:
 *   BM, BN, BK        the CTA tile: BM x BN of D per CTA, BK of K per k-tile
 *                     (= per stage).  BK is 32 (64-byte rows) or a multiple
 *                     of 64 (rows of 128 bytes or more); see the swizzle.
 *   WARPS_M, WARPS_N  the warp grid.  Each warp owns WM x WN = BM/WARPS_M x
 *                     BN/WARPS_N of D, i.e. MI x NI = WM/16 x WN/8 mma tiles
 *                     and 4 * MI * NI fp32 accumulators per thread.
 *   MIN_CTAS_PER_SM   CTAs per SM the shape is meant to run with: passed to
 *                     __launch_bounds__ (registers per thread <= 64 K /
 *                     (MIN_CTAS_PER_SM * THREADS)), and the default --stages
 *                     is the deepest ring (at most 4) that lets that many
 *                     CTAs share an SM's shared memory.
 *   COPY_STEPS        over how many of a k-tile's KSTEPS k16 steps the copies
 *                     of k-tile kt+S-1 are spread (1 .. KSTEPS-1; default
 *                     KSTEPS-1: with BK = 64 a third in each of the first
 *                     three steps, with BK = 32 all in the first).
 *   GROUP_M           grouped raster: tile rows per group.
 * --stages is not a build knob: it takes 2..6 at run time (fewer if a stage
 * is so large that 6 do not fit in 227 KiB), see MAX_STAGES.
 *
 * The default: 128 x 128 x 64, 2 x 2 warps of 64 x 64, two CTAs per SM, --stages 3.
 *   - a 64 x 64 warp tile reads 4 KiB of fragments per 32 mma (32 FLOP per
 *     shared-memory byte); a 64 x 32 tile would read 3 KiB per 16 mma and
 *     run into shared-memory bandwidth before the tensor cores are busy;
 *   - 128 accumulators + double-buffered fragments (64 registers) fit under
 *     the 255 registers a thread may have (CUDA C++ Programming Guide,
 *     compute capability 9.0) without spilling; 128 threads x 256 registers
 *     is half an SM's 64 K register file, so two CTAs share each SM.  While one CTA
 *     waits at its barrier the other one's warps can keep the tensor cores
 *     busy: occupancy hides part of the latency, the ring the rest;
 *   - BK = 64: a row is 128 bytes (the classic swizzle), a stage 32 KiB, and
 *     each barrier is shared by 128 mma per warp.  Two CTAs x (3 x 32 KiB +
 *     1 KiB) fit in the SM's 228 KiB; at --stages 4..6 (128..192 KiB) only
 *     one CTA fits, which costs more than the extra stage buys;
 *   - a 128 x 128 tile does 64 FLOP per byte it loads from L2 (128 x 256:
 *     85), so L2 -> SM traffic is a third higher than with the wide tile;
 *     measured (the sweep below), the second CTA per SM gains more than
 *     that costs, also at 8192^3;
 *   - smaller tiles make more CTAs: 64 instead of 32 at 1000^3, for an H100's 132 SMs.
 * Measured on an H200 during the design sweep (NOTES.md, "The variant
 * sweep": an earlier version of this file built with -D flags; ratio to
 * cuBLAS timed interleaved in the same run, 4096^3 / 8192^3 / 1000^3):
 *     128 x 256 x 64, 8 warps, 1 CTA/SM, S = 4      0.461 / 0.463 / 0.334
 *     128 x 128 x 64, 4 warps, 2 CTAs/SM, S = 3     0.484 / 0.511 / 0.452
 * both with S compiled in.  With S a run-time value the second measured
 * 0.454 / 0.446 / 0.437, which is why each ring depth gets its own kernel. */
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 64
#endif
#ifndef WARPS_M
#define WARPS_M 2
#endif
#ifndef WARPS_N
#define WARPS_N 2
#endif
#ifndef MIN_CTAS_PER_SM
#define MIN_CTAS_PER_SM 2
#endif
#ifndef GROUP_M
#define GROUP_M 8                               /* grouped raster: 8 tile rows */
#endif
/* The numbers in the comments are the default's. */
#define THREADS (32 * WARPS_M * WARPS_N)        /* 128 */
#define WM (BM / WARPS_M)                       /* 64 rows of D per warp */
#define WN (BN / WARPS_N)                       /* 64 columns of D per warp */
#define MI (WM / 16)                            /* 4 mma tiles along M */
#define NI (WN / 8)                             /* 8 mma tiles along N */
#define KSTEPS (BK / 16)                        /* 4 k16 steps per k-tile */
#define ROW_BYTES (BK * 2)                      /* 128: one row of a stage (2 B per bf16) */
#define A_STAGE_BYTES (BM * ROW_BYTES)          /* 16 KiB */
#define B_STAGE_BYTES (BN * ROW_BYTES)          /* 16 KiB */
#define STAGE_BYTES (A_STAGE_BYTES + B_STAGE_BYTES)
#define CHUNKS_PER_ROW (ROW_BYTES / 16)         /* 8 sixteen-byte cp.async (8 bf16 each) per row */
#define COPY_ROWS (THREADS / CHUNKS_PER_ROW)    /* 16 rows per pass of the CTA */
#define A_COPIES (BM / COPY_ROWS)               /* 8 cp.async of A per thread */
#define B_COPIES (BN / COPY_ROWS)               /* 8 cp.async of B per thread */
#ifndef COPY_STEPS
#define COPY_STEPS (KSTEPS - 1)                 /* 3 */
#endif

/* Shared memory of an H100/H200 SM, compile-time defaults (the default
 * --stages also counts the 1 KiB the system keeps per resident CTA).  The
 * --stages range is sized for the shared memory one CTA may opt in to on an
 * H100 or H200, 227 KiB (the device attribute
 * cudaDevAttrMaxSharedMemoryPerBlockOptin on both; CUDA C++ Programming
 * Guide, compute capability 9.0: 228 KiB per SM, 227 KiB per block).  The
 * launcher checks the requested ring against the attribute of the device it
 * runs on (gemm_operands.smem_optin) and refuses what does not fit. */
#define H100_SMEM_PER_SM (228 * 1024)           /* cudaDevAttrMaxSharedMemoryPerMultiprocessor */
#define H100_SMEM_OPTIN (227 * 1024)
#define H100_SMEM_RESERVED 1024                 /* cudaDevAttrReservedSharedMemoryPerBlock */
#define MIN_(a, b) ((a) < (b) ? (a) : (b))
/* --stages: 2 .. MAX_STAGES, one kernel per value (below).  At least 2: the
 * copy of k-tile kt+S-1 goes to the stage k-tile kt-1 used, which must not be
 * the stage k-tile kt is read from.  At most 6: one timed kernel per depth is
 * stamped out below, and 6 x 32 KiB is also the most that fits in 227 KiB.
 * The default is the deepest ring, at most 4 (the sweeps in NOTES.md found
 * nothing past 3-4 for any shape), that lets MIN_CTAS_PER_SM CTAs share an SM. */
#define MIN_STAGES 2
#define MAX_STAGES MIN_(6, H100_SMEM_OPTIN / STAGE_BYTES)   /* 6: 192 KiB */
#define RING_PER_CTA (H100_SMEM_PER_SM / MIN_CTAS_PER_SM - H100_SMEM_RESERVED)
#define DEFAULT_STAGES MIN_(MIN_(4, MAX_STAGES), RING_PER_CTA / STAGE_BYTES)   /* 3: 2 x 97 KiB */

static_assert(BK % 32 == 0, "BK: 32 (64-byte rows) or a multiple of 64 (see the swizzle)");
static_assert(KSTEPS % 2 == 0, "fragment double-buffering alternates two buffers per k16 step");
static_assert(BM % WARPS_M == 0 && BN % WARPS_N == 0, "the warp grid must divide the CTA tile");
static_assert(WM % 16 == 0, "a warp's rows are whole m16 mma tiles");
static_assert(WN % 16 == 0, "a warp's columns are pairs of n8 tiles (one ldmatrix.x4 of B each)");
/* 1024 threads per CTA and 2048 per SM: CUDA C++ Programming Guide, compute
 * capability 9.0. */
static_assert(THREADS <= 1024, "at most 1024 threads per CTA");
static_assert(COPY_ROWS % 8 == 0, "copy passes must keep the swizzle phase (row % 8)");
static_assert(BM % COPY_ROWS == 0 && BN % COPY_ROWS == 0,
              "THREADS must divide the 16-byte chunks of A's and of B's stage");
static_assert(A_COPIES + B_COPIES <= 32, "the row mask is 32-bit");
static_assert(COPY_STEPS >= 1 && COPY_STEPS < KSTEPS,
              "copies are committed before the last k16 step's wait_group");
static_assert(MIN_STAGES <= DEFAULT_STAGES && DEFAULT_STAGES <= MAX_STAGES,
              "MIN_CTAS_PER_SM rings of 2 stages must fit in an SM");
static_assert(MAX_STAGES * STAGE_BYTES <= H100_SMEM_OPTIN,
              "the ring must fit in one CTA's shared memory");
static_assert(MIN_CTAS_PER_SM * (DEFAULT_STAGES * STAGE_BYTES + H100_SMEM_RESERVED) <=
                  H100_SMEM_PER_SM,
              "MIN_CTAS_PER_SM rings of DEFAULT_STAGES must fit in one SM's shared memory");
static_assert(MIN_CTAS_PER_SM * THREADS <= 2048, "an SM holds at most 2048 threads");

/* For the CSV's variant column and --help, e.g. "128x128x64-w2x2" (str.h). */
#define TILE_LABEL STR(BM) "x" STR(BN) "x" STR(BK) "-w" STR(WARPS_M) "x" STR(WARPS_N)

/* ---- shared-memory layout: the swizzle ---------------------------------------
 * A stage holds A's BM rows then B's BN rows, each row BK bf16 = ROW_BYTES,
 * i.e. CHUNKS_PER_ROW 16-byte chunks.  Shared memory has 32 banks of 4 bytes,
 * so a 128-byte line is 8 "chunk positions".  One ldmatrix phase reads 8 rows
 * (r .. r+7, r a multiple of 8) at the same logical chunk c; stored plainly,
 * with rows of a multiple of 128 bytes, all 8 land on the same chunk
 * position: an 8-way bank conflict on every ldmatrix.
 *
 * BK >= 64 (rows of 128 bytes or more): chunk c of row r is stored at chunk
 * c ^ (r % 8), the classic XOR swizzle.  Rows r .. r+7 then each use a
 * different position.  (With longer rows only the low three bits of c move.)
 *
 * BK = 32 (64-byte rows; stored plainly the 8 rows would hit 2 positions):
 * chunk c of row r is stored at chunk c ^ ((r >> 1) & 3).  Two 64-byte rows
 * share one 128-byte line; the XOR with the line's index (mod 4) is the same
 * swizzle applied to lines instead of rows.  Rows r .. r+7 occupy positions
 * 4*(r%2) + (c ^ ((r>>1)%4)): all 8 different.
 *
 * Either way the swizzle depends on r % 8 only.  The cp.async writes use the
 * same function, so each 16-byte chunk is written where the ldmatrix will
 * look for it; every 8 consecutive lanes of a copy write one 128-byte line's
 * worth of distinct positions, which is conflict-free as well.  Padding rows
 * by 16 bytes would also work, but costs 12.5% (BK = 64) or 25% (BK = 32)
 * more shared memory per stage. */
static __device__ __forceinline__ int swizzle(int row)
{
#if BK >= 64
    return row & 7;
#else
    return (row >> 1) & 3;
#endif
}

static __device__ __forceinline__ uint32_t stage_offset(int row, int chunk)
{
    return (uint32_t)(row * ROW_BYTES + ((chunk ^ swizzle(row)) << 4));
}

/* ---- grouped raster order (common/raster.h) ------------------------------------
 * CTA i computes tile (tm, tn) = grouped_tile_coords(i, ..., GROUP_M).  Going
 * down GROUP_M tile rows before moving right means the ~264 CTAs resident at
 * a time (two per SM on 132 SMs) cover about 8 x 33 tiles: they share 8
 * panels of A and ~33 panels of B in L2 instead of ~5 of A and all 64 of B
 * (at 8192^3: 41 panels per wave instead of 69). */

/* ---- global -> shared copies of one k-tile --------------------------------------
 * Thread t copies chunk (t % CHUNKS_PER_ROW) of rows t / CHUNKS_PER_ROW,
 * + COPY_ROWS, + 2 COPY_ROWS, ...: one cp.async of a warp reads 512 / ROW_BYTES
 * whole rows of the k-tile (4 rows of 128 bytes by default) and fills 512
 * contiguous bytes of the stage.  The chunk and the swizzle are fixed for the
 * whole kernel (COPY_ROWS is a multiple of 8), only the row and k move.  The
 * thread keeps one pointer per operand and finds copy i's row i * row_step
 * elements further, so the registers this costs do not grow with the number
 * of copies (16 per thread in a 4-warp 128 x 128 x 64 CTA). */
typedef struct {
    const __nv_bfloat16 *a_src;   /* A[m0 + row][chunk * 8]: this thread's first copy at k = 0 */
    const __nv_bfloat16 *b_src;   /* B[n0 + row][chunk * 8] */
    const void *nowhere;          /* the (unread) source of a zero-fill: A, a valid address */
    uint32_t row_step;            /* COPY_ROWS * K elements: the next copy's row */
    uint32_t rows_ok;             /* bit i: A copy i's row is inside A; bit A_COPIES + i: B's */
    uint32_t st;                  /* swizzled byte offset inside a stage, copy 0 */
    int k_left;                   /* K - (first column of this thread's chunk in a k-tile) */
} tile_copier;

static __device__ __forceinline__ tile_copier copier_make(const __nv_bfloat16 *A,
                                                          const __nv_bfloat16 *B, int M, int N,
                                                          int K, int m0, int n0)
{
    tile_copier c;
    const int row = threadIdx.x / CHUNKS_PER_ROW, chunk = threadIdx.x % CHUNKS_PER_ROW;
    /* Rows past the edge get a pointer that is never dereferenced: their
     * copies pass `nowhere` with src-size 0 (copy_k_tile). */
    c.a_src = A + (size_t)(m0 + row) * K + chunk * 8;
    c.b_src = B + (size_t)(n0 + row) * K + chunk * 8;
    c.nowhere = A;
    /* Rows inside the matrix are < M and M * K < 2^31 (args.c), so the step
     * to a row that is read never overflows; unsigned, so a step past the
     * last row, whose pointer is never used, may wrap harmlessly. */
    c.row_step = (uint32_t)COPY_ROWS * (uint32_t)K;
    c.st = stage_offset(row, chunk);    /* row + i * COPY_ROWS has the same swizzle */
    c.k_left = K - chunk * 8;
    c.rows_ok = 0;
#pragma unroll
    for (int i = 0; i < A_COPIES; ++i) c.rows_ok |= (uint32_t)(m0 + row + i * COPY_ROWS < M) << i;
#pragma unroll
    for (int i = 0; i < B_COPIES; ++i)
        c.rows_ok |= (uint32_t)(n0 + row + i * COPY_ROWS < N) << (A_COPIES + i);
    return c;
}

/* Issue the copies of k-tile kt into the stage at shared addresses (sa, sb):
 * all of them (part < 0), or only part `part` of COPY_STEPS, the copies
 * j = 0 .. A_COPIES + B_COPIES - 1 (A's first) cut into COPY_STEPS runs.
 * The loops are unrolled, so choosing a part costs nothing at run time.
 * Outside the matrix (rows >= M or N, columns >= K) the copy reads nothing
 * and writes zeros: a stale or uninitialized stage could hold anything, even
 * NaN bit patterns, and 0 * NaN is NaN.  K % 8 == 0, so a 16-byte chunk is
 * either entirely inside K or entirely outside. */
#define COPY_PART(j) ((j) * COPY_STEPS / (A_COPIES + B_COPIES))
static __device__ __forceinline__ void copy_k_tile(const tile_copier *c, int kt, uint32_t sa,
                                                   uint32_t sb, int part)
{
    const int k = kt * BK;
    const int k_ok = k < c->k_left;
#pragma unroll
    for (int i = 0; i < A_COPIES; ++i) {
        if (part >= 0 && COPY_PART(i) != part) continue;
        const int ok = k_ok && ((c->rows_ok >> i) & 1);
        const __nv_bfloat16 *src = c->a_src + k + i * c->row_step;
        cp_async_cg_16(sa + c->st + i * COPY_ROWS * ROW_BYTES, ok ? (const void *)src : c->nowhere,
                       ok ? 16u : 0u);
    }
#pragma unroll
    for (int i = 0; i < B_COPIES; ++i) {
        if (part >= 0 && COPY_PART(A_COPIES + i) != part) continue;
        const int ok = k_ok && ((c->rows_ok >> (A_COPIES + i)) & 1);
        const __nv_bfloat16 *src = c->b_src + k + i * c->row_step;
        cp_async_cg_16(sb + c->st + i * COPY_ROWS * ROW_BYTES, ok ? (const void *)src : c->nowhere,
                       ok ? 16u : 0u);
    }
}

/* ---- shared -> registers: mma fragments of one k16 step ---------------------------
 * A (row-major, K contiguous): one ldmatrix.x4 per 16 x 16 tile.  Lane l points
 * at row (l % 16), chunk (l / 16): matrices 0..3 are then (rows 0-7, k 0-7),
 * (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15), which are
 * exactly mma's a[0..3] (mma_sync.cuh).
 * B (N x K, K contiguous, the ".col" operand as stored): no transpose needed.
 * One ldmatrix.x4 covers two n8 tiles: lane l points at row n = (l % 8) +
 * 8 * (l / 16), chunk (l / 8) % 2, giving (n 0-7, k 0-7) = b[0] and
 * (n 0-7, k 8-15) = b[1] of the first n8 tile, then the same for n 8-15. */
typedef struct {
    uint32_t a[MI][4];
    uint32_t b[NI][2];
} frags;

typedef struct {
    uint32_t a_row;   /* byte offset of this lane's A row in a stage */
    uint32_t b_row;   /* byte offset of this lane's B row in a stage */
    int a_chunk;      /* 0 or 1: which 8-column half of a k16 step */
    int b_chunk;
    int swz;          /* swizzle() of every row this lane addresses */
} frag_lanes;

static __device__ __forceinline__ frag_lanes frag_lanes_make(int warp_m, int warp_n, int lane)
{
    frag_lanes f;
    f.a_row = (uint32_t)((warp_m * WM + (lane & 15)) * ROW_BYTES);
    f.b_row = (uint32_t)((warp_n * WN + (lane & 7) + ((lane >> 4) << 3)) * ROW_BYTES);
    f.a_chunk = lane >> 4;
    f.b_chunk = (lane >> 3) & 1;
    /* Every row above, and every row + 16 mi or + 16 nj below, is (multiple
     * of 8) + (lane % 8): the swizzle only looks at row % 8, so it is one
     * value per lane. */
    f.swz = swizzle(lane & 7);
    return f;
}

static __device__ __forceinline__ void load_frags(frags *f, const frag_lanes *l, uint32_t sa,
                                                  uint32_t sb, int kk)
{
    const uint32_t a_col = (uint32_t)(((2 * kk + l->a_chunk) ^ l->swz) << 4);
    const uint32_t b_col = (uint32_t)(((2 * kk + l->b_chunk) ^ l->swz) << 4);
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
        ldmatrix_x4(f->a[mi], sa + l->a_row + mi * 16 * ROW_BYTES + a_col);
#pragma unroll
    for (int nj = 0; nj < NI / 2; ++nj) {
        uint32_t r[4];
        ldmatrix_x4(r, sb + l->b_row + nj * 16 * ROW_BYTES + b_col);
        f->b[2 * nj][0] = r[0];
        f->b[2 * nj][1] = r[1];
        f->b[2 * nj + 1][0] = r[2];
        f->b[2 * nj + 1][1] = r[3];
    }
}

/* MI x NI mma.sync: the warp's WM x WN accumulator += one k16 step.
 * Serpentine order over n, so consecutive mma share their B (or A) operand
 * registers. */
static __device__ __forceinline__ void mma_k16(float acc[MI][NI][4], const frags *f)
{
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
        for (int j = 0; j < NI; ++j) {
            const int ni = (mi & 1) ? NI - 1 - j : j;
            mma_m16n8k16_bf16_f32(acc[mi][ni], f->a[mi], f->b[ni]);
        }
}

/* The whole CTA, for a ring of S stages.  S and `traced` are literals at
 * every timed call site (the kernels below), so each timed kernel is built
 * for one ring depth and has no trace code in it at all (no timer reads, no
 * branches in the k loop).  Only the traced kernel passes a run-time S. */
static __device__ __forceinline__ void gemm_cta(const __nv_bfloat16 *__restrict__ A,
                                                const __nv_bfloat16 *__restrict__ B,
                                                __nv_bfloat16 *__restrict__ D, int M, int N,
                                                int K, const int S, trace_ctx tr,
                                                const int traced)
{
    extern __shared__ __align__(128) unsigned char smem[];
    /* Stage s of A at sA + s * A_STAGE_BYTES, of B at sB + s * B_STAGE_BYTES. */
    const uint32_t sA = (uint32_t)__cvta_generic_to_shared(smem);
    const uint32_t sB = sA + (uint32_t)S * A_STAGE_BYTES;

    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int warp_m = warp / WARPS_N, warp_n = warp % WARPS_N;
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    int tm, tn;
    grouped_tile_coords((int)blockIdx.x, tiles_m, tiles_n, GROUP_M, &tm, &tn);
    const int m0 = tm * BM, n0 = tn * BN;
    const int KT = (K + BK - 1) / BK;   /* k-tiles; the last may be partial (zero-filled) */

    const tile_copier cp = copier_make(A, B, M, N, K, m0, n0);
    const frag_lanes fl = frag_lanes_make(warp_m, warp_n, lane);

    float acc[MI][NI][4];
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
        for (int ni = 0; ni < NI; ++ni)
#pragma unroll
            for (int q = 0; q < 4; ++q) acc[mi][ni][q] = 0.0f;

    /* Timeline: one writer lane per warp; spans follow each other, each
     * ending where the next begins. */
    const int writer = lane == 0;
    uint64_t t = traced ? trace_now() : 0;
#define SPAN(phase, index)                                        \
    do {                                                          \
        if (traced) TRACE_SPAN(tr, writer, warp, phase, index, t); \
    } while (0)

    /* Prologue: k-tiles 0 .. S-2 into stages 0 .. S-2, one group each.  A
     * group is committed even when K is so short that there is no k-tile to
     * copy, so that the group count below is the same for every shape. */
    for (int s = 0; s < S - 1; ++s) {
        if (s < KT) copy_k_tile(&cp, s, sA + s * A_STAGE_BYTES, sB + s * B_STAGE_BYTES, -1);
        cp_async_commit_group();
        if (s < KT) SPAN(TP_PRODUCER_LOAD, s);
    }

    /* k-tile 0 must be in before the first fragments are read.  S-1 groups
     * are committed; leaving the newest S-2 in flight means group 0 landed. */
    cp_async_wait_group(S - 2);
    __syncthreads();   /* RAW: other threads' copies of k-tile 0 are visible */
    frags f[2];        /* double buffer: load step kk+1 while step kk multiplies */
    load_frags(&f[0], &fl, sA, sB, 0);
    /* Stamped after the ldmatrix: a timer read right after bar.sync may
     * carry the time the warp reached the barrier, not when it was released
     * (trace.cuh); the shared-memory read cannot start before the release. */
    SPAN(TP_CONSUMER_WAIT, 0);

    int rd = 0;        /* stage holding k-tile kt */
    int wr = S - 1;    /* stage k-tile kt + S - 1 goes to: the one k-tile kt-1 used */
    for (int kt = 0; kt < KT; ++kt) {
        const int ahead = kt + S - 1;   /* the k-tile this iteration copies */
        const uint32_t sa = sA + rd * A_STAGE_BYTES, sb = sB + rd * B_STAGE_BYTES;
        const uint32_t wa = sA + wr * A_STAGE_BYTES, wb = sB + wr * B_STAGE_BYTES;
        /* KSTEPS k16 steps on stage rd.  The fragments of step kk+1 are
         * requested before step kk's mma, so ldmatrix latency hides under
         * tensor-core work.  At the last step the next fragments come from
         * the NEXT k-tile, so that is where this iteration waits for it:
         * still one wait + one barrier per k-tile, and the mma of the last
         * step run while the ldmatrix of k-tile kt+1 are in flight. */
#pragma unroll
        for (int kk = 0; kk < KSTEPS; ++kk) {
            if (kk + 1 < KSTEPS) {
                load_frags(&f[(kk + 1) & 1], &fl, sa, sb, kk + 1);
            } else if (kt + 1 < KT) {
                SPAN(TP_CONSUMER_COMPUTE, kt);
                /* Iteration kt has committed S-1 + kt+1 groups (k-tiles up to
                 * kt+S-1); allowing S-2 in flight completes k-tile kt+1. */
                cp_async_wait_group(S - 2);
                /* One barrier, two hazards: RAW (everyone's copies of k-tile
                 * kt+1 are visible after it) and WAR (everyone's ldmatrix of
                 * k-tile kt were issued before it: all of them happened at
                 * steps < KSTEPS-1, so the next iteration may refill stage rd). */
                __syncthreads();
                rd = rd + 1 == S ? 0 : rd + 1;
                load_frags(&f[(kk + 1) & 1], &fl, sA + rd * A_STAGE_BYTES,
                           sB + rd * B_STAGE_BYTES, 0);
                SPAN(TP_CONSUMER_WAIT, kt + 1);   /* after a dependent shared read, as above */
            }
            /* Producer part, spread over the first COPY_STEPS steps and
             * issued after their ldmatrix, so that the fragment reads the
             * tensor cores wait for are not queued behind a burst of copies
             * (both use the shared-memory pipe).  Safe to overwrite stage wr:
             * every warp passed the barrier that published k-tile kt, and
             * each had issued all its reads of k-tile kt-1 (stage wr) before
             * arriving there (WAR).  The group is committed before the wait
             * above (COPY_STEPS < KSTEPS), so the count is unchanged. */
            if (kk < COPY_STEPS) {
                SPAN(TP_CONSUMER_COMPUTE, kt);
                if (ahead < KT) copy_k_tile(&cp, ahead, wa, wb, kk);
                if (kk + 1 == COPY_STEPS)
                    cp_async_commit_group();   /* every iteration, even if empty: keeps wait_group(S-2) exact */
                if (ahead < KT) SPAN(TP_PRODUCER_LOAD, ahead);
            }
            mma_k16(acc, &f[kk & 1]);
        }
        SPAN(TP_CONSUMER_COMPUTE, kt);
        wr = wr + 1 == S ? 0 : wr + 1;
    }
    /* Every group still open is empty (no copy is issued past the last
     * k-tile, and k-tile KT-1 was waited for); drain anyway so no copy can
     * outlive the kernel's use of shared memory, as a later epilogue that
     * reuses the stages would require. */
    cp_async_wait_all();

    /* Epilogue: accumulators -> bf16 -> D, straight from the mma layout
     * (lane = 4g + t holds rows g and g+8, columns 2t and 2t+1 of each 16 x 8
     * tile).  Masked at the M and N edges. */
    const int g = lane >> 2, t4 = lane & 3;
    const int row0 = m0 + warp_m * WM + g, col0 = n0 + warp_n * WN + 2 * t4;
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
        for (int ni = 0; ni < NI; ++ni) {
            gemm_store_pair(D, M, N, row0 + mi * 16, col0 + ni * 8, acc[mi][ni][0],
                            acc[mi][ni][1]);
            gemm_store_pair(D, M, N, row0 + mi * 16 + 8, col0 + ni * 8, acc[mi][ni][2],
                            acc[mi][ni][3]);
        }
    SPAN(TP_EPILOGUE, tm * tiles_n + tn);
#undef SPAN
}

/* ---- one kernel per ring depth ------------------------------------------------
 * cp.async.wait_group takes its count as an immediate.  With S known only at
 * run time, cp_async_wait_group(S - 2) becomes a switch: an indirect jump (BRX)
 * through a table in front of the barrier of every k-tile, and ring indices
 * that wrap at a register value.  So every ring depth gets its own kernel, in
 * which S is a literal: wait_group(S-2) is one DEPBAR instruction and the stage
 * indices wrap at a constant.  Measured on this tile, that made the kernel 7%
 * faster at 4096^3 and 15% at 8192^3 (NOTES.md).  The launcher picks the kernel
 * with a switch on --stages; the untimed traced launch uses a single kernel
 * with a run-time S, since its speed does not matter. */
#define TIMED_KERNEL(S)                                                                  \
    __global__ void __launch_bounds__(THREADS, MIN_CTAS_PER_SM)                          \
    cpasync_multistage_s##S(const __nv_bfloat16 *__restrict__ A,                         \
                            const __nv_bfloat16 *__restrict__ B,                         \
                            __nv_bfloat16 *__restrict__ D, int M, int N, int K)          \
    {                                                                                    \
        const trace_ctx off = {0};   /* never read: traced = 0 */                        \
        gemm_cta(A, B, D, M, N, K, S, off, 0);                                           \
    }
TIMED_KERNEL(2)
TIMED_KERNEL(3)
TIMED_KERNEL(4)
TIMED_KERNEL(5)
TIMED_KERNEL(6)
static_assert(MAX_STAGES <= 6, "one timed kernel per ring depth 2..6");

__global__ void __launch_bounds__(THREADS, MIN_CTAS_PER_SM)
cpasync_multistage_traced(const __nv_bfloat16 *__restrict__ A, const __nv_bfloat16 *__restrict__ B,
                          __nv_bfloat16 *__restrict__ D, int M, int N, int K, int stages,
                          trace_ctx tr)
{
    gemm_cta(A, B, D, M, N, K, stages, tr, 1);
}

typedef void (*timed_kernel)(const __nv_bfloat16 *, const __nv_bfloat16 *, __nv_bfloat16 *, int,
                             int, int);

static timed_kernel timed_kernel_for(int stages)
{
    switch (stages) {
    case 2: return cpasync_multistage_s2;
    case 3: return cpasync_multistage_s3;
    case 4: return cpasync_multistage_s4;
    case 5: return cpasync_multistage_s5;
    case 6: return cpasync_multistage_s6;
    }
    /* Not reached: the harness refuses --stages outside MIN..MAX_STAGES. */
    fprintf(stderr, "step04: no kernel for --stages %d\n", stages);
    exit(2);
}

/* Above 48 KiB of dynamic shared memory a kernel must opt in.  The carveout
 * asks for all of the SM's L1/shared storage as shared memory (this kernel
 * reads nothing through L1), so that MIN_CTAS_PER_SM rings fit side by side. */
static void opt_in(const void *kernel, int stages)
{
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    stages * STAGE_BYTES));
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared));
}

static size_t ring_bytes(int stages) { return (size_t)stages * STAGE_BYTES; }

static void step_launch(const gemm_operands *op, cudaStream_t stream)
{
    /* Once, for every kernel whose ring this device holds, so the timed loop
     * does not pay for it; a ring the device cannot hold is refused here. */
    static int opted_in = 0;
    if (!opted_in) {
        const int fit = MIN_(MAX_STAGES, op->smem_optin / STAGE_BYTES);
        gemm_require_stages("04", op->stages, op->smem_optin, MIN_STAGES, fit, ring_bytes(op->stages),
                            ring_bytes(MIN_STAGES));
        for (int s = MIN_STAGES; s <= fit; ++s) opt_in((const void *)timed_kernel_for(s), s);
        opt_in((const void *)cpasync_multistage_traced, fit);
        opted_in = 1;
    }
    const int tiles_m = (op->m + BM - 1) / BM, tiles_n = (op->n + BN - 1) / BN;
    const size_t smem = (size_t)op->stages * STAGE_BYTES;
    if (TRACE_ON(op->trace)) {
        cpasync_multistage_traced<<<tiles_m * tiles_n, THREADS, smem, stream>>>(
            op->a, op->b, op->d, op->m, op->n, op->k, op->stages, op->trace);
    } else {
        const timed_kernel kernel = timed_kernel_for(op->stages);
        kernel<<<tiles_m * tiles_n, THREADS, smem, stream>>>(op->a, op->b, op->d, op->m, op->n,
                                                               op->k);
    }
    CUDA_CHECK_LAUNCH();
}

int main(int argc, char **argv)
{
    const gemm_step step = {
        .step = "04", .name = "cpasync_multistage",
        .summary = "cp.async ring of S shared-memory stages feeding ldmatrix + mma.sync (" TILE_LABEL " tiles)",
        .variant = TILE_LABEL,
        .min_stages = MIN_STAGES,
        .max_stages = MAX_STAGES,
        .default_stages = DEFAULT_STAGES,
        .need = {9, 0, 0, "cp.async/ldmatrix/mma.sync need sm_80+; this course builds for sm_90"},
        .launch = step_launch, .trace_units = THREADS / 32, .trace_unit_kind = "warp",
    };
    return gemm_main(argc, argv, &step);
}
