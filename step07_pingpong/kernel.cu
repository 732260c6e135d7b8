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

#include "epilogue.cuh"
#include "gemm.cuh"
#include "mbarrier.cuh"
#include "named_barrier.cuh"
#include "pipeline_state.h"
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
#define WG_THREADS 128
#define BM (64 * WG_M_BLOCKS)                   /* rows of one warpgroup's tile */
#define BK 64                                   /* 64 bf16 = one 128-byte swizzled row */
#define THREADS (WG_THREADS * (1 + CONSUMER_WGS))   /* 384: producer WG + two consumers */
#define KSTEPS (BK / 16)                        /* 4 wgmma k16 steps per k-tile */
#define ACC_REGS (BN / 2)                       /* fp32 accumulators per m64 block */
#define A_STAGE_BYTES (BM * BK * 2)             /* the A box, BM rows x 128 B */
#define B_STAGE_BYTES (BN * BK * 2)             /* the B box, BN rows x 128 B */
#define STAGE_BYTES (A_STAGE_BYTES + B_STAGE_BYTES)   /* also the expect_tx count */
#define SMEM_ALIGN 1024                         /* SWIZZLE_128B atom: 8 rows x 128 B */
#define VARIANT STR(BM) "x" STR(BN) "x64_pingpong"
#if BN == 128
#define wgmma_tile_k16 wgmma_m64n128k16_bf16
#elif BN == 192
#define wgmma_tile_k16 wgmma_m64n192k16_bf16
#elif BN == 256
#define wgmma_tile_k16 wgmma_m64n256k16_bf16
#else
#error "BN must be 128, 192 or 256 (a wgmma wrapper in wgmma.cuh)"
#endif

/* ---- register split (step 06's) ------------------------------------------------
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

/* ---- the epilogue's shared memory ---------------------------------------------
 * 64 x 64 sub-tiles as in step 06, two buffers, but ONE pair for both
 * warpgroups: their epilogues take turns anyway (the "epi" barriers), and
 * the 16 KiB saved buy the ring another stage. */
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

/* ---- stages from the shared-memory budget (step 06) -------------------------- */
#define SMEM_FIXED (SMEM_ALIGN + EPI_BYTES)
#define SMEM_PER_STAGE (STAGE_BYTES + 2 * 8)
#define SMEM_BYTES(S) (SMEM_FIXED + (S) * SMEM_PER_STAGE)
#define H100_SMEM_OPTIN (227 * 1024)            /* compile-time default; checked at run time */
#define MIN_STAGES 2
#define MAX_STAGES smem_stages_that_fit(H100_SMEM_OPTIN, SMEM_PER_STAGE, EPI_BYTES, SMEM_ALIGN, 8)
#define DEFAULT_STAGES MAX_STAGES

static_assert(A_STAGE_BYTES % SMEM_ALIGN == 0 && B_STAGE_BYTES % SMEM_ALIGN == 0 &&
                  EPI_SUB_BYTES % SMEM_ALIGN == 0,
              "every box must start on a 1024-byte swizzle atom");
static_assert(BK * 2 == WGMMA_SW128_ROW_BYTES && EPI_COLS * 2 == WGMMA_SW128_ROW_BYTES,
              "k-tile rows and epilogue rows must be one 128-byte swizzle row");
static_assert(STAGE_BYTES < (1 << 20), "an mbarrier's tx-count holds at most 2^20 - 1 bytes");

/* What the kernel needs to know about the tile walk. */
typedef struct {
    tile_sched sched;
    int use_tma_store;     /* 1: N % 8 == 0 (16-byte D rows), 0: masked global stores */
} step07_params;

/* ---- the CTA ---------------------------------------------------------------
 * Shared memory, from a 1024-aligned base:
 *   A boxes   stages x BM x 128 B
 *   B boxes   stages x BN x 128 B
 *   D buffers 2 x 8 KiB, shared by the two warpgroups in turns
 *   full[s], empty[s]            8 bytes each
 *
 * `traced` is a constant in each of the two kernels below. */
static __device__ __forceinline__ void gemm_cta(const CUtensorMap *map_a, const CUtensorMap *map_b,
                                                const CUtensorMap *map_d,
                                                __nv_bfloat16 *__restrict__ D, int M, int N,
                                                int K, int stages, step07_params prm,
                                                trace_ctx tr, int plant_bug, const int traced)
{
    extern __shared__ unsigned char smem_raw[];
    const uint32_t raw = smem_u32(smem_raw);
    unsigned char *smem = smem_raw + ((SMEM_ALIGN - (raw & (SMEM_ALIGN - 1))) & (SMEM_ALIGN - 1));
    const uint32_t sA = smem_u32(smem);
    const uint32_t sB = sA + (uint32_t)stages * A_STAGE_BYTES;
    const uint32_t sD = sA + (uint32_t)stages * STAGE_BYTES;
    unsigned char *sD_ptr = smem + (size_t)stages * STAGE_BYTES;
    uint64_t *full = (uint64_t *)(sD_ptr + EPI_BYTES);
    uint64_t *empty = full + stages;

    const int wg = __shfl_sync(0xffffffffu, (int)threadIdx.x / WG_THREADS, 0);
    const tile_sched sched = prm.sched;
    const int KT = (K + BK - 1) / BK;   /* k-tiles per tile; the last may be partial */
    (void)plant_bug;

    /* full[s] = 1 as before.  empty[s] = 1: a slot now belongs to one tile,
     * so exactly one consumer warpgroup reads it and releases it. */
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; ++s) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], 1);
        }
        named_bar_init();
        mbar_fence_init();
    }
    __syncthreads();

    uint64_t t = traced ? trace_now() : 0;
#define SPAN(writer, phase, index)                                 \
    do {                                                           \
        if (traced) TRACE_SPAN(tr, (writer), wg, phase, index, t); \
    } while (0)

    if (wg == 0) {
        /* ---- producer (unchanged from step 06: every tile, in walk order) - */
        REGS_DEC(PRODUCER_REGS);
        if (threadIdx.x / 32 == 0 && elect_one_sync()) {
            tma_prefetch_map(map_a);
            tma_prefetch_map(map_b);
            pipeline_state w = pipeline_producer_start((uint32_t)stages);
#ifdef COURSE_DEBUG
            if (PLANTED(plant_bug, BUG_PRODUCER_PHASE0)) w.phase = 0;
#endif
            int loads = 0;
            for (tile_walk tw = tile_walk_start((int)blockIdx.x, (int)gridDim.x);
                 tile_walk_valid(&sched, &tw); tile_walk_advance(&tw, 1)) {
                int tm, tn;
                tile_sched_coords(&sched, tw.idx, &tm, &tn);
                const int m0 = tm * BM, n0 = tn * BN;
                for (int kt = 0; kt < KT; ++kt, ++loads) {
                    producer_acquire(empty, w.index, w.phase);
                    SPAN(1, TP_PRODUCER_ACQUIRE, loads);
                    uint64_t *bar = &full[w.index];
#ifdef COURSE_DEBUG
                    if (!(PLANTED(plant_bug, BUG_SKIP_COMMIT) && loads == 1))
#endif
                        mbar_arrive_expect_tx(bar, STAGE_BYTES);
                    tma_load_2d(sA + w.index * A_STAGE_BYTES, map_a, kt * BK, m0, smem_u32(bar));
                    tma_load_2d(sB + w.index * B_STAGE_BYTES, map_b, kt * BK, n0, smem_u32(bar));
                    SPAN(1, TP_PRODUCER_LOAD, loads);
                    pipeline_advance(&w);
                }
            }
        }
        return;
    }

    /* ---- consumers -----------------------------------------------------------
     * Warpgroup c (0 or 1) takes tiles c, c+2, c+4 ... of this CTA's walk.
     * Its pipeline states start c tiles (c * KT k-tiles) into the ring. */
    REGS_INC(CONSUMER_REGS);
    const int c = wg - 1;
    const int tid = (int)threadIdx.x % WG_THREADS;
    const int writer = tid == 0;   /* releases slots, issues stores (any one thread would do) */
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
    pipeline_state rd = pipeline_consumer_start((uint32_t)stages);
    pipeline_advance_by(&rd, (uint32_t)(c * KT));   /* WG 2 skips WG 1's first tile */
    pipeline_state rel = rd;
    int reads = 0;
    tile_walk tw = tile_walk_start((int)blockIdx.x, (int)gridDim.x);
    tile_walk_advance(&tw, c);
    for (; tile_walk_valid(&sched, &tw); tile_walk_advance(&tw, CONSUMER_WGS)) {
        int tm, tn;
        tile_sched_coords(&sched, tw.idx, &tm, &tn);
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
            consumer_wait(full, rd.index, rd.phase);
            SPAN(writer, TP_CONSUMER_WAIT, reads);
            const uint64_t db = wgmma_desc_k_major_sw128(sB + rd.index * B_STAGE_BYTES);
            wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
            wgmma_fence();
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
            wgmma_wait_group(1);
            wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
            if (kt > 0) {
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
        wgmma_wait_group(0);
        wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
        if (writer) consumer_release(empty, rel.index);
        /* Skip the partner's tile: its KT k-tiles are the next in the ring. */
        pipeline_advance_by(&rd, (uint32_t)KT);
        rel = rd;

        /* ---- epilogue: under the partner's mainloop ---------------------- */
        named_bar_sync(bar_epi, PINGPONG_THREADS, "pingpong epilogue");
        SPAN(writer, TP_CONSUMER_WAIT, reads);
        if (prm.use_tma_store) {
            int stores = 0;
#pragma unroll
            for (int mb = 0; mb < WG_M_BLOCKS; ++mb)
#pragma unroll
                for (int j = 0; j < EPI_CHUNKS; ++j, ++stores) {
                    const int b = stores % EPI_BUFS;
                    /* WAR on the buffer (step 06): the store from it two
                     * sub-tiles ago has read it. */
                    if (writer) tma_store_wait_read(EPI_BUFS - 1);
                    named_bar_sync(bar_store, WG_THREADS, "epilogue");
                    unsigned char *buf = sD_ptr + b * EPI_SUB_BYTES;
#pragma unroll
                    for (int i = 0; i < EPI_REGS; i += 2) {
                        const int r = EPI_REGS * j + i;
                        const __nv_bfloat162 v = __floats2bfloat162_rn(acc[mb][r], acc[mb][r + 1]);
                        *(__nv_bfloat162 *)(buf + sw128_acc_pair_offset(tid, i)) = v;
                    }
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
    if (writer && prm.use_tma_store) tma_store_wait_all();
#undef SPAN
}

__global__ void __launch_bounds__(THREADS, 1)
pingpong_kernel(const __grid_constant__ CUtensorMap map_a,
                const __grid_constant__ CUtensorMap map_b,
                const __grid_constant__ CUtensorMap map_d, __nv_bfloat16 *__restrict__ D, int M,
                int N, int K, int stages, step07_params prm, trace_ctx tr, int plant_bug)
{
    gemm_cta(&map_a, &map_b, &map_d, D, M, N, K, stages, prm, tr, plant_bug, 0);
}

__global__ void __launch_bounds__(THREADS, 1)
pingpong_kernel_traced(const __grid_constant__ CUtensorMap map_a,
                       const __grid_constant__ CUtensorMap map_b,
                       const __grid_constant__ CUtensorMap map_d, __nv_bfloat16 *__restrict__ D,
                       int M, int N, int K, int stages, step07_params prm, trace_ctx tr,
                       int plant_bug)
{
    gemm_cta(&map_a, &map_b, &map_d, D, M, N, K, stages, prm, tr, plant_bug, 1);
}

/* ---- host ------------------------------------------------------------------- */

typedef struct {
    CUtensorMap a, b, d;
    step07_params prm;
    int grid;
} step07_plan;

static void encode_or_exit(CUtensorMap *map, const tma_2d_desc *d, const char *what)
{
    char msg[320];
    const int rc = tma_encode_2d_bf16(map, d, msg, sizeof msg);
    if (rc == TMA_OK) return;
    fprintf(stderr, "step07: cannot describe %s to TMA: %s\n", what, msg);
    exit(rc == TMA_ERR_DRIVER ? EXIT_NO_DEVICE : EXIT_BAD_ARGS);
}

static void *prepare_step07(const gemm_operands *op)
{
    step07_plan *p = (step07_plan *)aligned_alloc(128, sizeof(step07_plan));
    if (!p) {
        fprintf(stderr, "step07: out of host memory\n");
        exit(EXIT_WRONG);
    }
    memset(p, 0, sizeof *p);
    const tma_2d_desc da = tma_2d_bf16_row_major(op->a, (uint64_t)op->m, (uint64_t)op->k, BM, BK,
                                                 TMA_SWIZZLE_128B);
    const tma_2d_desc db = tma_2d_bf16_row_major(op->b, (uint64_t)op->n, (uint64_t)op->k, BN, BK,
                                                 TMA_SWIZZLE_128B);
    encode_or_exit(&p->a, &da, "A");
    encode_or_exit(&p->b, &db, "B");
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
    p->grid = p->prm.sched.num_tiles < op->num_sms ? p->prm.sched.num_tiles : op->num_sms;
    return p;
}

static void release_step07(void *plan)
{
    free(plan);
}

/* The whole dynamic shared memory: ring, epilogue buffers, barriers, alignment slack. */
static size_t ring_bytes(int stages) { return (size_t)SMEM_BYTES(stages); }

static void launch_step07(const gemm_operands *op, cudaStream_t stream)
{
    const size_t smem = SMEM_BYTES(op->stages);
    static int opted_in = 0;
    if (!opted_in) {
        const int fit = smem_stages_that_fit(op->smem_optin, SMEM_PER_STAGE, EPI_BYTES, SMEM_ALIGN, 8);
        gemm_require_stages(op, "07", MIN_STAGES, fit, ring_bytes);
        CUDA_CHECK(cudaFuncSetAttribute(pingpong_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)SMEM_BYTES(fit)));
        CUDA_CHECK(cudaFuncSetAttribute(pingpong_kernel_traced,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)SMEM_BYTES(fit)));
        opted_in = 1;
    }
    const step07_plan *p = (const step07_plan *)op->plan;
    if (TRACE_ON(op->trace))
        pingpong_kernel_traced<<<p->grid, THREADS, smem, stream>>>(
            p->a, p->b, p->d, op->d, op->m, op->n, op->k, op->stages, p->prm, op->trace,
            op->plant_bug);
    else
        pingpong_kernel<<<p->grid, THREADS, smem, stream>>>(p->a, p->b, p->d, op->d, op->m, op->n,
                                                            op->k, op->stages, p->prm, op->trace,
                                                            op->plant_bug);
    CUDA_CHECK_LAUNCH();
}

int main(int argc, char **argv)
{
    static const gemm_step step = {
        "07", "pingpong",
        "pingpong GEMM: two consumer warpgroups, a tile each, take turns on the tensor cores "
        "(named barriers); persistent, setmaxnreg 40/232, TMA-store epilogue (" VARIANT ")",
        VARIANT, MIN_STAGES, MAX_STAGES, DEFAULT_STAGES,
        {9, 0, 1, "wgmma, setmaxnreg and TMA need an sm_90a (Hopper H100/H200) GPU"},
        prepare_step07, release_step07, launch_step07, 1 + CONSUMER_WGS, "warpgroup", 1};
    return gemm_main(argc, argv, &step);
}
