/* step05_tma_wgmma — a warp-specialized GEMM: one thread moves the data
 * (TMA), whole warpgroups do the math (WGMMA), and mbarriers with transaction
 * counts connect them.
 *
 *   D[M x N] = A[M x K] . B[N x K]^T    bf16 in, fp32 accumulate, bf16 out
 *
 * Concept.  Step 04 made every warp both copy and compute, so the four warps
 * of a CTA stopped at the same __syncthreads once per k-tile.  Hopper gives
 * the two jobs to different hardware, and this step gives them to different
 * warps:
 *
 *   - warp specialization (steps 02-03): warpgroup 0 is the producer.  One
 *     thread of it, chosen with elect.sync, issues all loads; it never
 *     touches the data.  Warpgroups 1 and 2 are consumers: they only
 *     compute.  Neither side waits for the other except through the
 *     pipeline's barriers, per slot;
 *   - TMA (tma.h, tma.cuh): one instruction copies a whole box of 128 rows x
 *     64 columns of A (16 KiB), one more a 256 x 64 box of B (32 KiB), into
 *     shared memory, swizzled the way WGMMA wants it, zero-filling whatever
 *     lies outside the matrix.  When the bytes have landed, the TMA unit
 *     itself signals the slot's `full` mbarrier: the barrier carries a
 *     transaction count (bytes still to arrive) besides its arrival count, so
 *     "data is in" needs no thread;
 *   - WGMMA (wgmma.cuh, wgmma_desc.h): 128 threads issue one asynchronous
 *     64 x 256 x 16 multiply that reads A and B straight from shared memory
 *     through descriptors: no ldmatrix, no fragments in registers, only the
 *     accumulators.  wgmma.wait_group tells when a slot's reads are done.
 *
 *   producer (WG 0, 1 thread)            consumers (WG 1, WG 2, 128 threads each)
 *   acquire: wait empty[s]               wait: wait full[s]
 *   arrive.expect_tx(full[s], 48 KiB)    4 x wgmma (k16 steps) on slot s, commit
 *   TMA A box, TMA B box -> full[s]      wait_group(1): slot s-1's wgmmas done
 *   next slot                            release: arrive empty[s-1] (thread 0
 *                                        of each WG)
 *                                        ... after the last k-tile: epilogue
 *
 * What changed from step 04 (cp.async + ldmatrix + mma.sync; 4 warps per
 * CTA, two CTAs per SM, every warp copies and computes):
 *
 *   step 04                               step 05
 *   ------------------------------------  ---------------------------------------
 *   128 threads, 2 CTAs per SM; every     384 threads, 1 CTA per SM: WG 0 loads
 *   warp copies and computes              (1 thread), WG 1-2 compute (64 rows each)
 *   128 x 128 x 64 tile (64 FLOP/byte)    128 x 256 x 64 tile (85 FLOP/byte)
 *   cp.async, 16 B each, 16 per thread    TMA, one instruction per 16/32 KiB box
 *   per k-tile
 *   zero fill by hand (src-size 0)        TMA zero-fills outside the matrix
 *   chunk ^ (row % 8) swizzle computed    the same pattern, SWIZZLE_128B in the
 *   in the kernel                         tensor map
 *   cp.async.commit/wait_group(S-2)       full[s] mbarrier, count 1 + tx bytes
 *   + __syncthreads (RAW and WAR)         empty[s] mbarrier, one arrival per WG
 *   ldmatrix -> mma.sync m16n8k16         wgmma m64n256k16 from shared memory
 *   stages 2..6 of 32 KiB; one timed      stages 2..4 of 48 KiB; S at run time
 *   kernel per S (wait_group's count is   (mbarrier parities are registers,
 *   an immediate)                         wgmma_wait_group(1) is a constant)
 *   accumulators: 4 x 8 mma tiles/warp    accumulators: wgmma fragment layout
 *
 * Kept from step 04: BK = 64 (one 128-byte row per k-tile row), one tile per
 * CTA, the grouped raster order (common/raster.h), 128 fp32 accumulators per
 * thread, the epilogue's direct masked bf16 stores (common/epilogue.cuh),
 * and separate traced and untraced kernels built from one CTA function, so
 * the timed one has no trace code.
 *
 * Build and run (sm_90a only: wgmma exists on no other target):
 *   make step05
 *   ./build/step05_tma_wgmma --m 4096 --n 4096 --k 4096
 *   ./build/step05_tma_wgmma --m 4096 --n 4096 --k 4096 --stages 2
 *   ./build/step05_tma_wgmma --m 1000 --n 1000 --k 1000 --trace /tmp/t05.csv
 *   make step05 BUILD=build/wg1 NVCC_EXTRA=-DCONSUMER_WGS=1   (one consumer WG)
 *   diff -u step04_cpasync_multistage/kernel.cu step05_tma_wgmma/kernel.cu
 */
#include <cuda.h>

#include "gemm.cuh"
#include "mbarrier.cuh"
#include "pipeline_state.h"
#include "epilogue.cuh"
#include "raster.h"
#include "str.h"
#include "tma.h"
#include "tma.cuh"
#include "wgmma.cuh"
#include "wgmma_desc.h"

/* ---- tile shape ------------------------------------------------------------
 * 128 x 256 x 64 per CTA: two consumer warpgroups, each owning a 64 x 256
 * block of D = one m64n256k16 accumulator, 128 fp32 registers per thread.
 * Why this shape (README.md, "Choosing the tile"):
 *   - n256 is the widest wgmma: per k16 step a warpgroup reads 2 KiB of A and
 *     8 KiB of B for 64x256x16 MACs, and the two consumers share the B tile,
 *     so shared-memory traffic per MAC is the lowest available;
 *   - the CTA does 2 x 128 x 256 x 64 FLOP per 48 KiB it loads: 85 FLOP per
 *     byte (step 04's 128 x 128 tile: 64);
 *   - BK = 64 bf16 = 128 bytes is exactly one SWIZZLE_128B row, the widest
 *     box row TMA can swizzle, and gives 4 wgmmas per barrier round trip;
 *   - 384 threads with __launch_bounds__(384, 1) get at most 168 registers
 *     each (65536 / 384, rounded down to a multiple of 8): 128 accumulators
 *     plus addresses fit with no spill (ptxas -v: see NOTES.md).  Moving
 *     registers from the producer to the consumers (setmaxnreg) is step 06.
 *
 * CONSUMER_WGS = 1 (an exercise) keeps one consumer warpgroup and halves the
 * tile to 64 x 256. */
#ifndef CONSUMER_WGS
#define CONSUMER_WGS 2
#endif
#if CONSUMER_WGS != 1 && CONSUMER_WGS != 2
#error "CONSUMER_WGS must be 1 or 2 (a third warpgroup would leave 128 registers per thread)"
#endif
#define WG_THREADS 128                          /* 4 warps: one warpgroup */
#define WG_ROWS 64                              /* rows of D per consumer WG: wgmma's M */
#define BM (WG_ROWS * CONSUMER_WGS)             /* 128 */
#define BN 256                                  /* one m64n256k16 accumulator wide */
#define BK 64                                   /* 64 bf16 = one 128-byte swizzled row */
#define THREADS (WG_THREADS * (1 + CONSUMER_WGS))   /* 384: producer WG + consumers */
#define KSTEPS (BK / 16)                        /* 4 wgmma k16 steps per k-tile */
#define ACC_REGS (BN / 2)                       /* 128 fp32 accumulators per thread */
#define A_STAGE_BYTES (BM * BK * 2)             /* 16 KiB: the A box, 128 rows x 128 B (bf16) */
#define B_STAGE_BYTES (BN * BK * 2)             /* 32 KiB: the B box, 256 rows x 128 B */
#define STAGE_BYTES (A_STAGE_BYTES + B_STAGE_BYTES)   /* 48 KiB, also the expect_tx count */
#define SMEM_ALIGN 1024                         /* SWIZZLE_128B atom: 8 rows x 128 B */
#define GROUP_M 8                               /* grouped raster: 8 tile rows (as step 04) */

/* ---- stages from the shared-memory budget ------------------------------------
 * A stage is 48 KiB of boxes plus its full and empty mbarriers (8 bytes
 * each); up to SMEM_ALIGN bytes of slack round the base up to 1024.  The
 * --stages range is sized at compile time for the shared memory one CTA may
 * opt in to on an H100 or H200, 227 KiB (the device attribute
 * cudaDevAttrMaxSharedMemoryPerBlockOptin on both; CUDA C++ Programming
 * Guide, compute capability 9.0: 228 KiB per SM, 227 KiB per block).  The
 * launcher checks the requested ring against the attribute of the device it
 * runs on (gemm_operands.smem_optin) and refuses what does not fit. */
#define SMEM_PER_STAGE (STAGE_BYTES + 2 * 8)
#define SMEM_BYTES(S) (SMEM_ALIGN + (S) * SMEM_PER_STAGE)
#define STAGES_THAT_FIT(budget) (((budget) - SMEM_ALIGN) / SMEM_PER_STAGE)
#define H100_SMEM_OPTIN (227 * 1024)            /* compile-time default; checked at run time */
/* 2: the release runs one k-tile late (wgmma_wait_group(1) below), so one slot
 * is always held by the wgmmas in flight and the producer needs another. */
#define MIN_STAGES 2
/* At most 8, step 03's ceiling; with 40-48 KiB stages the budget decides:
 * 4 (5 with one consumer warpgroup). */
#define MAX_STAGES (STAGES_THAT_FIT(H100_SMEM_OPTIN) < 8 ? STAGES_THAT_FIT(H100_SMEM_OPTIN) : 8)
/* 4, the deepest ring with two consumers; at 4096^3 on the H100 it measured
 * 0.871 of cuBLAS against 0.859 at 3 and 0.602 at 2 (plots/results CSV). */
#define DEFAULT_STAGES 4
#define STEP_ID "05"                           /* the step's number, in messages too */
#define CONSUMER_WGS_TEXT STR(CONSUMER_WGS)
#if CONSUMER_WGS == 2
#define VARIANT "128x256x64"
#else
#define VARIANT "64x256x64_1wg"
#endif

static_assert(A_STAGE_BYTES % SMEM_ALIGN == 0 && B_STAGE_BYTES % SMEM_ALIGN == 0,
              "every A and B box must start on a 1024-byte swizzle atom");
static_assert(BK * 2 == WGMMA_SW128_ROW_BYTES, "a k-tile row must be one 128-byte swizzle row");
static_assert(SMEM_BYTES(MAX_STAGES) <= H100_SMEM_OPTIN,
              "the ring must fit in one CTA's shared memory");
static_assert(MIN_STAGES <= DEFAULT_STAGES && DEFAULT_STAGES <= MAX_STAGES,
              "the default ring must fit");
static_assert(STAGE_BYTES < (1 << 20), "an mbarrier's tx-count holds at most 2^20 - 1 bytes");

/* ---- grouped raster order (common/raster.h, as in step 04) ------------------
 * CTA i computes tile (tm, tn) = grouped_tile_coords(i, ..., GROUP_M).  Going
 * down GROUP_M tile rows before moving right means the ~132 CTAs resident at
 * a time (one per SM on an H100's 132) cover about 8 x 17 tiles: they share
 * 8 panels of A and ~17 panels of B in L2 instead of ~5 of A and all 32 of B.
 * At 8192^3 that is 8 x 128 + 17 x 256 rows of K per wave instead of
 * 5 x 128 + 32 x 256: ~40% fewer bytes to bring in from DRAM. */

/* ---- the CTA ---------------------------------------------------------------
 * Shared memory, from a 1024-aligned base:
 *   A boxes   stages x 16 KiB    stage s at sA + s * A_STAGE_BYTES
 *   B boxes   stages x 32 KiB    stage s at sB + s * B_STAGE_BYTES
 *   full[s], empty[s]            8 bytes each
 * Why 1024: TMA's 128B swizzle XORs a row's 16-byte chunk index with address
 * bits 7..9 (the row within an 8-row, 1024-byte atom), and the wgmma
 * descriptor below says "base offset 0", i.e. "my tile starts an atom".  A
 * box that started elsewhere would be swizzled with a different phase than
 * the one wgmma assumes: no error, just wrong products.
 *
 * `traced` is a constant in each of the two kernels below, so the one every
 * timed launch runs has no trace code in it at all (no timer reads, no
 * calls, no branches in the k loop). */
static __device__ __forceinline__ void gemm_cta(const CUtensorMap *map_a, const CUtensorMap *map_b,
                                                __nv_bfloat16 *__restrict__ D, int M, int N,
                                                int K, int stages, trace_ctx tr, int plant_bug,
                                                const int traced)
{
    extern __shared__ unsigned char smem_raw[];
    /* Align the shared-window address (the one TMA and wgmma see). */
    const uint32_t raw = smem_u32(smem_raw);
    unsigned char *smem = smem_raw + ((SMEM_ALIGN - (raw & (SMEM_ALIGN - 1))) & (SMEM_ALIGN - 1));
    const uint32_t sA = smem_u32(smem);
    const uint32_t sB = sA + (uint32_t)stages * A_STAGE_BYTES;
    uint64_t *full = (uint64_t *)(smem + (size_t)stages * STAGE_BYTES);
    uint64_t *empty = full + stages;

    /* Role tests must be uniform per warp (and per warpgroup for wgmma):
     * read the warpgroup index through a shuffle so the compiler knows. */
    const int wg = __shfl_sync(0xffffffffu, (int)threadIdx.x / WG_THREADS, 0);
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    int tm, tn;
    grouped_tile_coords((int)blockIdx.x, tiles_m, tiles_n, GROUP_M, &tm, &tn);
    const int m0 = tm * BM, n0 = tn * BN;
    const int KT = (K + BK - 1) / BK;   /* k-tiles; the last may be partial (zero-filled) */
    (void)plant_bug;

    /* Barrier counts:
     *   full[s]  = 1: one arrival per phase, the producer's arrive.expect_tx.
     *     The data itself is counted in bytes, not arrivals: the phase
     *     completes when that arrival happened AND the tx-count is back to 0,
     *     i.e. every byte the producer announced has landed.  The TMA unit is
     *     not a thread and does not arrive.
     *   empty[s] = CONSUMER_WGS: one thread per consumer warpgroup (its
     *     thread 0) arrives, after the wgmma.wait_group that proved the
     *     warpgroup's wgmmas on the slot have finished reading it.  A wgmma
     *     is one operation of the whole warpgroup, so one thread's wait
     *     covers all four warps.  (fast.cu counts one arrival per consumer
     *     warpgroup too, as CUTLASS's PipelineTmaAsync does with clusters;
     *     its cluster-less path lets every consumer thread arrive.) */
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; ++s) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], CONSUMER_WGS);
        }
        mbar_fence_init();
    }
    __syncthreads();   /* nobody waits on, arrives at or TMA-signals an uninitialized barrier */

    /* Timeline: one writer per warpgroup; spans follow each other, each
     * ending where the next begins. */
    uint64_t t = traced ? trace_now() : 0;
#define SPAN(writer, phase, index)                                 \
    do {                                                           \
        if (traced) TRACE_SPAN(tr, (writer), wg, phase, index, t); \
    } while (0)

    if (wg == 0) {
        /* ---- producer ------------------------------------------------------
         * One thread issues everything; the other 127 have nothing to do and
         * leave.  elect_one_sync needs the whole warp, so warp 0 calls it
         * before any lane is excluded. */
        if (threadIdx.x / 32 == 0 && elect_one_sync()) {
            tma_prefetch_map(map_a);
            tma_prefetch_map(map_b);
            pipeline_state w = pipeline_producer_start((uint32_t)stages);
#ifdef COURSE_DEBUG
            if (PLANTED(plant_bug, BUG_PRODUCER_PHASE0)) w.phase = 0;   /* the classic: first acquire never passes */
#endif
            for (int kt = 0; kt < KT; ++kt) {
                /* acquire: the slot's previous contents were fully read (WAR). */
                producer_acquire(empty, w.index, w.phase);
                SPAN(1, TP_PRODUCER_ACQUIRE, kt);
                /* "commit" in TMA form: one arrival plus the bytes to expect.
                 * The count is the FULL box of A plus the full box of B, even
                 * when the box hangs over the matrix edge (M, N or K not a
                 * multiple of the tile): TMA writes zeros for the outside
                 * elements and counts them like the others.  Counting only
                 * in-bounds bytes would leave the tx-count above 0 forever.
                 * Announcing before issuing is CUTLASS's order; the reverse is
                 * also legal (tx-count may go negative within a phase). */
                uint64_t *bar = &full[w.index];
#ifdef COURSE_DEBUG
                if (!(PLANTED(plant_bug, BUG_SKIP_COMMIT) && kt == 1))
#endif
                    mbar_arrive_expect_tx(bar, STAGE_BYTES);
                /* Coordinates innermost first: {k, row}. */
                tma_load_2d(sA + w.index * A_STAGE_BYTES, map_a, kt * BK, m0, smem_u32(bar));
                tma_load_2d(sB + w.index * B_STAGE_BYTES, map_b, kt * BK, n0, smem_u32(bar));
                SPAN(1, TP_PRODUCER_LOAD, kt);
                pipeline_advance(&w);
            }
        }
        /* No producer tail needed: without clusters no other CTA arrives on
         * our barriers, and the consumers keep the CTA alive until every
         * byte issued above has landed (they wait for it). */
        return;
    }

    /* ---- consumers -----------------------------------------------------------
     * Consumer warpgroup c computes rows m0 + 64c .. m0 + 64c + 63 of the
     * tile against all 256 columns: A rows 64c.. of each A box (64 rows x
     * 128 B = 8 KiB further: a whole number of atoms), the whole B box. */
    const int c = wg - 1;
    const int tid = (int)threadIdx.x % WG_THREADS;   /* thread in the warpgroup */
    /* The one thread that releases slots and writes trace records.  tid == 0
     * rather than elect_one_sync(): the whole warpgroup reaches every use
     * together (the loop bounds are uniform), so any fixed thread serves, and
     * a constant test costs no instruction.  (elect.sync over a converged
     * warp also picks one fixed lane, lane 0 in practice; the PTX ISA
     * promises only that the choice is deterministic.)  The producer uses
     * elect_one_sync because its other lanes leave right after. */
    const int writer = tid == 0;
    const uint32_t a_base = sA + (uint32_t)c * WG_ROWS * WGMMA_SW128_ROW_BYTES;

    float acc[ACC_REGS];
#pragma unroll
    for (int i = 0; i < ACC_REGS; ++i) acc[i] = 0.0f;

    pipeline_state rd = pipeline_consumer_start((uint32_t)stages);   /* slot to read */
    pipeline_state rel = rd;                                         /* slot to release */
    for (int kt = 0; kt < KT; ++kt) {
        /* wait: the TMA bytes of k-tile kt have landed.  Every consumer
         * thread waits (acquire): the data is then visible to the wgmmas
         * this warpgroup issues, with no proxy fence (TMA writes and wgmma
         * reads are both async-proxy, and complete_tx releases them). */
        consumer_wait(full, rd.index, rd.phase);
        SPAN(writer, TP_CONSUMER_WAIT, kt);

        /* Descriptors of this warpgroup's 64 rows of A and of B's 256 rows in
         * the slot; each k16 step moves 32 bytes along the 128-byte rows. */
        const uint64_t da = wgmma_desc_k_major_sw128(a_base + rd.index * A_STAGE_BYTES);
        const uint64_t db = wgmma_desc_k_major_sw128(sB + rd.index * B_STAGE_BYTES);
        wgmma_fence_operands(acc, ACC_REGS);
        wgmma_fence();   /* the zeroing (first k-tile) happened before these wgmmas */
#pragma unroll
        for (int kk = 0; kk < KSTEPS; ++kk)
            wgmma_m64n256k16_bf16(acc, wgmma_desc_advance(da, kk * WGMMA_K16_BYTES),
                                  wgmma_desc_advance(db, kk * WGMMA_K16_BYTES), 1);
        wgmma_commit_group();
        SPAN(writer, TP_CONSUMER_COMPUTE, kt);

        /* release, one k-tile late.  After issuing k-tile kt's group, wait
         * until at most 1 group is pending: k-tile kt-1's wgmmas are then
         * complete, so nothing reads slot (kt-1) any more and it can go back
         * to the producer, while k-tile kt's wgmmas keep the tensor cores
         * busy during the wait for k-tile kt+1.  Releasing slot kt here
         * instead would be a WAR race: its wgmmas may still be reading when
         * TMA overwrites it.  (The alternative, wait_group(0) then release
         * slot kt, is also correct but drains the tensor-core queue every
         * k-tile: README exercise.)  This is why a ring needs >= 2 slots. */
        wgmma_wait_group(1);
        wgmma_fence_operands(acc, ACC_REGS);
        if (kt > 0) {
#ifdef COURSE_DEBUG
            if (!(PLANTED(plant_bug, BUG_SKIP_RELEASE) && kt == 1))
#endif
                if (writer) consumer_release(empty, rel.index);
            pipeline_advance(&rel);
        }
        SPAN(writer, TP_CONSUMER_RELEASE, kt);
        pipeline_advance(&rd);
    }
    /* Drain: the last k-tile's wgmmas must finish before the accumulators
     * are read (reading them earlier is undefined), then hand its slot back
     * too, so the ring ends balanced (step 06 keeps using it). */
    wgmma_wait_group(0);
    wgmma_fence_operands(acc, ACC_REGS);
    if (writer) consumer_release(empty, rel.index);

    /* ---- epilogue: accumulators -> bf16 -> D, masked at the M and N edges ----
     * Register i of this thread holds D[wgmma_acc_row][wgmma_acc_col]
     * (wgmma_desc.h; the same functions the CPU tests check).  Registers
     * 2j and 2j+1 are columns col and col+1 of one row: one bf16x2 store. */
    const int row0 = m0 + c * WG_ROWS, col0 = n0;
#pragma unroll
    for (int i = 0; i < ACC_REGS; i += 2)
        gemm_store_pair(D, M, N, row0 + wgmma_acc_row(tid, i), col0 + wgmma_acc_col(tid, i),
                        acc[i], acc[i + 1]);
    SPAN(writer, TP_EPILOGUE, tm * tiles_n + tn);
#undef SPAN
}

/* Tensor maps by value, as __grid_constant__ parameters: the kernel then
 * takes their address in parameter space, which TMA accepts.  A plain
 * by-value parameter would be copied to local memory, which it does not. */
__global__ void __launch_bounds__(THREADS, 1)
tma_wgmma_kernel(const __grid_constant__ CUtensorMap map_a,
                 const __grid_constant__ CUtensorMap map_b, __nv_bfloat16 *__restrict__ D, int M,
                 int N, int K, int stages, trace_ctx tr, int plant_bug)
{
    gemm_cta(&map_a, &map_b, D, M, N, K, stages, tr, plant_bug, 0);
}

/* The traced copy is a separate kernel rather than a branch inside one, so
 * the timed kernel's code and register allocation are untouched by tracing.
 * Its trace calls sit between wgmma issue and wait.  ptxas keeps the wgmmas
 * asynchronous across these (no C7510 message for this kernel), but not
 * across every call: in the DEBUG build, the bounded wait's call to
 * report_hang (which reaches printf) gets them serialized, with C7510
 * "wgmma pipeline crossing function boundary".  Check -Xptxas -v. */
__global__ void __launch_bounds__(THREADS, 1)
tma_wgmma_kernel_traced(const __grid_constant__ CUtensorMap map_a,
                        const __grid_constant__ CUtensorMap map_b, __nv_bfloat16 *__restrict__ D,
                        int M, int N, int K, int stages, trace_ctx tr, int plant_bug)
{
    gemm_cta(&map_a, &map_b, D, M, N, K, stages, tr, plant_bug, 1);
}

/* ---- host ------------------------------------------------------------------- */

/* What prepare builds once per buffer set: the two tensor maps.  Heap
 * memory, 128-byte aligned (the driver wants a 64-byte aligned map). */
typedef struct {
    CUtensorMap a, b;
} gemm_plan;

static void encode_or_exit(CUtensorMap *map, const tma_2d_desc *d, const char *what)
{
    char msg[320];   /* room for tma.c's longest message; longer ones are cut, never overrun */
    const int rc = tma_encode_2d_bf16(map, d, msg, sizeof msg);
    if (rc == TMA_OK) return;
    fprintf(stderr, "step" STEP_ID ": cannot describe %s to TMA: %s\n", what, msg);
    exit(rc == TMA_ERR_DRIVER ? EXIT_NO_DEVICE : EXIT_BAD_ARGS);
}

static void *prepare_plan(const gemm_operands *op)
{
    gemm_plan *p = (gemm_plan *)aligned_alloc(128, sizeof(gemm_plan));
    if (!p) {
        fprintf(stderr, "step" STEP_ID ": out of host memory\n");
        exit(EXIT_WRONG);
    }
    /* A[M][K]: boxes of 64 k x BM rows.  B[N][K]: 64 k x 256 rows.  Both
     * SWIZZLE_128B: the layout wgmma_desc_k_major_sw128 describes. */
    const tma_2d_desc da = tma_2d_bf16_row_major(op->a, (uint64_t)op->m, (uint64_t)op->k, BM, BK,
                                                 TMA_SWIZZLE_128B);
    const tma_2d_desc db = tma_2d_bf16_row_major(op->b, (uint64_t)op->n, (uint64_t)op->k, BN, BK,
                                                 TMA_SWIZZLE_128B);
    encode_or_exit(&p->a, &da, "A");
    encode_or_exit(&p->b, &db, "B");
    return p;
}

static void release_plan(void *plan)
{
    free(plan);
}

static size_t ring_bytes(int stages) { return (size_t)SMEM_BYTES(stages); }

static void launch_gemm(const gemm_operands *op, cudaStream_t stream)
{
    /* Above 48 KiB of dynamic shared memory a kernel must opt in.  Done once,
     * for the largest ring this device holds, so the timed loop does not pay
     * for it; a ring the device cannot hold is refused here, by name. */
    static int opted_in = 0;
    if (!opted_in) {
        const int fit = STAGES_THAT_FIT(op->smem_optin) < MAX_STAGES
                            ? STAGES_THAT_FIT(op->smem_optin) : MAX_STAGES;
        gemm_require_stages(op, STEP_ID, MIN_STAGES, fit, ring_bytes);
        CUDA_CHECK(cudaFuncSetAttribute(tma_wgmma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        SMEM_BYTES(fit)));
        CUDA_CHECK(cudaFuncSetAttribute(tma_wgmma_kernel_traced,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        SMEM_BYTES(fit)));
        opted_in = 1;
    }
    const gemm_plan *p = (const gemm_plan *)op->plan;
    const int tiles_m = (op->m + BM - 1) / BM, tiles_n = (op->n + BN - 1) / BN;
    const size_t smem = SMEM_BYTES(op->stages);
    if (TRACE_ON(op->trace))
        tma_wgmma_kernel_traced<<<tiles_m * tiles_n, THREADS, smem, stream>>>(
            p->a, p->b, op->d, op->m, op->n, op->k, op->stages, op->trace, op->plant_bug);
    else
        tma_wgmma_kernel<<<tiles_m * tiles_n, THREADS, smem, stream>>>(
            p->a, p->b, op->d, op->m, op->n, op->k, op->stages, op->trace, op->plant_bug);
    CUDA_CHECK_LAUNCH();
}

int main(int argc, char **argv)
{
    static const gemm_step step = {
        STEP_ID, "tma_wgmma",
        "warp-specialized: 1 TMA producer thread, " CONSUMER_WGS_TEXT
        " wgmma consumer warpgroup(s), full/empty mbarriers with transaction counts (" VARIANT ")",
        VARIANT, MIN_STAGES, MAX_STAGES, DEFAULT_STAGES,
        {9, 0, 1, "wgmma and TMA need an sm_90a (Hopper H100/H200) GPU"},
        prepare_plan, release_plan, launch_gemm, 1 + CONSUMER_WGS, "warpgroup"};
    return gemm_main(argc, argv, &step);
}
