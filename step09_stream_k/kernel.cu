/* step09_stream_k — stream-K: every SM gets the same share of the MAC
 * loop, whatever the shape, and tiles cut between CTAs are finished by a
 * fixup through global memory.
 *
 *   D[M x N] = A[M x K] . B[N x K]^T    bf16 in, fp32 accumulate, bf16 out
 *
 * Concept.  A persistent grid that deals out whole tiles leaves SMs idle
 * whenever the tile count is not a multiple of the SM count: 64 tiles on
 * 132 SMs run 64 CTAs and leave 68 SMs idle for the whole kernel.  Stream-K
 * (Osama et al., PPoPP 2023) deals out k-tiles instead: the streamed tiles'
 * (tile, k-tile) iterations are cut into one contiguous range per CTA, equal
 * to within one k-tile (common/tile_scheduler.h, "stream-K").  A tile whose
 * k-tiles land in several CTAs is finished by its OWNER, the CTA holding its
 * k-tile 0; every other CTA (a WRITER) leaves its fp32 partial in a
 * workspace and raises a flag; the owner waits for the flags, adds the
 * partials in k order (bitwise reproducible) and runs the epilogue
 * (common/fixup.cuh).
 *
 *   --mode sk, 1024 x 1024 x 14336: 64 tiles x 224 k-tiles on 132 CTAs
 *   k-tiles ->   tile 0 (224)              tile 1 (224)
 *   CTA 0        [==== 109 ====)                         owner of tile 0
 *   CTA 1                      [==== 109 ====)           writes tile 0's middle
 *   CTA 2                                    [6)[== 103 ==)  writes tile 0's tail,
 *                                                         owns tile 1 ...
 *
 * Only the partial wave and one full wave are streamed; the rest stays
 * data-parallel (whole tiles, as in step 07).  That textbook deal starts its
 * CTAs at 33 different k-offsets here, so CTAs sharing a row of A read it at
 * different k and the L2 no longer serves them: it ran slower than whole
 * tiles.  --mode auto keeps plans whose CTAs start at <= 2 k-offsets (here
 * 128 CTAs, two per tile, 112 k-tiles each) and streams only where a model
 * fitted to H100 runs predicts a gain (tile_scheduler.h; NOTES.md).  A
 * writer's piece is always the FIRST piece of its CTA
 * and an owner's wait its last streamed one, so no CTA waits for a CTA that
 * waits; the launch is cooperative, so every CTA is resident and a spin on
 * a flag always has a running writer at the other end.
 *
 * The consumers keep step 07's pingpong.  CUTLASS's pingpong kernel refuses
 * stream-K because a flag wait inside a turn could close a cycle across
 * CTAs; here no writer ever waits, and the owner waits after handing the
 * tensor cores to its partner and before taking its epilogue turn, so a
 * wait stalls this CTA at most (README.md, "Why pingpong survives").
 *
 * What changed from step 07 (pingpong, whole tiles):
 *
 *   step 07                               step 09
 *   ------------------------------------  ---------------------------------------
 *   tile_walk: whole tiles b, b+G, ...    sk_walk: a k-range of the streamed
 *                                         tiles, then whole tiles
 *   mainloop over k-tiles 0 .. KT         over the piece's [k_begin, k_end)
 *   partner skips KT k-tiles              skips the partner's piece length
 *   every tile ends in an epilogue        writer: partial -> workspace, flag;
 *                                         owner: wait, add partials, epilogue
 *   <<<grid>>>                            cooperative launch (all CTAs resident)
 *   no global scratch                     workspace: 64 KiB + a flag per CTA
 *
 * Build and run (sm_90a only):
 *   make step09
 *   ./build/step09_stream_k --m 1024 --n 1024 --k 14336
 *   ./build/step09_stream_k --m 1024 --n 1024 --k 14336 --mode dp
 *   ./build/step09_stream_k --m 256 --n 256 --k 256 --exact --mode sk
 *   make diff STEP=09
 */
#include <cuda.h>

#include "gemm.cuh"
#include "mbarrier.cuh"
#include "named_barrier.cuh"
#include "pipeline_state.h"
#include "epilogue.cuh"
#include "fixup.cuh"
#include "regs.cuh"
#include "str.h"
#include "tile_scheduler.h"
#include "tma.h"
#include "tma.cuh"
#include "wgmma.cuh"
#include "wgmma_desc.h"

/* ---- tile shape ------------------------------------------------------------
 * One warpgroup now holds a whole tile's accumulators: WG_M_BLOCKS m64
 * blocks of BN/2 fp32 registers each.  The register budget decides what is
 * possible: 240 registers per consumer thread (below), ~40 of them for
 * addresses, loop state and the epilogue, leaves ~200 for accumulators
 * (with the 24 / 240 split; the default 128 x 128 tile runs with 40 / 232):
 *   128 x 256  256 accumulators: does not fit (step 06 needed two WGs for it)
 *   128 x 192  192 accumulators: fits (QuACK's 128 x 208 shows N need not be
 *              a power of two; BN must be a multiple of the 64-column
 *              store sub-tile here)
 *   128 x 128  128 accumulators: fits with room to spare
 *    64 x 256  128 accumulators: fits, but it is ONE m64n256 accumulator, so
 *              each k16 wgmma depends on the previous one: a single
 *              warpgroup then cannot keep the tensor cores busy (measured
 *              0.54x cuBLAS).  Two m64 blocks give two independent chains.
 * Measured (NOTES.md): 128 x 128 is the default; 128 x 192 is faster where
 * its tiles divide the grid of SMs well (8192^3) and slower where they do
 * not (4096^3: 704 tiles = 5.3 per SM, so some SMs run 6).
 *   make step07 BUILD=build/v NVCC_EXTRA="-DBN=192 -DPRODUCER_REGS=24 -DCONSUMER_REGS=240" */
#ifndef WG_M_BLOCKS
#define WG_M_BLOCKS 2
#endif
#ifndef BN
#define BN 128
#endif
#define CONSUMER_WGS 2
#define WG_THREADS 128                          /* 4 warps: one warpgroup */
#define BM (64 * WG_M_BLOCKS)                   /* rows of one warpgroup's tile */
#define BK 64                                   /* 64 bf16 = one 128-byte swizzled row */
#define THREADS (WG_THREADS * (1 + CONSUMER_WGS))   /* 384: producer WG + consumers */
#define KSTEPS (BK / 16)                        /* 4 wgmma k16 steps per k-tile */
#define ACC_REGS (BN / 2)                       /* fp32 accumulators per m64 block */
#define A_STAGE_BYTES (BM * BK * 2)             /* the A box, BM rows x 128 B (bf16) */
#define B_STAGE_BYTES (BN * BK * 2)             /* the B box, BN rows x 128 B */
#define STAGE_BYTES (A_STAGE_BYTES + B_STAGE_BYTES)   /* also the expect_tx count */
#define SMEM_ALIGN 1024                         /* SWIZZLE_128B atom: 8 rows x 128 B */
#if BN == 128
#define wgmma_tile_k16 wgmma_m64n128k16_bf16
#elif BN == 192
#define wgmma_tile_k16 wgmma_m64n192k16_bf16
#elif BN == 256
#define wgmma_tile_k16 wgmma_m64n256k16_bf16
#else
#error "BN must be 128, 192 or 256 (a wgmma wrapper in wgmma.cuh)"
#endif

/* ---- register split ----------------------------------------------------------
 * 384 threads at __launch_bounds__(384, 1): ptxas caps every thread at 168.
 * The producer needs ~30 (addresses, loop counters); give it the minimum
 * that leaves room for them and hand the rest to the consumers:
 * 128 x 40 + 256 x 232 = 64512 = 384 x 168 (regs.cuh).  A 128 x 128 tile
 * needs no more than 232; a 128 x 192 tile needs 24 / 240, the most
 * setmaxnreg allows the consumers (build with -DBN=192 -DPRODUCER_REGS=24
 * -DCONSUMER_REGS=240).  24 is too few for the DEBUG build's hang report,
 * which the producer may have to call. */
#ifndef PRODUCER_REGS
#define PRODUCER_REGS 40
#endif
#ifndef CONSUMER_REGS
#define CONSUMER_REGS 232
#endif
static_assert(WG_THREADS * PRODUCER_REGS + CONSUMER_WGS * WG_THREADS * CONSUMER_REGS <=
                  THREADS * 168, "the consumers may take only what the producer gave back");

/* ---- the epilogue's own shared memory ---------------------------------------
 * A tile leaves as 64 x 64 sub-tiles: each consumer warpgroup converts 64
 * columns of one m64 block to bf16, writes them to a buffer in the
 * SWIZZLE_128B layout (64 bf16 = 128 B rows: bank-conflict free, see
 * sw128_offset_bf16), and one thread stores the buffer with TMA.  Two
 * buffers, but ONE pair for both warpgroups: their epilogues take turns
 * anyway (the "epi" barriers).  The 16 KiB saved are a stage for a
 * 128 x 192 tile (5 stages instead of 4); 128 x 128 gets 6 either way. */
#define EPI_COLS 64                             /* one 128-byte swizzle row of bf16 */
#define EPI_ROWS 64                             /* one m64 block */
#define EPI_SUB_BYTES (EPI_ROWS * EPI_COLS * 2) /* 8 KiB per sub-tile buffer */
#ifndef EPI_BUFS
#define EPI_BUFS 2
#endif
#define EPI_BYTES (EPI_BUFS * EPI_SUB_BYTES)    /* 16 KiB */
#define EPI_CHUNKS (BN / EPI_COLS)              /* sub-tiles per m64 block */
#define EPI_REGS (ACC_REGS / EPI_CHUNKS)        /* 32 accumulators per sub-tile */
static_assert(BN % EPI_COLS == 0, "BN must be a multiple of the 64-column store sub-tile");

/* Named barriers (named_barrier.cuh).  Id 0 is __syncthreads'.  The pairs
 * count 256 threads: the waiting warpgroup's 128 (bar.sync) and its
 * partner's 128 (bar.arrive). */
enum {
    BAR_MMA_WG1 = 1,    /* WG 1 may issue its mainloop (WG 2 arrives) */
    BAR_MMA_WG2 = 2,    /* WG 2 may issue its mainloop (WG 1 arrives) */
    BAR_EPI_WG1 = 3,    /* WG 1 may use the epilogue buffers */
    BAR_EPI_WG2 = 4,    /* WG 2 may use the epilogue buffers */
    BAR_STORE_WG1 = 5,  /* inside WG 1's epilogue, 128 threads */
    BAR_STORE_WG2 = 6   /* inside WG 2's epilogue, 128 threads */
};
#define PINGPONG_THREADS (2 * WG_THREADS)

/* ---- stages from the shared-memory budget ------------------------------------
 * A stage is 32-40 KiB of boxes plus its full and empty mbarriers (8 bytes
 * each); up to SMEM_ALIGN bytes of slack round the base up to 1024.  The
 * --stages range is sized at compile time for the shared memory one CTA may
 * opt in to on an H100 or H200, 227 KiB (the device attribute
 * cudaDevAttrMaxSharedMemoryPerBlockOptin on both; CUDA C++ Programming
 * Guide, compute capability 9.0: 228 KiB per SM, 227 KiB per block).  The
 * launcher checks the requested ring against the attribute of the device it
 * runs on (gemm_operands.smem_optin) and refuses what does not fit.  The
 * epilogue buffers come off the top: the ring gets what they leave. */
#define SMEM_FIXED (SMEM_ALIGN + EPI_BYTES)
#define SMEM_PER_STAGE (STAGE_BYTES + 2 * 8)
#define SMEM_BYTES(S) (SMEM_FIXED + (S) * SMEM_PER_STAGE)
#define H100_SMEM_OPTIN (227 * 1024)            /* compile-time default; checked at run time */
/* 2: the release runs one k-tile late (wgmma_wait_group(1) below), so one slot
 * is always held by the wgmmas in flight and the producer needs another. */
#define MIN_STAGES 2
/* At most 8, step 03's ceiling; with 32 KiB stages and 16 KiB of epilogue
 * buffers the budget decides: 6 (5 with the 40 KiB stages of 128 x 192). */
#define MAX_STAGES smem_stages_that_fit(H100_SMEM_OPTIN, SMEM_PER_STAGE, EPI_BYTES, SMEM_ALIGN, 8)
#define DEFAULT_STAGES MAX_STAGES
#define STEP_ID "09"                           /* the step's number, in messages too */
#if WG_M_BLOCKS == 1
#define BM_TEXT "64"                            /* STR(BM) would spell "(64 * 1)" */
#else
#define BM_TEXT "128"
#endif
#define VARIANT BM_TEXT "x" STR(BN) "x64_stream_k"

static_assert(A_STAGE_BYTES % SMEM_ALIGN == 0 && B_STAGE_BYTES % SMEM_ALIGN == 0,
              "every A and B box must start on a 1024-byte swizzle atom");
static_assert(BK * 2 == WGMMA_SW128_ROW_BYTES, "a k-tile row must be one 128-byte swizzle row");
static_assert(EPI_SUB_BYTES % SMEM_ALIGN == 0, "every D buffer must start on a swizzle atom");
static_assert(EPI_COLS * 2 == WGMMA_SW128_ROW_BYTES, "an epilogue row must be one swizzle row");
static_assert(STAGE_BYTES < (1 << 20), "an mbarrier's tx-count holds at most 2^20 - 1 bytes");

/* What the kernel needs to know about the tile walk. */
typedef struct {
    tile_sched sched;
    int use_tma_store;     /* 1: N % 8 == 0 (16-byte D rows), 0: masked global stores */
    sk_plan plan;          /* which k-ranges of which tiles each CTA takes */
    float4 *partials;      /* workspace: one partial tile per CTA (its first piece's) */
    uint32_t *flags;       /* one per CTA: the epoch of the launch that wrote its partial */
    uint32_t epoch;        /* this launch's number, 1, 2, ... (flags are never reset) */
} gemm_params;

/* ---- the fixup (common/fixup.cuh) ----------------------------------------------
 * A partial is one warpgroup's accumulators, WG_M_BLOCKS x ACC_REGS floats per
 * thread, stored 4 at a time in register order: 32 float4 x 128 threads =
 * 64 KiB per CTA.  The owner's thread t reads exactly the values the
 * writer's thread t held: the same tile, the same wgmma fragment layout. */
#define PARTIAL_F4 (WG_M_BLOCKS * ACC_REGS / 4)           /* float4 per thread */
#define PARTIAL_BYTES (PARTIAL_F4 * WG_THREADS * 16)      /* 64 KiB */
#define TP_FIXUP TP_COUNT   /* timeline: a writer's store or an owner's wait + adds ("?" in the CSV) */

/* Writer: every thread stores its partial, the barrier gathers the 128
 * threads' stores, one thread releases them with the flag. */
static __device__ __forceinline__ void fixup_write_partial(float (*acc)[ACC_REGS], float4 *slot,
                                                           uint32_t *flag, uint32_t epoch, int tid,
                                                           int bar, int plant_bug)
{
#pragma unroll
    for (int mb = 0; mb < WG_M_BLOCKS; ++mb)
#pragma unroll
        for (int i = 0; i < ACC_REGS; i += 4)
            partial_store(slot, (mb * ACC_REGS + i) / 4, WG_THREADS, tid, acc[mb][i], acc[mb][i + 1],
                          acc[mb][i + 2], acc[mb][i + 3]);
    named_bar_sync(bar, WG_THREADS, "fixup write");
    (void)plant_bug;
#ifdef COURSE_DEBUG
    if (PLANTED(plant_bug, BUG_SKIP_FLAG)) return;   /* the owner must name this partial */
#endif
    if (tid == 0) flag_store_release_gpu(flag, epoch);
}

/* Owner: for each writer of the tile in k order, one thread waits for its
 * flag, the barrier passes the news on, every thread adds the writer's
 * values to its own.  The fixed order makes the sum reproducible bit for
 * bit (fp32 addition is not associative). */
static __device__ __forceinline__ void fixup_add_partials(float (*acc)[ACC_REGS], const gemm_params *prm,
                                                          int unit, int tile, int tid, int bar)
{
    const int last = sk_tile_last_unit(&prm->plan, tile);
    for (int v = unit + 1; v <= last; ++v) {
        if (tid == 0) flag_wait_acquire_gpu(&prm->flags[v], prm->epoch, tile, v);
        named_bar_sync(bar, WG_THREADS, "fixup wait");
        const float4 *slot = prm->partials + (size_t)v * PARTIAL_F4 * WG_THREADS;
#pragma unroll
        for (int mb = 0; mb < WG_M_BLOCKS; ++mb)
#pragma unroll
            for (int i = 0; i < ACC_REGS; i += 4) {
                const float4 p = partial_load(slot, (mb * ACC_REGS + i) / 4, WG_THREADS, tid);
                acc[mb][i] += p.x;
                acc[mb][i + 1] += p.y;
                acc[mb][i + 2] += p.z;
                acc[mb][i + 3] += p.w;
            }
    }
}

/* k-tiles of the piece a walk stands on; 0 past its end. */
static __device__ __forceinline__ int piece_ktiles(const sk_plan *plan, const sk_walk *w)
{
    if (!sk_walk_valid(plan, w)) return 0;
    const sk_work p = sk_walk_work(plan, w);
    return p.k_end - p.k_begin;
}

/* ---- the CTA ---------------------------------------------------------------
 * Shared memory, from a 1024-aligned base:
 *   A boxes   stages x BM x 128 B
 *   B boxes   stages x BN x 128 B
 *   D buffers 2 x 8 KiB, shared by the two warpgroups in turns
 *   full[s], empty[s]            8 bytes each
 * Why 1024: TMA's 128B swizzle XORs a row's 16-byte chunk index with address
 * bits 7..9 (the row within an 8-row, 1024-byte atom), and the wgmma
 * descriptor below says "base offset 0", i.e. "my tile starts an atom".  A
 * box that started elsewhere would be swizzled with a different phase than
 * the one wgmma assumes: no error, just wrong products.
 * The D buffers are the epilogue's alone: the A/B ring is being refilled with
 * the next tile's k-tiles while the epilogue runs, so it cannot double as
 * the output staging area the way it could in a one-tile-per-CTA kernel.
 *
 * `traced` is a constant in each of the two kernels below, so the one every
 * timed launch runs has no trace code in it at all (no timer reads, no
 * calls, no branches in the k loop). */
static __device__ __forceinline__ void gemm_cta(const CUtensorMap *map_a, const CUtensorMap *map_b,
                                                const CUtensorMap *map_d,
                                                __nv_bfloat16 *__restrict__ D, int M, int N,
                                                int K, int stages, gemm_params prm,
                                                trace_ctx tr, int plant_bug, const int traced)
{
    extern __shared__ unsigned char smem_raw[];
    /* Align the shared-window address (the one TMA and wgmma see). */
    const uint32_t raw = smem_u32(smem_raw);
    unsigned char *smem = smem_raw + ((SMEM_ALIGN - (raw & (SMEM_ALIGN - 1))) & (SMEM_ALIGN - 1));
    const uint32_t sA = smem_u32(smem);
    const uint32_t sB = sA + (uint32_t)stages * A_STAGE_BYTES;
    const uint32_t sD = sA + (uint32_t)stages * STAGE_BYTES;
    unsigned char *sD_ptr = smem + (size_t)stages * STAGE_BYTES;
    uint64_t *full = (uint64_t *)(sD_ptr + EPI_BYTES);
    uint64_t *empty = full + stages;

    /* Role tests must be uniform per warp (and per warpgroup for wgmma and
     * setmaxnreg): read the warpgroup index through a shuffle so the
     * compiler knows. */
    const int wg = __shfl_sync(0xffffffffu, (int)threadIdx.x / WG_THREADS, 0);
    const tile_sched sched = prm.sched;
    (void)plant_bug;
    (void)K;   /* the plan carries the k-tile count */

    /* Barrier counts:
     *   full[s]  = 1: one arrival per phase, the producer's arrive.expect_tx.
     *     The data itself is counted in bytes, not arrivals: the phase
     *     completes when that arrival happened AND the tx-count is back to 0,
     *     i.e. every byte the producer announced has landed.  The TMA unit is
     *     not a thread and does not arrive.
     *   empty[s] = 1: a slot now belongs to one tile, so exactly one consumer
     *     warpgroup reads it, and one thread of that warpgroup (its
     *     thread 0) arrives, after the wgmma.wait_group that proved the
     *     warpgroup's wgmmas on the slot have finished reading it.  A wgmma
     *     is one operation of the whole warpgroup, so one thread's wait
     *     covers all four warps.  (fast.cu counts one arrival per consumer
     *     warpgroup too, as CUTLASS's PipelineTmaAsync does with clusters;
     *     its cluster-less path lets every consumer thread arrive.) */
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; ++s) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], 1);
        }
        named_bar_init();
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
         * before any lane is excluded.  Before that all four warps give
         * their registers back (setmaxnreg is per warpgroup).  The thread
         * walks this CTA's tiles and their k-tiles as ONE sequence: the ring
         * does not know where a tile ends. */
        REGS_DEC(PRODUCER_REGS);
        if (threadIdx.x / 32 == 0 && elect_one_sync()) {
            tma_prefetch_map(map_a);
            tma_prefetch_map(map_b);
            pipeline_state w = pipeline_producer_start((uint32_t)stages);
#ifdef COURSE_DEBUG
            if (PLANTED(plant_bug, BUG_PRODUCER_PHASE0)) w.phase = 0;   /* the classic: first acquire never passes */
#endif
            int loads = 0;   /* k-tiles issued by this CTA, for the planted bug and the trace */
            for (sk_walk wk = sk_walk_start(&prm.plan, (int)blockIdx.x); sk_walk_valid(&prm.plan, &wk);
                 sk_walk_next(&prm.plan, &wk)) {
                const sk_work pc = sk_walk_work(&prm.plan, &wk);
                int tm, tn;
                tile_sched_coords(&sched, pc.tile, &tm, &tn);
                const int m0 = tm * BM, n0 = tn * BN;
                for (int kt = pc.k_begin; kt < pc.k_end; ++kt, ++loads) {
                    /* acquire: the slot's previous contents were fully read (WAR). */
                    producer_acquire(empty, w.index, w.phase);
                    SPAN(1, TP_PRODUCER_ACQUIRE, loads);
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
                    if (!(PLANTED(plant_bug, BUG_SKIP_COMMIT) && loads == 1))
#endif
                        mbar_arrive_expect_tx(bar, STAGE_BYTES);
                    /* Coordinates innermost first: {k, row}. */
                    tma_load_2d(sA + w.index * A_STAGE_BYTES, map_a, kt * BK, m0, smem_u32(bar));
                    tma_load_2d(sB + w.index * B_STAGE_BYTES, map_b, kt * BK, n0, smem_u32(bar));
                    SPAN(1, TP_PRODUCER_LOAD, loads);
                    pipeline_advance(&w);
                }
            }
        }
        /* No producer tail needed: without clusters no other CTA arrives on
         * our barriers, and the consumers keep the CTA alive until every
         * byte issued above has landed (they wait for it). */
        return;
    }

    /* ---- consumers -----------------------------------------------------------
     * Warpgroup c (0 or 1) takes pieces c, c+2, c+4 ... of this CTA's walk.
     * Its pipeline states start c pieces into the ring. */
    REGS_INC(CONSUMER_REGS);
    const int c = wg - 1;
    const int tid = (int)threadIdx.x % WG_THREADS;   /* thread in the warpgroup */
    /* The one thread that releases slots and writes trace records.  tid == 0
     * rather than elect_one_sync(): the whole warpgroup reaches every use
     * together (the loop bounds are uniform), so any fixed thread serves, and
     * a constant test costs no instruction.  (elect.sync over a converged
     * warp also picks one fixed lane, lane 0 in practice; the PTX ISA
     * promises only that the choice is deterministic.)  The producer uses
     * elect_one_sync because its other lanes leave right after.  The same
     * thread issues the epilogue's TMA stores. */
    const int writer = tid == 0;
    const int bar_mma = BAR_MMA_WG1 + c, bar_mma_partner = BAR_MMA_WG1 + (c ^ 1);
    const int bar_epi = BAR_EPI_WG1 + c, bar_epi_partner = BAR_EPI_WG1 + (c ^ 1);
    const int bar_store = BAR_STORE_WG1 + c;
    if (writer && prm.use_tma_store) tma_prefetch_map(map_d);

    /* Kick-off: WG 1 goes first.  WG 2 opens WG 1's two barriers once, as
     * if it had just finished a tile before WG 1's first.  (The partner
     * kicks, not WG 1 itself: a warp must not arrive on a barrier and then
     * use the same id again before it completed.) */
    if (c == 1) {
#ifdef COURSE_DEBUG
        if (!PLANTED(plant_bug, BUG_SKIP_NAMED_ARRIVE))
#endif
            named_bar_arrive(BAR_MMA_WG1, PINGPONG_THREADS);
        named_bar_arrive(BAR_EPI_WG1, PINGPONG_THREADS);
    }

    float acc[WG_M_BLOCKS][ACC_REGS];
    const sk_plan *plan = &prm.plan;
    pipeline_state rd = pipeline_consumer_start((uint32_t)stages);   /* slot to read */
    sk_walk wk = sk_walk_start(plan, (int)blockIdx.x);
    if (c == 1) {   /* WG 2 skips WG 1's first piece */
        pipeline_advance_by(&rd, (uint32_t)piece_ktiles(plan, &wk));
        sk_walk_next(plan, &wk);
    }
    pipeline_state rel = rd;                                         /* slot to release */
    int reads = 0;      /* k-tiles consumed by this warpgroup (trace, planted bug) */
    while (sk_walk_valid(plan, &wk)) {
        const sk_work pc = sk_walk_work(plan, &wk);
        int tm, tn;
        tile_sched_coords(&sched, pc.tile, &tm, &tn);
        const int m0 = tm * BM, n0 = tn * BN;

        /* Does the partner have a piece after this one?  If not, it has left
         * (or will): arriving on its barrier would leave an arrive nobody
         * matches, so skip it. */
        sk_walk next = wk;
        sk_walk_next(plan, &next);
        const int partner_next = sk_walk_valid(plan, &next);

        /* My turn on the tensor cores: the partner has issued its last
         * wgmma of the previous tile (or this is WG 1's first tile). */
        named_bar_sync(bar_mma, PINGPONG_THREADS, "pingpong mma");
        for (int kt = pc.k_begin; kt < pc.k_end; ++kt, ++reads) {
            /* wait: the TMA bytes of k-tile kt have landed.  Every consumer
             * thread waits (acquire): the data is then visible to the wgmmas
             * this warpgroup issues, with no proxy fence (TMA writes and wgmma
             * reads are both async-proxy, and complete_tx releases them). */
            consumer_wait(full, rd.index, rd.phase);
            SPAN(writer, TP_CONSUMER_WAIT, reads);

            /* Descriptors of B's BN rows in the slot and, in the loop below, of
             * each m64 block of A; each k16 step moves 32 bytes along the rows. */
            const uint64_t db = wgmma_desc_k_major_sw128(sB + rd.index * B_STAGE_BYTES);
            wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
            wgmma_fence();   /* the previous tile's epilogue read acc before these wgmmas */
            /* scale-d = 0 on a tile's first k16 step: D = A.B overwrites
             * whatever the registers held (the previous tile's results), so
             * no zeroing pass is needed. */
#pragma unroll
            for (int kk = 0; kk < KSTEPS; ++kk)
#pragma unroll
                for (int mb = 0; mb < WG_M_BLOCKS; ++mb) {
                    const uint64_t da = wgmma_desc_k_major_sw128(
                        sA + rd.index * A_STAGE_BYTES + mb * 64 * WGMMA_SW128_ROW_BYTES);
                    wgmma_tile_k16(acc[mb], wgmma_desc_advance(da, kk * WGMMA_K16_BYTES),
                                   wgmma_desc_advance(db, kk * WGMMA_K16_BYTES), kt > pc.k_begin || kk > 0);
                }
            wgmma_commit_group();
            SPAN(writer, TP_CONSUMER_COMPUTE, reads);

            /* release, one k-tile late.  After issuing k-tile kt's group, wait
             * until at most 1 group is pending: k-tile kt-1's wgmmas are then
             * complete, so nothing reads slot (kt-1) any more and it can go back
             * to the producer, while k-tile kt's wgmmas keep the tensor cores
             * busy during the wait for k-tile kt+1.  Releasing slot kt here
             * instead would be a WAR race: its wgmmas may still be reading when
             * TMA overwrites it.  (The alternative, wait_group(0) then release
             * slot kt, is also correct but drains the tensor-core queue every
             * k-tile: README exercise.)  This is why a ring needs >= 2 slots.
             * At a tile's first k-tile the slot to release is the previous
             * tile's last, which the drain below already handed back: nothing
             * to release then. */
            wgmma_wait_group(1);
            wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
            if (kt > pc.k_begin) {
#ifdef COURSE_DEBUG
                if (!(PLANTED(plant_bug, BUG_SKIP_RELEASE) && reads == 1))
#endif
                    if (writer) consumer_release(empty, rel.index);
                pipeline_advance(&rel);
            }
            SPAN(writer, TP_CONSUMER_RELEASE, reads);
            pipeline_advance(&rd);
        }
        /* Every wgmma of this tile is issued: hand the tensor cores over
         * now, before waiting for them to finish, so the partner's first
         * wgmmas queue right behind my last ones. */
        if (partner_next) named_bar_arrive(bar_mma_partner, PINGPONG_THREADS);
        /* Drain: the last k-tile's wgmmas must finish before the accumulators
         * are read (reading them earlier is undefined), then hand its slot back
         * at once, so the producer can refill it during the epilogue. */
        wgmma_wait_group(0);
        wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
        if (writer) consumer_release(empty, rel.index);
        /* Skip the partner's piece: its k-tiles are the next in the ring. */
        pipeline_advance_by(&rd, (uint32_t)piece_ktiles(plan, &next));
        rel = rd;

        /* ---- fixup: outside both turns ------------------------------------
         * The partner already has the tensor cores; a writer stores its
         * partial and an owner waits for and adds the others' before taking
         * the epilogue turn, so neither holds a barrier the partner needs. */
        const int writes = sk_work_writes(plan, &pc);
        if (writes)
            fixup_write_partial(acc, prm.partials + (size_t)blockIdx.x * PARTIAL_F4 * WG_THREADS,
                                &prm.flags[blockIdx.x], prm.epoch, tid, bar_store, plant_bug);
        else if (sk_work_waits(plan, &pc))
            fixup_add_partials(acc, &prm, (int)blockIdx.x, pc.tile, tid, bar_store);
        if (writes || sk_work_waits(plan, &pc)) SPAN(writer, TP_FIXUP, pc.tile);

        /* ---- epilogue: under the partner's mainloop ----------------------
         * A writer has no tile to store but still takes and passes its turn:
         * the turns alternate strictly. */
        named_bar_sync(bar_epi, PINGPONG_THREADS, "pingpong epilogue");
        SPAN(writer, TP_CONSUMER_WAIT, reads);
        if (!writes && prm.use_tma_store) {
            int stores = 0;   /* sub-tiles stored in this turn: picks the D buffer */
            /* Sub-tile j = columns 64j .. 64j+63 = accumulators 32j .. 32j+31
             * (wgmma_acc_col: register i is in column 8(i/4) + ...). */
#pragma unroll
            for (int mb = 0; mb < WG_M_BLOCKS; ++mb)
#pragma unroll
                for (int j = 0; j < EPI_CHUNKS; ++j, ++stores) {
                    const int b = stores % EPI_BUFS;
                    /* WAR on the buffer: the store issued from it two sub-tiles
                     * ago must have finished READING it.  Only the thread that
                     * committed a bulk group can wait for it, so the writer
                     * waits and a barrier tells the other 127 threads. */
                    if (writer) tma_store_wait_read(EPI_BUFS - 1);
                    named_bar_sync(bar_store, WG_THREADS, "epilogue");
                    unsigned char *buf = sD_ptr + b * EPI_SUB_BYTES;
#pragma unroll
                    for (int i = 0; i < EPI_REGS; i += 2) {
                        const int r = EPI_REGS * j + i;
                        const __nv_bfloat162 v = __floats2bfloat162_rn(acc[mb][r], acc[mb][r + 1]);
                        *(__nv_bfloat162 *)(buf + sw128_acc_pair_offset(tid, i)) = v;
                    }
                    /* RAW across proxies: these st.shared are generic-proxy
                     * writes and the TMA store reads through the async proxy.
                     * Each writing thread fences its own writes, then the
                     * barrier gathers them before the one thread stores. */
                    fence_proxy_async_smem();
                    named_bar_sync(bar_store, WG_THREADS, "epilogue");
                    if (writer) {
                        tma_store_2d(map_d, n0 + EPI_COLS * j, m0 + 64 * mb, sD + b * EPI_SUB_BYTES);
                        tma_store_commit_group();
                    }
                }
            /* Hand the buffers over only once my stores have read them:
             * the partner's first st.shared would otherwise race the TMA
             * unit.  Only the committing thread can wait. */
            if (writer) tma_store_wait_read(0);
        } else if (!writes) {
            /* N % 8 != 0: D's rows are not 16-byte aligned, which a tensor map
             * requires; write straight from the registers, masked. */
#pragma unroll
            for (int mb = 0; mb < WG_M_BLOCKS; ++mb)
#pragma unroll
                for (int i = 0; i < ACC_REGS; i += 2)
                    gemm_store_pair(D, M, N, m0 + 64 * mb + wgmma_acc_row(tid, i),
                                    n0 + wgmma_acc_col(tid, i), acc[mb][i], acc[mb][i + 1]);
        }
        if (partner_next) named_bar_arrive(bar_epi_partner, PINGPONG_THREADS);
        SPAN(writer, TP_EPILOGUE, pc.tile);
        /* My next piece is the one after the partner's. */
        wk = next;
        sk_walk_next(plan, &wk);
    }
    /* The last stores must have read shared memory before the CTA exits and
     * its shared memory goes to another CTA (and written D before the kernel
     * counts as done). */
    if (writer && prm.use_tma_store) tma_store_wait_all();
#undef SPAN
}

/* Tensor maps by value, as __grid_constant__ parameters: the kernel then
 * takes their address in parameter space, which TMA accepts.  A plain
 * by-value parameter would be copied to local memory, which it does not. */
__global__ void __launch_bounds__(THREADS, 1)
stream_k_kernel(const __grid_constant__ CUtensorMap map_a,
                const __grid_constant__ CUtensorMap map_b,
                const __grid_constant__ CUtensorMap map_d, __nv_bfloat16 *__restrict__ D, int M,
                int N, int K, int stages, gemm_params prm, trace_ctx tr, int plant_bug)
{
    gemm_cta(&map_a, &map_b, &map_d, D, M, N, K, stages, prm, tr, plant_bug, 0);
}

/* The traced copy is a separate kernel rather than a branch inside one, so
 * the timed kernel's code and register allocation are untouched by tracing.
 * Its trace calls sit between wgmma issue and wait.  ptxas keeps the wgmmas
 * asynchronous across these (no C7510 message for this kernel), but not
 * across every call: in the DEBUG build, the bounded wait's call to
 * report_hang (which reaches printf) gets them serialized, with C7510
 * "wgmma pipeline crossing function boundary".  Check -Xptxas -v. */
__global__ void __launch_bounds__(THREADS, 1)
stream_k_kernel_traced(const __grid_constant__ CUtensorMap map_a,
                       const __grid_constant__ CUtensorMap map_b,
                       const __grid_constant__ CUtensorMap map_d, __nv_bfloat16 *__restrict__ D,
                       int M, int N, int K, int stages, gemm_params prm, trace_ctx tr,
                       int plant_bug)
{
    gemm_cta(&map_a, &map_b, &map_d, D, M, N, K, stages, prm, tr, plant_bug, 1);
}

/* ---- host ------------------------------------------------------------------- */

/* What prepare builds once per buffer set: three tensor maps and the walk.  Heap
 * memory, 128-byte aligned (the driver wants a 64-byte aligned map). */
typedef struct {
    CUtensorMap a, b, d;
    gemm_params prm;
    int grid;
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
    memset(p, 0, sizeof *p);
    /* A[M][K]: boxes of 64 k x BM rows.  B[N][K]: 64 k x BN rows.  Both
     * SWIZZLE_128B: the layout wgmma_desc_k_major_sw128 describes. */
    const tma_2d_desc da = tma_2d_bf16_row_major(op->a, (uint64_t)op->m, (uint64_t)op->k, BM, BK,
                                                 TMA_SWIZZLE_128B);
    const tma_2d_desc db = tma_2d_bf16_row_major(op->b, (uint64_t)op->n, (uint64_t)op->k, BN, BK,
                                                 TMA_SWIZZLE_128B);
    encode_or_exit(&p->a, &da, "A");
    encode_or_exit(&p->b, &db, "B");
    /* D: 64 x 64 store boxes in the same 128B swizzle the epilogue writes.
     * A tensor map needs 16-byte row strides: N % 8 == 0.  Otherwise the
     * epilogue stores from registers and map d stays unused (zeros). */
    p->prm.use_tma_store = op->n % 8 == 0;
    if (p->prm.use_tma_store) {
        const tma_2d_desc dd = tma_2d_bf16_row_major(op->d, (uint64_t)op->m, (uint64_t)op->n,
                                                     EPI_ROWS, EPI_COLS, TMA_SWIZZLE_128B);
        encode_or_exit(&p->d, &dd, "D");
    }
    const int tiles_m = (op->m + BM - 1) / BM, tiles_n = (op->n + BN - 1) / BN;
    /* The tiles whose loads run at the same time are still one per SM: a
     * CTA's two warpgroups take their tiles' k-tiles one after the other. */
    const int along_n = tile_sched_pick_along_n(tiles_m, tiles_n, BM, BN, op->group, op->num_sms);
    p->prm.sched = tile_sched_make(op->m, op->n, BM, BN, op->group, along_n);
    /* One CTA per SM (a unit of the stream-K plan), or fewer when there is
     * less work; the plan says how many and which tiles are streamed. */
    static_assert((int)GEMM_MODE_DP == (int)SK_MODE_DP && (int)GEMM_MODE_SK == (int)SK_MODE_SK,
                  "--mode values are the scheduler's");
    p->prm.plan = sk_plan_make(p->prm.sched.num_tiles, (op->k + BK - 1) / BK, op->num_sms, op->mode);
    p->grid = p->prm.plan.units;
    /* The CSV's mode column: what ran, auto's choice resolved. */
    op->report->mode = p->prm.plan.sk_tiles == 0 ? "dp" : op->mode == GEMM_MODE_SK ? "sk" : "sk_l2";
    /* Workspace: a partial tile and a flag per CTA, zeroed once (the flags
     * hold launch numbers, never reset: fixup.cuh).  None when nothing is
     * streamed. */
    const size_t ws = p->prm.plan.sk_tiles ? (size_t)p->grid * (PARTIAL_BYTES + sizeof(uint32_t)) : 0;
    if (ws) {
        CUDA_CHECK(cudaMalloc((void **)&p->prm.partials, ws));
        CUDA_CHECK(cudaMemset(p->prm.partials, 0, ws));
        p->prm.flags = (uint32_t *)((char *)p->prm.partials + (size_t)p->grid * PARTIAL_BYTES);
    }
    static int told = 0;   /* once per run, not per rotation set */
    if (!told++)
        printf("stream-K plan: %d tiles x %d k-tiles on %d CTAs: %d streamed (%d-%d k-tiles per CTA), "
               "%d data-parallel; workspace %zu bytes\n",
               p->prm.plan.tiles, p->prm.plan.kt, p->grid, p->prm.plan.sk_tiles, p->prm.plan.sk_base,
               p->prm.plan.sk_base + (p->prm.plan.sk_extra > 0), p->prm.plan.tiles - p->prm.plan.sk_tiles,
               ws);
    return p;
}

static void release_plan(void *plan)
{
    gemm_plan *p = (gemm_plan *)plan;
    if (p->prm.partials) CUDA_CHECK(cudaFree(p->prm.partials));
    free(plan);
}

/* The whole dynamic shared memory: ring, epilogue buffers, barriers, alignment slack. */
static size_t ring_bytes(int stages) { return (size_t)SMEM_BYTES(stages); }

static void launch_gemm(const gemm_operands *op, cudaStream_t stream)
{
    /* Above 48 KiB of dynamic shared memory a kernel must opt in.  Done once,
     * for the largest ring this device holds, so the timed loop does not pay
     * for it; a ring the device cannot hold is refused here, by name. */
    static int opted_in = 0;
    if (!opted_in) {
        const int fit = smem_stages_that_fit(op->smem_optin, SMEM_PER_STAGE, EPI_BYTES, SMEM_ALIGN, 8);
        gemm_require_stages(op, STEP_ID, MIN_STAGES, fit, ring_bytes);
        CUDA_CHECK(cudaFuncSetAttribute(stream_k_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        SMEM_BYTES(fit)));
        CUDA_CHECK(cudaFuncSetAttribute(stream_k_kernel_traced,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        SMEM_BYTES(fit)));
        opted_in = 1;
    }
    gemm_plan *p = (gemm_plan *)op->plan;
    ++p->prm.epoch;   /* this launch's flags: no memset between launches */
    /* Cooperative: the launch fails rather than start with a CTA that is
     * not resident, whose partial a resident owner would wait for forever. */
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)p->grid);
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = SMEM_BYTES(op->stages);
    cfg.stream = stream;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    CUDA_CHECK(cudaLaunchKernelEx(&cfg, TRACE_ON(op->trace) ? stream_k_kernel_traced : stream_k_kernel,
                                  p->a, p->b, p->d, op->d, op->m, op->n, op->k, op->stages, p->prm,
                                  op->trace, op->plant_bug));
    CUDA_CHECK_LAUNCH();
}

int main(int argc, char **argv)
{
    static const gemm_step step = {
        STEP_ID, "stream_k",
        "stream-K GEMM: the partial wave's k-tiles split evenly over the SMs, partial tiles "
        "finished by a fixup through global memory; pingpong consumers, cooperative launch (" VARIANT ")",
        VARIANT, MIN_STAGES, MAX_STAGES, DEFAULT_STAGES,
        {9, 0, 1, "wgmma, setmaxnreg and TMA need an sm_90a (Hopper H100/H200) GPU"},
        prepare_plan, release_plan, launch_gemm, 1 + CONSUMER_WGS, "warpgroup", 1, 1};
    return gemm_main(argc, argv, &step);
}
