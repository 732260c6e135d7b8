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
 *   producer (WG 0, 1 thread)          consumers (WG 1, WG 2)
 *   acquire: wait empty[s]             wait: wait full[s] (all 128 threads)
 *   arrive.expect_tx(full[s], 48 KiB)  4 x wgmma (k16 steps) on slot s, commit
 *   TMA A box, TMA B box -> full[s]    wait_group(1): slot s-1's wgmmas done
 *   next slot                          release: arrive empty[s-1] (thread 0
 *                                      of each WG)
 *                                      ... after the last k-tile: epilogue
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
 * Build and run:
 *   make step05                 (sm_90a only: wgmma exists on no other target)
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
#include "smem_layout.h"
#include "tma.h"
#include "work_unit.h"
#include "tma.cuh"
#include "wgmma.cuh"
#include "wgmma_desc.h"

/* ---- tile shape ------------------------------------------------------------
 * 128 x 256 x 64 per tile: two consumer warpgroups, each owning a 64 x 256
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
#ifndef GROUP_M
#define GROUP_M 8                               /* grouped raster: 8 tile rows */
#endif
/* The numbers in the comments are the default's. */
#define WG_M_BLOCKS 1                           /* m64 blocks per consumer warpgroup */
#define WG_THREADS 128                          /* 4 warps: one warpgroup */
#define WG_ROWS (64 * WG_M_BLOCKS)              /* rows of D per consumer WG */
#define BM (WG_ROWS * CONSUMER_WGS)             /* 128 */
#define BN 256                                  /* one m64n256k16 accumulator wide */
#define BK 64                                   /* 64 bf16 = one 128-byte swizzled row */
#define THREADS (WG_THREADS * (1 + CONSUMER_WGS))   /* 384: producer WG + consumers */
#define MIN_CTAS_PER_SM 1                       /* __launch_bounds__: one CTA of 384 threads per SM */
#define KSTEPS (BK / 16)                        /* 4 wgmma k16 steps per k-tile */
#define ACC_REGS (BN / 2)                       /* 128 fp32 accumulators per thread */
#define A_STAGE_BYTES (BM * BK * 2)             /* 16 KiB: the A box, 128 rows x 128 B (bf16) */
#define B_STAGE_BYTES (BN * BK * 2)             /* 32 KiB: the B box, 256 rows x 128 B */
#define STAGE_BYTES (A_STAGE_BYTES + B_STAGE_BYTES)   /* 48 KiB, also the expect_tx count */
#define SMEM_ALIGN 1024                         /* SWIZZLE_128B atom: 8 rows x 128 B */
#define wgmma_tile_k16 wgmma_m64n256k16_bf16    /* one m64 block's k16 step */

/* ---- shared memory (common/smem_layout.h: the one layout) -------------------
 * A stage is 48 KiB of boxes plus its full and empty mbarriers (8 bytes
 * each); SMEM_LAYOUT_ALIGN bytes of slack round the base up to 1024, the
 * swizzle atom every box must start on (smem_layout.h says why).  The
 * --stages range is sized for the shared memory one CTA may opt in to on an
 * H100 or H200, 227 KiB (the device attribute
 * cudaDevAttrMaxSharedMemoryPerBlockOptin on both; CUDA C++ Programming
 * Guide, compute capability 9.0: 228 KiB per SM, 227 KiB per block).  The
 * launcher checks the requested ring against the attribute of the device it
 * runs on (gemm_operands.smem_optin) and refuses what does not fit. */
#define SMEM_CONFIG {A_STAGE_BYTES, B_STAGE_BYTES, 0}   /* no epilogue buffers */
#define H100_SMEM_OPTIN (227 * 1024)
/* 2: the release runs one k-tile late (wgmma_wait_group(1) below), so one slot
 * is always held by the wgmmas in flight and the producer needs another. */
#define MIN_STAGES 2
/* At most 8, step 03's ceiling; with 40-48 KiB stages the budget decides:
 * 4 (5 with one consumer warpgroup). */
#define MAX_STAGES gemm_stages_that_fit(&LAUNCH, H100_SMEM_OPTIN, SMEM_LAYOUT_MAX_STAGES)
/* 4, the deepest ring with two consumers; at 4096^3 on the H100 it measured
 * 0.876 of cuBLAS against 0.867 at 3 and 0.606 at 2 (plots/results CSV, the
 * stages sweep of git ea20162, all at 1980 MHz). */
#define DEFAULT_STAGES 4
#define STEP_ID "05"                           /* the step's number, in messages too */

static_assert(A_STAGE_BYTES % SMEM_ALIGN == 0 && B_STAGE_BYTES % SMEM_ALIGN == 0,
              "every A and B box must start on a 1024-byte swizzle atom");
static_assert(SMEM_ALIGN == SMEM_LAYOUT_ALIGN, "the layout rounds the base to the swizzle atom");
static_assert(BK * 2 == WGMMA_SW128_ROW_BYTES, "a k-tile row must be one 128-byte swizzle row");
static_assert(STAGE_BYTES < (1 << 20), "an mbarrier's tx-count holds at most 2^20 - 1 bytes");

/* ---- the kernel's parameters: one struct, written once ----------------------
 * Everything a launch needs, built by the host once per input set (prepare,
 * below) and passed as ONE const __grid_constant__ parameter (gemm_cta's
 * kernels): the tensor maps inside it stay in parameter space, where TMA
 * wants them (a plain by-value parameter would be copied to local memory,
 * which TMA does not accept).  The traced and untraced kernels and the
 * launch all use this one definition. */
typedef struct {
    CUtensorMap map_a, map_b;
    __nv_bfloat16 *D;                  /* the epilogue stores from registers, masked */
    int M, N, k_tiles, stages;         /* k_tiles = ceil(K / BK): the last may be partial */
    trace_ctx trace;                   /* tracing off unless --trace (recs == NULL) */
    int plant_bug;                     /* DEBUG builds: --plant-bug, else 0 */
} kernel_params;

/* ---- grouped raster order (common/raster.h) ------------------------------------
 * CTA i computes tile (tm, tn) = grouped_tile_coords(i, ..., GROUP_M).  Going
 * down GROUP_M tile rows before moving right means the ~132 CTAs resident at
 * a time (one per SM on an H100's 132) cover about 8 x 17 tiles: they share
 * 8 panels of A and ~17 panels of B in L2 instead of ~5 of A and all 32 of B.
 * At 8192^3 that is 8 x 128 + 17 x 256 rows of K per wave instead of
 * 5 x 128 + 32 x 256: ~40% fewer bytes to bring in from DRAM.
 * A work unit is {tile, its coordinates, a range of k-tiles}
 * (work_unit.h): here one per CTA, its whole tile (step 06: many, same roles). */
static __device__ __forceinline__ work_unit cta_unit(const kernel_params *P)
{
    const int M = P->M, N = P->N;
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    int tm, tn;
    grouped_tile_coords((int)blockIdx.x, tiles_m, tiles_n, GROUP_M, &tm, &tn);
    const work_unit u = {.tile = tm * tiles_n + tn,   /* the timeline's label */
                         .tile_m = tm, .tile_n = tn, .k_begin = 0, .k_end = P->k_tiles};
    return u;
}

/* ---- role contexts: what each role reads and carries ------------------------
 * Passed by pointer; everything is inlined, so the fields live in registers
 * like the loose variables they replace. */
typedef struct {
    const smem_ring *sm;
    pipeline_state write_state;   /* the next slot to fill */
    int loads;                    /* k-tiles issued by this CTA (planted bug, trace) */
    trace_clock *clk;
    int plant_bug;
} producer_ctx;

typedef struct {
    const smem_ring *sm;
    pipeline_state read_state;    /* the next slot to wait for */
    pipeline_state release_state; /* the slot to hand back, one k-tile behind */
    int c;                        /* consumer warpgroup 0 or 1 (warpgroup c + 1) */
    int leader;                   /* 1 in the one thread that releases slots (thread 0) */
    int reads;                    /* k-tiles consumed by this warpgroup (trace, planted bug) */
    trace_clock *clk;
    int plant_bug;
} consumer_ctx;

/* ---- producer: one thread loads every k-tile of the tile ---------------------
 * The other 127 threads of warpgroup 0 have nothing to do and have left
 * (gemm_cta).  write_state walks the ring: acquire a free slot, announce the
 * bytes, issue the two TMA boxes. */
static __device__ __forceinline__ void producer_load_tile(const kernel_params *P, producer_ctx *pc,
                                                          const work_unit *u)
{
    const smem_ring *sm = pc->sm;
    pipeline_state *write_state = &pc->write_state;
    for (int kt = u->k_begin; kt < u->k_end; ++kt, ++pc->loads) {
        /* acquire: the slot's previous contents were fully read (WAR). */
        producer_acquire(sm->empty, write_state->index, write_state->phase);
        CLOCK_SPAN(pc->clk, 1, TP_PRODUCER_ACQUIRE, pc->loads);
        /* "commit" in TMA form: one arrival plus the bytes to expect.
         * The count is the FULL box of A plus the full box of B, even
         * when the box hangs over the matrix edge (M, N or K not a
         * multiple of the tile): TMA writes zeros for the outside
         * elements and counts them like the others.  Counting only
         * in-bounds bytes would leave the tx-count above 0 forever.
         * Announcing before issuing is CUTLASS's order; the reverse is
         * also legal (tx-count may go negative within a phase). */
        uint64_t *bar = &sm->full[write_state->index];
#ifdef COURSE_DEBUG
        if (!(PLANTED(pc->plant_bug, BUG_SKIP_COMMIT) && pc->loads == 1))
#endif
            mbar_arrive_expect_tx(bar, STAGE_BYTES);
        /* Coordinates innermost first: {k, row}. */
        tma_load_2d(sm->a + write_state->index * A_STAGE_BYTES, &P->map_a, kt * BK, u->tile_m * BM,
                    smem_u32(bar));
        tma_load_2d(sm->b + write_state->index * B_STAGE_BYTES, &P->map_b, kt * BK, u->tile_n * BN,
                    smem_u32(bar));
        CLOCK_SPAN(pc->clk, 1, TP_PRODUCER_LOAD, pc->loads);
        pipeline_advance(write_state);
    }
}

static __device__ __forceinline__ void producer_load_tiles(const kernel_params *P, producer_ctx *pc)
{
    tma_prefetch_map(&P->map_a);
    tma_prefetch_map(&P->map_b);
#ifdef COURSE_DEBUG
    if (PLANTED(pc->plant_bug, BUG_PRODUCER_PHASE0)) pc->write_state.phase = 0;   /* the classic: first acquire never passes */
#endif
    const work_unit u = cta_unit(P);
    producer_load_tile(P, pc, &u);
    /* No producer tail needed: without clusters no other CTA arrives on
     * our barriers, and the consumers keep the CTA alive until every
     * byte issued above has landed (they wait for it). */
}

/* Issue the wgmmas of the k-tile in the slot cc->read_state names: KSTEPS
 * k16 steps for each of the warpgroup's WG_M_BLOCKS m64 blocks, one commit
 * group.  accumulate = 0 overwrites the accumulators on the first k16 step. */
static __device__ __forceinline__ void consumer_mma_slot(consumer_ctx *cc, float (*acc)[ACC_REGS],
                                                         int accumulate)
{
    const smem_ring *sm = cc->sm;
    const uint32_t slot = cc->read_state.index;
    const uint32_t a_base = sm->a + (uint32_t)cc->c * WG_ROWS * WGMMA_SW128_ROW_BYTES;
    /* Descriptors of B's BN rows in the slot and, in the loop below, of
     * each m64 block of A; each k16 step moves 32 bytes along the rows. */
    const uint64_t db = wgmma_desc_k_major_sw128(sm->b + slot * B_STAGE_BYTES);
    wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
    wgmma_fence();   /* accumulator writes (zeroing, the last epilogue) come first */
#pragma unroll
    for (int kk = 0; kk < KSTEPS; ++kk)
#pragma unroll
        for (int mb = 0; mb < WG_M_BLOCKS; ++mb) {
            const uint64_t da = wgmma_desc_k_major_sw128(
                a_base + slot * A_STAGE_BYTES + mb * 64 * WGMMA_SW128_ROW_BYTES);
            wgmma_tile_k16(acc[mb], wgmma_desc_advance(da, kk * WGMMA_K16_BYTES),
                           wgmma_desc_advance(db, kk * WGMMA_K16_BYTES), accumulate);
        }
    wgmma_commit_group();
}

/* ---- consumer mainloop: one unit's k-tiles through the ring -----------------
 * Consumer warpgroup c computes rows 64c .. 64c + 63 of the tile against
 * all 256 columns: A rows 64c.. of each A box (64 rows x 128 B = 8 KiB
 * further: a whole number of atoms), the whole B box.  read_state is the
 * slot to wait for, release_state the slot to hand back (one behind).
 * cc->reads counts the k-tiles this warpgroup consumed (trace, planted bug). */
static __device__ __forceinline__ void consumer_mainloop(consumer_ctx *cc, float (*acc)[ACC_REGS],
                                                         const work_unit *u)
{
    const smem_ring *sm = cc->sm;
    pipeline_state *read_state = &cc->read_state, *release_state = &cc->release_state;
    for (int kt = u->k_begin; kt < u->k_end; ++kt, ++cc->reads) {
        /* wait: the TMA bytes of k-tile kt have landed.  Every consumer
         * thread waits (acquire): the data is then visible to the wgmmas
         * this warpgroup issues, with no proxy fence (TMA writes and wgmma
         * reads are both async-proxy, and complete_tx releases them). */
        consumer_wait(sm->full, read_state->index, read_state->phase);
        CLOCK_SPAN(cc->clk, cc->leader, TP_CONSUMER_WAIT, cc->reads);

        consumer_mma_slot(cc, acc, 1);
        CLOCK_SPAN(cc->clk, cc->leader, TP_CONSUMER_COMPUTE, cc->reads);

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
        wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
        if (kt > u->k_begin) {
#ifdef COURSE_DEBUG
            if (!(PLANTED(cc->plant_bug, BUG_SKIP_RELEASE) && cc->reads == 1))
#endif
                if (cc->leader) consumer_release(sm->empty, release_state->index);
            pipeline_advance(release_state);
        }
        CLOCK_SPAN(cc->clk, cc->leader, TP_CONSUMER_RELEASE, cc->reads);
        pipeline_advance(read_state);
    }
    /* Drain: the last k-tile's wgmmas must finish before the accumulators
     * are read (reading them earlier is undefined), then hand its slot back
     * at once: the ring stays balanced, and a producer with more tiles to
     * load (step 06 on) refills the slot during the epilogue. */
    wgmma_wait_group(0);
    wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
    if (cc->leader) consumer_release(sm->empty, release_state->index);
}

/* ---- epilogue: accumulators -> bf16 -> D, masked at the M and N edges --------
 * Register i of acc[mb] holds D[wgmma_acc_row][wgmma_acc_col] of m64 block
 * mb (wgmma_desc.h; the same functions the CPU tests check).  Registers
 * 2j and 2j+1 are columns col and col+1 of one row: one bf16x2 store.  D, M
 * and N in registers first: a store through D could, for all the compiler
 * knows, change *P, and it would reload them after every store. */
static __device__ __forceinline__ void epilogue_store(const kernel_params *P, consumer_ctx *cc,
                                                      float (*acc)[ACC_REGS], const work_unit *u)
{
    const int m0 = u->tile_m * BM + cc->c * WG_ROWS, n0 = u->tile_n * BN;   /* this warpgroup's rows */
    __nv_bfloat16 *__restrict__ D = P->D;
    const int M = P->M, N = P->N;
#pragma unroll
    for (int mb = 0; mb < WG_M_BLOCKS; ++mb)
#pragma unroll
        for (int i = 0; i < ACC_REGS; i += 2)
            gemm_store_pair(D, M, N, m0 + 64 * mb + wgmma_acc_row(warpgroup_thread(), i),
                            n0 + wgmma_acc_col(warpgroup_thread(), i), acc[mb][i], acc[mb][i + 1]);
}

/* ---- consumer role: the tile through the mainloop, then the epilogue -------- */
static __device__ __forceinline__ void consumer_tiles(const kernel_params *P, consumer_ctx *cc)
{
    float acc[WG_M_BLOCKS][ACC_REGS];
#pragma unroll
    for (int i = 0; i < WG_M_BLOCKS * ACC_REGS; ++i) acc[i / ACC_REGS][i % ACC_REGS] = 0.0f;
    const work_unit u = cta_unit(P);
    consumer_mainloop(cc, acc, &u);
    epilogue_store(P, cc, acc, &u);
    CLOCK_SPAN(cc->clk, cc->leader, TP_EPILOGUE, u.tile);
}

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
static __device__ __forceinline__ void barriers_init(const smem_ring *sm, int stages)
{
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; ++s) {
            mbar_init(&sm->full[s], 1);
            mbar_init(&sm->empty[s], CONSUMER_WGS);
        }
        mbar_fence_init();
    }
}

/* ---- the CTA: roles, barriers -------------------------------------------------
 * Warpgroup 0 produces, warpgroups 1..CONSUMER_WGS consume.  `traced` is a
 * constant in each of the two kernels below, so the one every timed launch
 * runs has no trace code in it at all (no timer reads, no calls, no branches
 * in the k loop). */
static __device__ __forceinline__ void gemm_cta(const kernel_params *P, const int traced)
{
    const smem_config layout = SMEM_CONFIG;
    const smem_ring sm = smem_ring_carve(layout, P->stages);
    /* Role tests must be uniform per warp (and per warpgroup for wgmma):
     * read the warpgroup index through a shuffle so the compiler knows. */
    const int wg = __shfl_sync(0xffffffffu, (int)threadIdx.x / WG_THREADS, 0);

    barriers_init(&sm, P->stages);
    __syncthreads();   /* nobody waits on, arrives at or TMA-signals an uninitialized barrier */

    /* Timeline: one writer per warpgroup. */
    trace_clock clk = trace_clock_start(P->trace, wg, traced);

    if (wg == 0) {
        /* One thread issues everything; the other 127 leave.  elect_one_sync
         * needs the whole warp, so warp 0 calls it before any lane is
         * excluded. */
        if (threadIdx.x / 32 == 0 && elect_one_sync()) {
            producer_ctx pc = {.sm = &sm, .write_state = pipeline_producer_start((uint32_t)P->stages),
                               .clk = &clk, .plant_bug = P->plant_bug};
            producer_load_tiles(P, &pc);
        }
        return;
    }
    /* The one thread that releases slots and writes trace records.  tid == 0
     * rather than elect_one_sync(): the whole warpgroup reaches every use
     * together (the loop bounds are uniform), so any fixed thread serves, and
     * a constant test costs no instruction.  (elect.sync over a converged
     * warp also picks one fixed lane, lane 0 in practice; the PTX ISA
     * promises only that the choice is deterministic.)  The producer uses
     * elect_one_sync because its other lanes leave right after. */
    const pipeline_state first = pipeline_consumer_start((uint32_t)P->stages);
    const int tid = (int)threadIdx.x % WG_THREADS;   /* thread in the warpgroup */
    consumer_ctx cc = {.sm = &sm, .read_state = first, .release_state = first, .c = wg - 1,
                       .leader = tid == 0, .clk = &clk, .plant_bug = P->plant_bug};
    consumer_tiles(P, &cc);
}

/* The kernel's one parameter, the struct above, is __grid_constant__: its
 * tensor maps are read where they lie, in parameter space. */
__global__ void __launch_bounds__(THREADS, MIN_CTAS_PER_SM)
tma_wgmma_kernel(const __grid_constant__ kernel_params P)
{
    gemm_cta(&P, 0);
}

/* The traced copy is a separate kernel rather than a branch inside one, so
 * the timed kernel's code and register allocation are untouched by tracing.
 * Its trace calls sit between wgmma issue and wait.  ptxas keeps the wgmmas
 * asynchronous across these (no C7510 message for this kernel), but not
 * across every call: in the DEBUG build, the bounded wait's call to
 * report_hang (which reaches printf) gets them serialized, with C7510
 * "wgmma pipeline crossing function boundary".  Check -Xptxas -v. */
__global__ void __launch_bounds__(THREADS, MIN_CTAS_PER_SM)
tma_wgmma_kernel_traced(const __grid_constant__ kernel_params P)
{
    gemm_cta(&P, 1);
}

/* ---- host: the plan and the launch (the glue is common/gemm_launch.cuh) ------
 * This step names its kernels, its tile and its shared memory, and fills
 * its kernel_params once per input set: two tensor maps; one CTA per tile is the
 * grid.  Each launch stamps the per-launch fields and launches. */
static const gemm_launch_desc LAUNCH = {
    .step = STEP_ID,
    .kernel = (const void *)tma_wgmma_kernel,
    .kernel_traced = (const void *)tma_wgmma_kernel_traced,
    .threads = THREADS,
    .smem = SMEM_CONFIG,
    .min_stages = MIN_STAGES,
    .cluster = 1,
};

typedef struct {
    kernel_params P;
    int grid;                 /* one CTA per tile */
} step_plan;

static void *step_prepare(const gemm_operands *op)
{
    step_plan *p = (step_plan *)gemm_plan_alloc(sizeof *p, STEP_ID);
    kernel_params *P = &p->P;
    gemm_encode_ab(&P->map_a, &P->map_b, op, BM, BN, BK);   /* no D map: the epilogue stores from registers */
    P->D = op->d;
    P->M = op->m;
    P->N = op->n;
    P->k_tiles = (op->k + BK - 1) / BK;
    P->stages = op->stages;
    p->grid = ((op->m + BM - 1) / BM) * ((op->n + BN - 1) / BN);
    return p;
}

static void step_launch(const gemm_operands *op, cudaStream_t stream)
{
    step_plan *p = (step_plan *)op->plan;
    kernel_params *P = &p->P;
    P->trace = op->trace;
    P->plant_bug = op->plant_bug;
    gemm_launch(&LAUNCH, op, p->grid, P, stream);
}

int main(int argc, char **argv)
{
    char variant[48], summary[200];
    snprintf(variant, sizeof variant, CONSUMER_WGS == 2 ? "%dx%dx%d" : "%dx%dx%d_1wg", BM, BN, BK);
    snprintf(summary, sizeof summary,
             "warp-specialized: 1 TMA producer thread, %d wgmma consumer warpgroup(s), full/empty "
             "mbarriers with transaction counts (%s)", CONSUMER_WGS, variant);
    const gemm_step step = {
        .step = STEP_ID,
        .name = "tma_wgmma",
        .summary = summary,
        .variant = variant,
        .min_stages = MIN_STAGES,
        .max_stages = MAX_STAGES,
        .default_stages = DEFAULT_STAGES,
        .need = {9, 0, 1, "wgmma and TMA need an sm_90a (Hopper H100/H200) GPU"},
        .prepare = step_prepare,
        .release = gemm_plan_free,
        .launch = step_launch,
        .trace_units = 1 + CONSUMER_WGS,
        .trace_unit_kind = "warpgroup",
        .launch_desc = &LAUNCH,
        .plant_bugs = (1u << BUG_PRODUCER_PHASE0) | (1u << BUG_SKIP_COMMIT) | (1u << BUG_SKIP_RELEASE),
    };
    return gemm_main(argc, argv, &step);
}
