/* proto08.cu — PROTOTYPE for measurements only (step08 NOTES.md): step 07's
 * kernel (git 8b2908b) plus clusters of CLUSTER CTAs sharing one operand by TMA
 * multicast, and a run-time walk order (PROTO_ORDER) for the placement
 * experiments.  Not the lesson: step08_cluster_multicast/kernel.cu is.
 * Built by proto08.sh against common/ as of that revision (git 8b2908b):
 * check it out to rebuild it; later common/ headers no longer match. */
/* step07_pingpong — two consumer warpgroups that each own a whole tile and
 * take turns on the tensor cores: one runs its mainloop while the other runs
 * its epilogue.
 *
 *   D[M x N] = A[M x K] . B[N x K]^T    bf16 in, fp32 accumulate, bf16 out
 *
 * Concept.  In step 06 both consumer warpgroups worked on the same tile, so
 * both stopped for its epilogue at the same time and the tensor cores
 * waited.  Here the CTA's tiles alternate between the warpgroups (WG 1 takes
 * tiles 0, 2, 4 ... of the CTA's walk, WG 2 takes 1, 3, 5 ...), and two pairs
 * of named barriers keep them in step:
 *
 *   "mma" pair   only one warpgroup issues wgmmas at a time, in tile order:
 *                WG c waits on its own barrier before its mainloop and
 *                arrives on its partner's after issuing its last k-tile;
 *   "epi" pair   the epilogues, which share one staging buffer, also take
 *                turns in tile order.
 *
 *   time ->      tile 0            tile 1            tile 2
 *   WG 1   [==== mainloop ====][epi]..............[==== mainloop ====][epi]
 *   WG 2   ....................[==== mainloop ====][epi]...............
 *   tensor cores busy all along; each epilogue hides under the other's MMA
 *
 * The producer still loads every tile of the walk in order; WG 2's pipeline
 * read state therefore starts KT k-tiles in (it skips WG 1's first tile) and
 * each warpgroup skips its partner's KT k-tiles after every tile.
 *
 * What changed from step 06 (cooperative: two warpgroups, one tile):
 *
 *   step 06                               step 07
 *   ------------------------------------  ---------------------------------------
 *   tile 128 x 256, 64 rows per WG        tile 128 x 128 per warpgroup: two
 *                                         m64n128 accumulators (tile shape below)
 *   both WGs walk every tile              WG c takes every other tile:
 *                                         tile_walk_advance(c), then (2)
 *   read state: every k-tile              read state: skips the partner's KT
 *                                         (pipeline_advance_by)
 *   empty[s] count 2 (both WGs read)      empty[s] count 1 (one WG reads a slot)
 *   no ordering between WGs needed        named barriers "mma" and "epi" order
 *                                         the WGs (ids in an enum, never 0)
 *   epilogue buffers per WG               one buffer pair shared, in turns
 *
 * Build and run (sm_90a only):
 *   make step07
 *   ./build/step07_pingpong --m 4096 --n 4096 --k 4096
 *   ./build/step07_pingpong --m 4096 --n 4096 --k 4096 --trace /tmp/t07.csv
 *   make step07 BUILD=build/v NVCC_EXTRA="-DWG_M_BLOCKS=1 -DBN=256"   (64 x 256: exercise)
 *   make diff STEP=07
 */
#include <cuda.h>
#include <stdlib.h>

#include "cluster.cuh"

#include "gemm.cuh"
#include "mbarrier.cuh"
#include "named_barrier.cuh"
#include "pipeline_state.h"
#include "epilogue.cuh"
#include "regs.cuh"
#include "str.h"
#include "persistent_schedule.h"
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
#ifndef CLUSTER
#define CLUSTER 2          /* CTAs per cluster: 1 or 2 */
#endif
#ifndef MCAST_A
#define MCAST_A 0          /* 0: the pair shares B (tiles stacked along M); 1: shares A (along N) */
#endif
#ifndef REL_CLUSTER
#define REL_CLUSTER 0      /* 1: remote release with .release.cluster */
#endif
#define WG_THREADS 128                          /* 4 warps: one warpgroup */
#define BM (64 * WG_M_BLOCKS)                   /* rows of one warpgroup's tile */
#define BK 64                                   /* 64 bf16 = one 128-byte swizzled row */
#define THREADS (WG_THREADS * (1 + CONSUMER_WGS))   /* 384: producer WG + consumers */
#define KSTEPS (BK / 16)                        /* 4 wgmma k16 steps per k-tile */
#define ACC_REGS (BN / 2)                       /* fp32 accumulators per m64 block */
#define A_STAGE_BYTES (BM * BK * 2)             /* the A box, BM rows x 128 B (bf16) */
#define B_STAGE_BYTES (BN * BK * 2)             /* the B box, BN rows x 128 B */
#define STAGE_BYTES (A_STAGE_BYTES + B_STAGE_BYTES)   /* also the expect_tx count */
#define A_LOAD_ROWS (MCAST_A ? BM / CLUSTER : BM)
#define B_LOAD_ROWS (MCAST_A ? BN : BN / CLUSTER)
#define A_LOAD_BYTES (A_LOAD_ROWS * BK * 2)
#define B_LOAD_BYTES (B_LOAD_ROWS * BK * 2)
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
#define STEP_ID "08p"                           /* the step's number, in messages too */
#if WG_M_BLOCKS == 1
#define BM_TEXT "64"                            /* STR(BM) would spell "(64 * 1)" */
#else
#define BM_TEXT "128"
#endif
#define VARIANT BM_TEXT "x" STR(BN) "x64_proto_c" STR(CLUSTER) "_mcA" STR(MCAST_A)

static_assert(A_STAGE_BYTES % SMEM_ALIGN == 0 && B_STAGE_BYTES % SMEM_ALIGN == 0,
              "every A and B box must start on a 1024-byte swizzle atom");
static_assert(BK * 2 == WGMMA_SW128_ROW_BYTES, "a k-tile row must be one 128-byte swizzle row");
static_assert(EPI_SUB_BYTES % SMEM_ALIGN == 0, "every D buffer must start on a swizzle atom");
static_assert(EPI_COLS * 2 == WGMMA_SW128_ROW_BYTES, "an epilogue row must be one swizzle row");
static_assert(STAGE_BYTES < (1 << 20), "an mbarrier's tx-count holds at most 2^20 - 1 bytes");

/* What the kernel needs to know about the tile walk. */
typedef struct {
    tile_sched sched;
    const int *walk_start;   /* NULL: cluster id; else start index per cluster (placement experiments) */
    int use_tma_store;     /* 1: N % 8 == 0 (16-byte D rows), 0: masked global stores */
} gemm_params;

static __device__ __forceinline__ void release_slot(uint64_t *empty, uint32_t slot, uint32_t rank)
{
    consumer_release(empty, slot);
    if (CLUSTER > 1) {
#if REL_CLUSTER
        mbar_arrive_release_cluster(&empty[slot], rank ^ 1u);
#else
        mbar_arrive_cluster(&empty[slot], rank ^ 1u);
#endif
    }
}

static __device__ __forceinline__ void proto_coords(const tile_sched *s, int idx, uint32_t rank, int *tm, int *tn)
{
    int cm, cn;
    tile_sched_coords(s, idx, &cm, &cn);
    if (MCAST_A) { *tm = cm; *tn = cn * CLUSTER + (int)rank; }
    else         { *tm = cm * CLUSTER + (int)rank; *tn = cn; }
}

static __device__ __forceinline__ int proto_walk_first(const gemm_params *p)
{
    const int c = (int)(blockIdx.x / CLUSTER);
    return p->walk_start ? p->walk_start[c] : c;
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
    const int KT = (K + BK - 1) / BK;   /* k-tiles; the last may be partial (zero-filled) */
    (void)plant_bug;

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
            mbar_init(&empty[s], CLUSTER);
        }
        named_bar_init();
        mbar_fence_init();
    }
    const uint32_t rank = CLUSTER > 1 ? cluster_ctarank() : 0;
    if (CLUSTER > 1) cluster_sync();
    else __syncthreads();   /* nobody waits on, arrives at or TMA-signals an uninitialized barrier */

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
            for (tile_walk tw = tile_walk_start(proto_walk_first(&prm), (int)gridDim.x / CLUSTER);
                 tile_walk_valid(&sched, &tw); tile_walk_advance(&tw, 1)) {
                int tm, tn;
                proto_coords(&sched, tw.idx, rank, &tm, &tn);
                const int m0 = tm * BM, n0 = tn * BN;
                for (int kt = 0; kt < KT; ++kt, ++loads) {
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
                    if (CLUSTER == 1) {
                        tma_load_2d(sA + w.index * A_STAGE_BYTES, map_a, kt * BK, m0, smem_u32(bar));
                        tma_load_2d(sB + w.index * B_STAGE_BYTES, map_b, kt * BK, n0, smem_u32(bar));
                    } else if (MCAST_A) {
                        /* the pair's tiles share m0 (cluster along N): half of A each */
                        tma_load_2d_multicast(sA + w.index * A_STAGE_BYTES + rank * A_LOAD_BYTES, map_a,
                                              kt * BK, m0 + (int)rank * A_LOAD_ROWS, smem_u32(bar), 3);
                        tma_load_2d(sB + w.index * B_STAGE_BYTES, map_b, kt * BK, n0, smem_u32(bar));
                    } else {
                        tma_load_2d(sA + w.index * A_STAGE_BYTES, map_a, kt * BK, m0, smem_u32(bar));
                        tma_load_2d_multicast(sB + w.index * B_STAGE_BYTES + rank * B_LOAD_BYTES, map_b,
                                              kt * BK, n0 + (int)rank * B_LOAD_ROWS, smem_u32(bar), 3);
                    }
                    SPAN(1, TP_PRODUCER_LOAD, loads);
                    pipeline_advance(&w);
                }
            }
            /* producer tail: every slot released by both CTAs' consumers, so
             * no remote arrive or multicast into this CTA is still to come */
            if (CLUSTER > 1)
                for (int s = 0; s < stages; ++s) {
                    producer_acquire(empty, w.index, w.phase);
                    pipeline_advance(&w);
                }
        }
        return;
    }

    /* ---- consumers -----------------------------------------------------------
     * Warpgroup c (0 or 1) takes tiles c, c+2, c+4 ... of this CTA's walk.
     * Its pipeline states start c tiles (c * KT k-tiles) into the ring. */
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
    pipeline_state rd = pipeline_consumer_start((uint32_t)stages);   /* slot to read */
    pipeline_advance_by(&rd, (uint32_t)(c * KT));   /* WG 2 skips WG 1's first tile */
    pipeline_state rel = rd;                                         /* slot to release */
    int reads = 0;      /* k-tiles consumed by this warpgroup (trace, planted bug) */
    tile_walk tw = tile_walk_start(proto_walk_first(&prm), (int)gridDim.x / CLUSTER);
    tile_walk_advance(&tw, c);
    for (; tile_walk_valid(&sched, &tw); tile_walk_advance(&tw, CONSUMER_WGS)) {
        int tm, tn;
        proto_coords(&sched, tw.idx, rank, &tm, &tn);
        const int m0 = tm * BM, n0 = tn * BN;

        /* Does the partner have a tile after this one?  If not, it has left
         * (or will): arriving on its barrier would leave an arrive nobody
         * matches, so skip it. */
        tile_walk next = tw;
        tile_walk_advance(&next, 1);
        const int partner_next = tile_walk_valid(&sched, &next);

        /* My turn on the tensor cores: the partner has issued its last
         * wgmma of the previous tile (or this is WG 1's first tile). */
        named_bar_sync(bar_mma, PINGPONG_THREADS, "pingpong mma");
        for (int kt = 0; kt < KT; ++kt, ++reads) {
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
                                   wgmma_desc_advance(db, kk * WGMMA_K16_BYTES), kt > 0 || kk > 0);
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
            if (kt > 0) {
#ifdef COURSE_DEBUG
                if (!(PLANTED(plant_bug, BUG_SKIP_RELEASE) && reads == 1))
#endif
                    if (writer) release_slot(empty, rel.index, rank);
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
        if (writer) release_slot(empty, rel.index, rank);
        /* Skip the partner's tile: its KT k-tiles are the next in the ring. */
        pipeline_advance_by(&rd, (uint32_t)KT);
        rel = rd;

        /* ---- epilogue: under the partner's mainloop ---------------------- */
        named_bar_sync(bar_epi, PINGPONG_THREADS, "pingpong epilogue");
        SPAN(writer, TP_CONSUMER_WAIT, reads);
        if (prm.use_tma_store) {
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
        } else {
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
        SPAN(writer, TP_EPILOGUE, tw.idx);
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
pingpong_kernel(const __grid_constant__ CUtensorMap map_a,
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
pingpong_kernel_traced(const __grid_constant__ CUtensorMap map_a,
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

static size_t ring_bytes_fn(int stages) { return (size_t)SMEM_BYTES(stages); }

/* Placement probe: the SM of every CTA for a launch like the GEMM's. */
__global__ void __launch_bounds__(THREADS, 1) where_kernel(int *smid)
{
    if (threadIdx.x == 0) smid[blockIdx.x] = (int)sm_id();
}

static int use_cluster_launch(void)
{
    const char *e = getenv("PROTO_LAUNCH");
    return CLUSTER > 1 || (e && !strcmp(e, "cluster"));
}

static cudaLaunchConfig_t launch_config(int grid, size_t smem, cudaStream_t stream, cudaLaunchAttribute *attr)
{
    const char *pol = getenv("PROTO_POLICY");   /* "lb": cluster scheduling policy LoadBalancing */
    cudaLaunchConfig_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDim = dim3((unsigned)grid, 1, 1);
    cfg.blockDim = dim3(THREADS, 1, 1);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = stream;
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = CLUSTER;
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    if (pol && !strcmp(pol, "lb")) {
        attr[1].id = cudaLaunchAttributeClusterSchedulingPolicyPreference;
        attr[1].val.clusterSchedulingPolicyPreference = cudaClusterSchedulingPolicyLoadBalancing;
        cfg.numAttrs = 2;
    }
    return cfg;
}

static void opt_in_once(const gemm_operands *op)
{
    static int opted_in = 0;
    if (opted_in) return;
    const int fit = smem_stages_that_fit(op->smem_optin, SMEM_PER_STAGE, EPI_BYTES, SMEM_ALIGN, 8);
    gemm_require_stages(op, STEP_ID, MIN_STAGES, fit, ring_bytes_fn);
    CUDA_CHECK(cudaFuncSetAttribute(pingpong_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES(fit)));
    CUDA_CHECK(cudaFuncSetAttribute(pingpong_kernel_traced, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES(fit)));
    CUDA_CHECK(cudaFuncSetAttribute(where_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES(fit)));
    opted_in = 1;
}

/* smid of each CTA for a grid launched like the GEMM (plain or cluster). */
static void placement_of(int grid, size_t smem, int cluster_launch, int *out)
{
    int *d;
    CUDA_CHECK(cudaMalloc(&d, grid * sizeof(int)));
    if (cluster_launch) {
        cudaLaunchAttribute attr[2];
        const cudaLaunchConfig_t cfg = launch_config(grid, smem, 0, attr);
        CUDA_CHECK(cudaLaunchKernelEx(&cfg, where_kernel, d));
    } else {
        where_kernel<<<grid, THREADS, smem>>>(d);
    }
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(out, d, grid * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d));
}

static void *prepare_plan(const gemm_operands *op)
{
    gemm_plan *p = (gemm_plan *)aligned_alloc(128, sizeof(gemm_plan));
    if (!p) exit(EXIT_WRONG);
    memset(p, 0, sizeof *p);
    opt_in_once(op);
    const tma_2d_desc da = tma_2d_bf16_row_major(op->a, (uint64_t)op->m, (uint64_t)op->k, A_LOAD_ROWS, BK,
                                                 TMA_SWIZZLE_128B);
    const tma_2d_desc db = tma_2d_bf16_row_major(op->b, (uint64_t)op->n, (uint64_t)op->k, B_LOAD_ROWS, BK,
                                                 TMA_SWIZZLE_128B);
    encode_or_exit(&p->a, &da, "A");
    encode_or_exit(&p->b, &db, "B");
    p->prm.use_tma_store = op->n % 8 == 0;
    if (p->prm.use_tma_store) {
        const tma_2d_desc dd = tma_2d_bf16_row_major(op->d, (uint64_t)op->m, (uint64_t)op->n,
                                                     EPI_ROWS, EPI_COLS, TMA_SWIZZLE_128B);
        encode_or_exit(&p->d, &dd, "D");
    }
    const size_t smem = SMEM_BYTES(op->stages);
    int max_clusters = op->num_sms;
    if (use_cluster_launch()) {
        cudaLaunchAttribute attr[2];
        cudaLaunchConfig_t cfg = launch_config(op->num_sms, smem, 0, attr);
        CUDA_CHECK(cudaOccupancyMaxActiveClusters(&max_clusters, (void *)pingpong_kernel, &cfg));
    }
    const int ctm = MCAST_A ? BM : CLUSTER * BM, ctn = MCAST_A ? CLUSTER * BN : BN;
    const int tiles_m = (op->m + ctm - 1) / ctm, tiles_n = (op->n + ctn - 1) / ctn;
    const char *al = getenv("PROTO_ALONG");   /* "n" / "m" / unset: the course's pick */
    const int along_n = al ? al[0] == 'n' : tile_sched_pick_along_n(tiles_m, tiles_n, ctm, ctn, op->group, max_clusters);
    p->prm.sched = tile_sched_make(op->m, op->n, ctm, ctn, op->group, along_n);
    const int clusters = p->prm.sched.num_tiles < max_clusters ? p->prm.sched.num_tiles : max_clusters;
    p->grid = clusters * CLUSTER;
    /* walk order experiments */
    const char *order = getenv("PROTO_ORDER");
    int *start = (int *)malloc(clusters * sizeof(int));
    for (int c = 0; c < clusters; ++c) start[c] = c;
    if (order && strcmp(order, "id")) {
        int *sm = (int *)malloc(p->grid * sizeof(int));
        placement_of(p->grid, smem, use_cluster_launch(), sm);
        if (!strcmp(order, "plain")) {
            /* clusters ranked by where a plain launch (which fills one GPC
             * after another) puts the SM of their rank 0 */
            int *plain = (int *)malloc(op->num_sms * sizeof(int)), pos[1024];
            placement_of(op->num_sms, smem, 0, plain);
            for (int i = 0; i < 1024; ++i) pos[i] = 1 << 20;
            for (int b = 0; b < op->num_sms; ++b) pos[plain[b]] = b;
            for (int c = 0; c < clusters; ++c) {
                int r = 0;
                for (int o = 0; o < clusters; ++o) {
                    const int ko = pos[sm[o * CLUSTER]], kc = pos[sm[c * CLUSTER]];
                    r += ko < kc || (ko == kc && o < c);
                }
                start[c] = r;
            }
            free(plain);
        } else if (!strcmp(order, "smid")) {
            /* clusters ranked by the SM of their rank 0 */
            for (int c = 0; c < clusters; ++c) {
                int r = 0;
                for (int o = 0; o < clusters; ++o) r += sm[o * CLUSTER] < sm[c * CLUSTER];
                start[c] = r;
            }
        }
        free(sm);
        int ok = 1, seen[1024] = {0};
        for (int c = 0; c < clusters; ++c) ok &= start[c] >= 0 && start[c] < clusters && !seen[start[c]]++;
        if (!ok) { fprintf(stderr, "proto: order %s is not a permutation\n", order); exit(1); }
        int *d;
        CUDA_CHECK(cudaMalloc(&d, clusters * sizeof(int)));
        CUDA_CHECK(cudaMemcpy(d, start, clusters * sizeof(int), cudaMemcpyHostToDevice));
        p->prm.walk_start = d;
    }
    free(start);
    static int told = 0;
    if (!told++)
        fprintf(stderr, "proto: %s launch, %d CTAs = %d clusters of %d (max %d), %dx%d cluster tiles along_%s, group %d, order %s\n",
                use_cluster_launch() ? "cluster" : "plain", p->grid, clusters, CLUSTER, max_clusters,
                tiles_m, tiles_n, along_n ? "n" : "m", op->group, order ? order : "id");
    return p;
}

static void release_plan(void *plan)
{
    gemm_plan *p = (gemm_plan *)plan;
    if (p->prm.walk_start) cudaFree((void *)p->prm.walk_start);
    free(plan);
}

static void launch_gemm(const gemm_operands *op, cudaStream_t stream)
{
    const gemm_plan *p = (const gemm_plan *)op->plan;
    const size_t smem = SMEM_BYTES(op->stages);
    if (use_cluster_launch()) {
        cudaLaunchAttribute attr[2];
        const cudaLaunchConfig_t cfg = launch_config(p->grid, smem, stream, attr);
        if (TRACE_ON(op->trace)) {
            trace_ctx tr = op->trace;
            tr.cta_b = 1;   /* both CTAs of cluster 0 */
            CUDA_CHECK(cudaLaunchKernelEx(&cfg, pingpong_kernel_traced, p->a, p->b, p->d, op->d, op->m, op->n,
                                          op->k, op->stages, p->prm, tr, op->plant_bug));
        } else
            CUDA_CHECK(cudaLaunchKernelEx(&cfg, pingpong_kernel, p->a, p->b, p->d, op->d, op->m, op->n,
                                          op->k, op->stages, p->prm, op->trace, op->plant_bug));
    } else if (TRACE_ON(op->trace))
        pingpong_kernel_traced<<<p->grid, THREADS, smem, stream>>>(
            p->a, p->b, p->d, op->d, op->m, op->n, op->k, op->stages, p->prm, op->trace, op->plant_bug);
    else
        pingpong_kernel<<<p->grid, THREADS, smem, stream>>>(
            p->a, p->b, p->d, op->d, op->m, op->n, op->k, op->stages, p->prm, op->trace, op->plant_bug);
    CUDA_CHECK_LAUNCH();
}

int main(int argc, char **argv)
{
    static const gemm_step step = {
        STEP_ID, "pingpong",
        "pingpong GEMM: two consumer warpgroups, a tile each, take turns on the tensor cores "
        "(named barriers); persistent, setmaxnreg 40/232, TMA-store epilogue (" VARIANT ")",
        VARIANT, MIN_STAGES, MAX_STAGES, DEFAULT_STAGES,
        {9, 0, 1, "wgmma, setmaxnreg and TMA need an sm_90a (Hopper H100/H200) GPU"},
        prepare_plan, release_plan, launch_gemm, 1 + CONSUMER_WGS, "warpgroup", 1};
    return gemm_main(argc, argv, &step);
}
