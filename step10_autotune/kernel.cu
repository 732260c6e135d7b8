/* step10_autotune — one kernel, a menu of tiles, and a chooser: no tile
 * wins on every shape, so step 09's kernel is compiled at five tiles and
 * a model (chooser.h) or a measurement (--tune) picks one per shape.
 *
 *   D[M x N] = A[M x K] . B[N x K]^T    bf16 in, fp32 accumulate, bf16 out
 *
 * Step 09's kernel.  Whole tiles leave SMs idle when the tile count is not a
 * multiple of the SM count (64 tiles on 132 SMs: 68 idle all along).
 * Stream-K (Osama et al., PPoPP 2023) deals out k-tiles: the streamed tiles'
 * (tile, k-tile) iterations, cut into one contiguous range per UNIT, equal
 * to within one k-tile (stream_k_schedule.h, "stream-K").  The unit is step
 * 08's cluster: both CTAs take the same k-range of tiles (m, n), (m, n+1),
 * still sharing A.  The unit holding a tile's k-tile 0 OWNS it; every other
 * unit with a piece of it (a WRITER) stores its CTAs' fp32 partials and
 * raises their flags; the owner waits, adds them in k order (bitwise
 * reproducible) and stores (fixup.cuh).  A writer's piece is its unit's
 * first, an owner's wait its last: no unit waits for a unit that waits.
 * --mode auto streams only where a model fitted on the H100 predicts a gain
 * (1024 x 1024 x 14336: 2 units per cluster tile) and otherwise runs step
 * 08's walk and launch unchanged.  Pingpong stays: writers never wait, an
 * owner waits between its two turns (README.md, "Why pingpong survives").
 *
 * What changed from step 09 (one tile, set when it compiles):
 *
 *   step 09                               step 10
 *   ------------------------------------  ---------------------------------------
 *   -DWG_M_BLOCKS, -DBN: one tile         the tile a template parameter: the menu
 *   pingpong                              + 128x256c, cooperative, sharing B
 *   walk starts in device memory          in kernel_params
 *   one kernel (and its traced copy)      + a lean one: whole tiles, TMA stores
 *   --mode picks the plan                 the chooser picks tile and plan
 *   an owner waits writer by writer       its first warp waits on 32 writers at once
 *   boxes past M and N too, zero-filled   the last row's and column's stop at the edge; a pair's
 *                                         kernels twice (A_CUT); a padding CTA loads no box of its own
 *   a pair along N everywhere             alone where its partner would compute padding
 *
 * Build and run (sm_90a only):
 *   make step10
 *   ./build/step10_autotune --m 1024 --n 1024 --k 1024 --explain --no-cache
 *   ./build/step10_autotune --m 2560 --n 2560 --k 2560 --tune --no-cache
 *   make DEBUG=1 step10 && ./build/debug/step10_autotune --m 1024 --n 1024 --k 14336 --config 128x256c --mode sk --plant-bug 5
 *   make diff STEP=10
 */
#include <cuda.h>

/* The ring's cap, before common/smem_layout.h: 16, not step 03's 8.  Only 64x64's 16 KiB stages fit more
 * than 8 (13); chooser_ring says when it takes them.  An experiment may set another with -D. */
#ifndef SMEM_LAYOUT_MAX_STAGES
#define SMEM_LAYOUT_MAX_STAGES 16
#endif
#include "chooser.h"   /* first: it sets the stream-K plans' fixup cost (SK_FIXUP_MORE_KT) */
#include "cluster_launch.cuh"
#include "gemm.cuh"
#include "mbarrier.cuh"
#include "named_barrier.cuh"
#include "pipeline_state.h"
#include "epilogue.cuh"
#include "fixup.cuh"
#include "regs.cuh"
#include "smem_layout.h"
#include "stream_k_schedule.h"
#include "tma.h"
#include "tma.cuh"
#include "wgmma.cuh"
#include "wgmma_desc.h"

/* ---- tile shape ------------------------------------------------------------
 * One warpgroup now holds a whole tile's accumulators: WG_M_BLOCKS m64
 * blocks of BN/2 fp32 registers each.  The register budget decides what is
 * possible: 240 registers per consumer thread (below), ~40 of them for
 * addresses, loop state and the epilogue, leaves ~200 for accumulators
 * (with the 24 / 240 split; a 128 x 128 tile runs with 40 / 232):
 *   128 x 256  256 accumulators: does not fit (step 06 needed two WGs for it)
 *   128 x 192  192 accumulators: fits (QuACK's 128 x 208 shows N need not be
 *              a power of two; BN must be a multiple of the 64-column
 *              store sub-tile here)
 *   128 x 128  128 accumulators: fits with room to spare
 *    64 x 256  128 accumulators: fits, but it is ONE m64n256 accumulator, so
 *              each k16 wgmma depends on the previous one: a single
 *              warpgroup then cannot keep the tensor cores busy (measured
 *              0.54x cuBLAS).  Two m64 blocks give two independent chains.
 * Measured in step 07 (its NOTES.md): 128 x 192 is 8% slower than 128 x 128
 * where its tiles divide the grid of SMs badly (4096^3: 704 tiles = 5.3 per
 * SM, so some SMs run 6) and not clearly faster where they divide well (8192^3).
 * Step 10 runs a menu of tiles: WG_M_BLOCKS, BN and TILE_WGS (1: pingpong; 2:
 * step 06's COOPERATIVE 128 x 256, see consumer_tiles) are the template parameters
 * of every function that depends on the tile; the macros expand there. */
#define CONSUMER_WGS 2
#define WG_THREADS 128                          /* 4 warps: one warpgroup */
#define BM (64 * WG_M_BLOCKS * TILE_WGS)        /* rows of one tile: a warpgroup's, or both's */
#define BK 64                                   /* 64 bf16 = one 128-byte swizzled row */
#define THREADS (WG_THREADS * (1 + CONSUMER_WGS))   /* 384: producer WG + consumers */
#define KSTEPS (BK / 16)                        /* 4 wgmma k16 steps per k-tile */
#define ACC_REGS (BN / 2)                       /* fp32 accumulators per m64 block */
#define A_STAGE_BYTES (BM * BK * 2)             /* the A box, BM rows x 128 B (bf16) */
#define B_STAGE_BYTES (BN * BK * 2)             /* the B box, BN rows x 128 B */
#define STAGE_BYTES (A_STAGE_BYTES + B_STAGE_BYTES)   /* also the expect_tx count */
#define SMEM_ALIGN 1024                         /* SWIZZLE_128B atom: 8 rows x 128 B */
template <int N_ACC>   /* an m64 block's accumulators, BN / 2, pick the BN-wide wgmma */
static __device__ __forceinline__ void wgmma_tile_k16(float (&acc)[N_ACC], uint64_t da, uint64_t db, int accumulate)
{
    static_assert(N_ACC == 32 || N_ACC == 64 || N_ACC == 96 || N_ACC == 128, "BN: 64, 128, 192 or 256 (wgmma.cuh)");
    if constexpr (N_ACC == 32) wgmma_m64n64k16_bf16(acc, da, db, accumulate);
    else if constexpr (N_ACC == 64) wgmma_m64n128k16_bf16(acc, da, db, accumulate);
    else if constexpr (N_ACC == 96) wgmma_m64n192k16_bf16(acc, da, db, accumulate);
    else wgmma_m64n256k16_bf16(acc, da, db, accumulate);
}

/* ---- the cluster -------------------------------------------------------------
 * Two CTAs side by side along N share the A box: each loads A_HALF_ROWS of
 * its BM rows and multicasts them.  Sharing B instead (clusters along M)
 * measured within 2%, A ahead on the large shapes (step 08's NOTES.md).  Every CTA
 * still receives the whole stage, STAGE_BYTES, into its own shared memory (less
 * the rows past the matrix's edges: config_prepare). */
/* CLUSTER_SIZE, a template parameter as the tile is: 1 (alone) for 64 x 64, and for a pair's tile where
 * its partner would compute only padding (MENU_CONFIG); alone, the loads below are plain (no
 * multicast) and no partner is released. */
#define CLUSTER_MASK ((uint16_t)0x3)                   /* multicast to both CTAs of a pair */
#define SHARE_B (TILE_WGS == 2)   /* cooperative: a pair along M shares B (experiments/shareb); comments: read B, M for A, N */
#define A_HALF_ROWS (SHARE_B ? BM : BM / CLUSTER_SIZE)   /* rows of A this CTA loads */
#define A_HALF_BYTES (A_HALF_ROWS * BK * 2)
#define B_HALF_ROWS (SHARE_B ? BN / CLUSTER_SIZE : BN)   /* rows of B this CTA loads */
#define B_HALF_BYTES (B_HALF_ROWS * BK * 2)

/* ---- register split ----------------------------------------------------------
 * 384 threads at __launch_bounds__(384, 1): ptxas caps every thread at 168,
 * 384 x 168 = 64512 registers.  The producer needs ~30 (addresses, loop
 * counters); the consumers get what the tile's accumulators need and the
 * producer keeps the rest (regs.cuh): up to 128 accumulators per thread
 * (128 x 128, 64 x 256) the consumers take 232 and the producer keeps 40;
 * more (128 x 192: 192) need 240, the most setmaxnreg allows, leaving the
 * producer 24.  24 is too few for the DEBUG build's hang report, which the
 * producer may have to call. */
#define CONSUMER_REGS (WG_M_BLOCKS * ACC_REGS > 128 ? 240 : 232)
#define PRODUCER_REGS ((THREADS * 168 - CONSUMER_WGS * WG_THREADS * CONSUMER_REGS) / WG_THREADS)

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
#define EPI_BYTES (EPI_BUFS * EPI_SUB_BYTES * TILE_WGS)   /* 16 KiB; cooperative: a pair each, 32 */
#define EPI_CHUNKS (BN / EPI_COLS)              /* sub-tiles per m64 block */
#define EPI_REGS (EPI_ROWS * EPI_COLS / WG_THREADS)   /* 32 accumulators per sub-tile, any tile */

/* Named barriers (named_barrier.cuh).  Id 0 is __syncthreads'.  Each
 * kind has one id per consumer warpgroup c = 0, 1 (warpgroups 1, 2): the
 * id is the base plus c.  The turn pairs count 256 threads: the waiting
 * warpgroup's 128 (bar.sync) and its partner's 128 (bar.arrive). */
enum {
    BAR_MMA = 1,     /* 1 + c: consumer c may issue its mainloop (the partner arrives) */
    BAR_EPI = 3,     /* 3 + c: consumer c may use the epilogue buffers */
    BAR_STORE = 5    /* 5 + c: inside consumer c's epilogue, its 128 threads */
};
#define PINGPONG_THREADS (2 * WG_THREADS)

/* Turn-taking: wait until the partner hands consumer c the turn of kind
 * `bar` (BAR_MMA or BAR_EPI) ... */
static __device__ __forceinline__ void pingpong_wait_turn(int bar, int c, const char *name)
{
    named_bar_sync(bar + c, PINGPONG_THREADS, name);
}

/* ... and hand it to the partner (c ^ 1) without waiting. */
static __device__ __forceinline__ void pingpong_pass_turn(int bar, int c)
{
    named_bar_arrive(bar + (c ^ 1), PINGPONG_THREADS);
}

/* ---- shared memory (common/smem_layout.h: the one layout) -------------------
 * A stage is (BM + BN) x 128 bytes of boxes (32 KiB at 128 x 128) plus
 * its full and empty mbarriers (8 bytes each); SMEM_LAYOUT_ALIGN bytes of
 * slack round the base up to 1024, the swizzle atom every box must start
 * on (smem_layout.h says why).  The ring is sized for the shared memory
 * one CTA may opt in to on an H100 or H200, 227 KiB (the device attribute
 * cudaDevAttrMaxSharedMemoryPerBlockOptin on both; CUDA C++ Programming
 * Guide, compute capability 9.0: 228 KiB per SM, 227 KiB per block).  The
 * launcher checks the requested ring against the attribute of the device it
 * runs on (gemm_operands.smem_optin) and refuses what does not fit.  The
 * epilogue buffers come off the top: the ring gets what they leave.
 * The D buffers are the epilogue's alone: the A/B ring is being refilled with
 * the next tile's k-tiles while the epilogue runs, so it cannot double as
 * the output staging area the way it could in a one-tile-per-CTA kernel. */
#define SMEM_CONFIG {A_STAGE_BYTES, B_STAGE_BYTES, EPI_BYTES}   /* D: 2 x 8 KiB in turns (cooperative: 2 each) */
/* 2: the release runs one k-tile late (wgmma_wait_group(1) below), so one slot
 * is always held by the wgmmas in flight and the producer needs another. */
#define MIN_STAGES 2
/* At most 16 (above); with 32 KiB stages and 16 KiB of epilogue buffers the budget
 * decides: 6 (5 for 128 x 192, 8 for 64 x 128, 4 for 128 x 256c, 13 for 64 x 64). */
#define MAX_STAGES SMEM_LAYOUT_MAX_STAGES
#define DEFAULT_STAGES 0                       /* the most the chosen configuration fits (step_prepare) */
#define STEP_ID "10"                           /* the step's number, in messages too */

static_assert(SMEM_ALIGN == SMEM_LAYOUT_ALIGN, "the layout rounds the base to the swizzle atom");
static_assert(BK * 2 == WGMMA_SW128_ROW_BYTES, "a k-tile row must be one 128-byte swizzle row");
static_assert(EPI_SUB_BYTES % SMEM_ALIGN == 0, "every D buffer must start on a swizzle atom");
static_assert(EPI_COLS * 2 == WGMMA_SW128_ROW_BYTES, "an epilogue row must be one swizzle row");

/* ---- stream-K: the plan and the workspace ---------------------------------------
 * The workspace is the harness's, zeroed once (flags hold the launch number:
 * never reset).  A partial: a warpgroup's accumulators in register order,
 * BM x BN fp32 per CTA (cooperative: half each) in slot sk_part_slot; the owner's CTA r
 * reads the writers' CTA r: the same tile, the same fragment layout. */
typedef struct {
    sk_plan plan;
    float4 *partials;      /* one partial tile per CTA: its first piece's */
    uint32_t *flags;       /* one per CTA: the epoch of the launch that wrote its partial */
    uint32_t epoch;        /* this launch's number, 1, 2, ... */
} stream_k_params;
#define PARTIAL_F4 (WG_M_BLOCKS * ACC_REGS / 4)           /* float4 per thread */
#define PARTIAL_BYTES (PARTIAL_F4 * WG_THREADS * 16)      /* 64 KiB at 128 x 128 */

/* ---- the kernel's parameters: one struct, written once ----------------------
 * Everything a launch needs, built by the host once per input set (prepare,
 * below) and passed as ONE const __grid_constant__ parameter (gemm_cta's
 * kernels): the tensor maps inside it stay in parameter space, where TMA
 * wants them (a plain by-value parameter would be copied to local memory,
 * which TMA does not accept).  The traced and untraced kernels and the
 * launch all use this one definition. */
typedef struct {
    CUtensorMap map_a, map_b, map_d;   /* map_d: zeros unless use_tma_store */
    __nv_bfloat16 *D;                  /* for the masked stores when N % 8 != 0 */
    int M, N, k_tiles, stages;         /* k_tiles = ceil(K / BK): the last may be partial */
    /* Beside `stages`, which every thread reads first: the producer reads these before each tile's
     * loads, and in a line nothing else reads, at the struct's end, 1024^3 ran 0.6% slower (NOTES.md,
     * session 20).  Only the kernels that cut boxes read them (A_CUT = 1: MENU_CONFIG). */
    uint32_t shared_edge_rank;         /* in the last tile row (cooperative: column), the rank whose half of the
                                          shared box map_shared_edge cuts: ranks before it load theirs whole,
                                          ranks after it none (config_prepare) */
    uint32_t shared_edge_tx;           /* the shared box's bytes a CTA receives there */
    cluster_sched sched;               /* cluster tiles; rank r of a cluster takes tile r */
    uint16_t walk_start[CLUSTER_PROBE_MAX_SMS / 2];   /* each cluster's first work index: no global load */
    stream_k_params sk;                /* the plan; per launch: workspace and epoch */
    int use_tma_store;                 /* 1: N % 8 == 0 (16-byte D rows), 0: masked stores */
    trace_ctx trace;                   /* tracing off unless --trace (recs == NULL) */
    int plant_bug;                     /* DEBUG builds: --plant-bug, else 0 */
    uint32_t edge_tx;                  /* map_edge's box's bytes (config_prepare) */
    CUtensorMap map_edge;              /* the last tile column's B box cut to N (cooperative: the last row's A, to M) */
    CUtensorMap map_shared_edge;       /* the last tile row's half of A cut to M (cooperative: the last column's B, to N) */
} kernel_params;

/* This cluster's unit: its place in the placement's walk order.  Re-read
 * where needed (constant cache) rather than kept live: the consumers' registers
 * are all taken, and ptxas spilled it. */
static __device__ __forceinline__ int stream_k_unit(const kernel_params *P)
{
    return P->walk_start[cluster_id_x()];
}

/* ---- the scheduler: this CTA's work units -----------------------------------
 * A work unit is {tile, its coordinates, a range of k-tiles}
 * (persistent_schedule.h).  The walk is now stream-K's (stream_k_schedule.h):
 * the cluster's unit takes its pieces (k-ranges of streamed cluster tiles),
 * then whole tiles as in step 08; CTA `rank` takes tile `rank` of each
 * cluster tile, over the same k-range.  The roles ask the same four
 * questions as in step 08 and do not change. */
typedef sk_walk work_walk;

static __device__ __forceinline__ work_walk walk_start(const kernel_params *P)
{
    return sk_walk_start(&P->sk.plan, stream_k_unit(P));
}

static __device__ __forceinline__ int walk_valid(const kernel_params *P, const work_walk *w)
{
    return sk_walk_valid(&P->sk.plan, w);
}

static __device__ __forceinline__ void walk_next(const kernel_params *P, work_walk *w)
{
    sk_walk_next(&P->sk.plan, w);
}

/* A tile past an odd N edge is a unit too: its CTA loads no B (producer_load_tile), computes on the
 * slot's old bytes and its half of A (the partner's needs it) and does not store (cluster_unit_stores).
 * The rank is read where needed (a special register) rather than kept live. */
static __device__ __forceinline__ work_unit walk_unit(const kernel_params *P, const work_walk *w)
{
    return sk_walk_unit(&P->sk.plan, w, &P->sched, (int)cluster_ctarank());
}

/* ---- role contexts: what each role reads and carries from unit to unit ------
 * Passed by pointer; everything is inlined, so the fields live in registers
 * like the loose variables they replace. */
typedef struct {
    const smem_ring *sm;
    uint32_t rank;                /* which half of A this CTA loads and multicasts */
    pipeline_state write_state;   /* the next slot to fill: never reset between units */
    int loads;                    /* k-tiles issued by this CTA (planted bug, trace) */
    int cuts;                     /* a constant (A_CUT): 0 in the kernels for whole boxes, 1 in those that cut them
                                     (the edges; padding) and in the traced copy (MENU_CONFIG) */
    trace_clock *clk;
    int plant_bug;
} producer_ctx;

typedef struct {
    const smem_ring *sm;
    pipeline_state read_state;    /* the next slot to wait for */
    pipeline_state release_state; /* the slot to hand back, one k-tile behind */
    int c;                        /* consumer warpgroup 0 or 1 (warpgroup c + 1) */
    int part;                     /* its rows of the tile: 0, or c when cooperative (TILE_WGS = 2) */
    int leader;                   /* 1 in the one thread that releases slots and stores (thread 0) */
    uint32_t rank;                /* this CTA's rank; the partner's (rank ^ 1) producer waits for our releases too */
    int reads;                    /* k-tiles consumed by this warpgroup (trace, planted bug) */
    int stores;                   /* sub-tiles stored by this warpgroup: picks the D buffer */
    int lean;                     /* a constant: 1 in pingpong_kernel_lean (whole tiles, TMA stores) */
    trace_clock *clk;
    int plant_bug;
} consumer_ctx;

/* ---- the fixup (common/fixup.cuh) --------------------------------------------
 * Writer: all threads store, a barrier gathers the stores, one thread releases them. */
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>
static __device__ __forceinline__ void fixup_write_partial(const stream_k_params *sk, consumer_ctx *cc,
                                                           float (*acc)[ACC_REGS], int slot)
{
    partial_store_all(sk->partials + (size_t)slot * PARTIAL_F4 * WG_THREADS, &acc[0][0],
                      WG_M_BLOCKS * ACC_REGS, WG_THREADS, warpgroup_thread());
    named_bar_sync(BAR_STORE + cc->c, WG_THREADS, "fixup write");
#ifdef COURSE_DEBUG
    if (PLANTED(cc->plant_bug, BUG_SKIP_FLAG)) return;   /* the owner must name this partial */
#endif
    if (warpgroup_thread() == 0) flag_store_release_gpu(&sk->flags[slot], sk->epoch);
}

/* Owner: the writers in batches of 32: the first warp's lanes acquire a batch's flags at
 * once (step 09: one thread, two L2 round trips in a row per writer; 33 writers a tile:
 * 0.41 -> 0.65 of cuBLAS, NOTES.md "Session 17"), a barrier passes the news on, all
 * threads add the batch in k order (bitwise reproducible). */
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>
static __device__ __forceinline__ void fixup_add_partials(const stream_k_params *sk, consumer_ctx *cc,
                                                          float (*acc)[ACC_REGS], int tile, int unit)
{
    const int last = sk_tile_last_unit(&sk->plan, tile);
    for (int v0 = unit + 1; v0 <= last; v0 += 32) {
        const int w = v0 + warpgroup_thread();   /* lane t: writer v0 + t */
        if (warpgroup_thread() < 32 && w <= last)
            flag_wait_acquire_gpu(&sk->flags[sk_part_slot(w, (int)cc->rank, CLUSTER_SIZE, cc->part, TILE_WGS)],
                                  sk->epoch, tile, w);
        named_bar_sync(BAR_STORE + cc->c, WG_THREADS, "fixup wait");
        for (int v = v0; v <= last && v < v0 + 32; ++v) {
            const int slot = sk_part_slot(v, (int)cc->rank, CLUSTER_SIZE, cc->part, TILE_WGS);
            partial_add_all(&acc[0][0], sk->partials + (size_t)slot * PARTIAL_F4 * WG_THREADS,
                            WG_M_BLOCKS * ACC_REGS, WG_THREADS, warpgroup_thread());
        }
    }
}

/* A unit's fixup.  Returns 1 for a writer (it has no tile to store). */
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>
static __device__ __forceinline__ int fixup_piece(const kernel_params *P, consumer_ctx *cc,
                                                  float (*acc)[ACC_REGS], const work_unit *u)
{
    if (cc->lean) return 0;   /* whole tiles only: no fixup code in that kernel */
    const int unit = stream_k_unit(P);
    if (sk_unit_writes(&P->sk.plan, u)) {
        const int slot = sk_part_slot(unit, (int)cc->rank, CLUSTER_SIZE, cc->part, TILE_WGS);
        fixup_write_partial<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(&P->sk, cc, acc, slot);
        return 1;
    }
    if (sk_unit_waits(&P->sk.plan, u)) fixup_add_partials<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(&P->sk, cc, acc, u->tile, unit);
    return 0;
}

/* ---- producer: one thread loads every k-tile of every tile -------------------
 * The other 127 threads of warpgroup 0 have nothing to do and have left
 * (gemm_cta).  write_state walks the ring: acquire a free slot, announce the
 * bytes, issue the two TMA boxes.  The thread walks this CTA's tiles and
 * their k-tiles as ONE sequence: the ring does not know where a tile ends. */
template <int SHARED>   /* one box; the shared one is multicast into both CTAs' slot */
static __device__ __forceinline__ void tma_load_box(uint32_t dst, const CUtensorMap *map, int k, int row, uint32_t bar)
{
    if (SHARED) tma_load_2d_multicast(dst, map, k, row, bar, CLUSTER_MASK);   /* SHARED: in a pair */
    else tma_load_2d(dst, map, k, row, bar);
}

template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>
static __device__ __forceinline__ void producer_load_tile(const kernel_params *P, producer_ctx *pc,
                                                          const work_unit *u)
{
    const smem_ring *sm = pc->sm;
    pipeline_state *write_state = &pc->write_state;
    /* Boxes stop at the matrix's edge (encode_edge_box says why): the last tile column's box of B, ours
     * alone, through map_edge; the last tile row's shared A through map_shared_edge for the half the edge
     * cuts, and not at all for a half wholly past it.  (The cooperative pair: A, ours, in the last row; the
     * shared B in the last column.)  A pair's padding tile (past the last tile at an odd count) loads no
     * box of its own, all zero fill, which TMA serves slower than a load: it expects the partner's share
     * only, its MMAs read the slot's old bytes, and nothing it computes is stored.  A null map: no load.
     * Only the copies that cut boxes test for this (A_CUT = 1: MENU_CONFIG); in the other the maps and the
     * count below are constants (the tests cost 1.2% at 1024^3, NOTES.md "Session 24"). */
    const int pad = pc->cuts && CLUSTER_SIZE == 2 && !cluster_unit_stores(&P->sched, u);
    const int edge = pc->cuts && (SHARE_B ? u->tile_m == P->sched.tiles_m - 1 : u->tile_n == P->sched.tiles_n - 1);
    const int shared_edge = pc->cuts && (SHARE_B ? u->tile_n == P->sched.tiles_n - 1 : u->tile_m == P->sched.tiles_m - 1);
    const CUtensorMap *own = pad ? NULL : edge ? &P->map_edge : SHARE_B ? &P->map_a : &P->map_b;
    const CUtensorMap *shared = !shared_edge || pc->rank < P->shared_edge_rank ? (SHARE_B ? &P->map_b : &P->map_a)
                                : pc->rank == P->shared_edge_rank ? &P->map_shared_edge : NULL;
    const uint32_t own_whole = SHARE_B ? A_STAGE_BYTES : B_STAGE_BYTES;   /* our box; the shared one: the rest */
    const uint32_t tx = (pad ? 0 : edge ? P->edge_tx : own_whole) + (shared_edge ? P->shared_edge_tx : STAGE_BYTES - own_whole);
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
         * also legal (tx-count may go negative within a phase).  At the
         * edges the boxes are cut (above): each CTA announces what it will
         * receive, its own box and every rank's share of the shared one. */
        uint64_t *bar = &sm->full[write_state->index];
#ifdef COURSE_DEBUG
        if (!(PLANTED(pc->plant_bug, BUG_SKIP_COMMIT) && pc->loads == 1))
#endif
            mbar_arrive_expect_tx(bar, tx);
        /* Coordinates innermost first: {k, row}.  Our half of A, into the
         * same offset of both CTAs' slot; each one's full barrier counts it. */
        const uint32_t ra = SHARE_B ? 0 : pc->rank, rb = SHARE_B ? pc->rank : 0;   /* the other box is ours alone */
        if (SHARE_B ? own : shared)
            tma_load_box<!SHARE_B && CLUSTER_SIZE == 2>(sm->a + write_state->index * A_STAGE_BYTES + ra * A_HALF_BYTES, SHARE_B ? own : shared,
                                   kt * BK, u->tile_m * BM + (int)ra * A_HALF_ROWS, smem_u32(bar));
        if (SHARE_B ? shared : own)
            tma_load_box<SHARE_B && CLUSTER_SIZE == 2>(sm->b + write_state->index * B_STAGE_BYTES + rb * B_HALF_BYTES, SHARE_B ? shared : own,
                                  kt * BK, u->tile_n * BN + (int)rb * B_HALF_ROWS, smem_u32(bar));
        CLOCK_SPAN(pc->clk, 1, TP_PRODUCER_LOAD, pc->loads);
        pipeline_advance(write_state);
    }
}

template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>
static __device__ __forceinline__ void producer_load_tiles(const kernel_params *P, producer_ctx *pc)
{
    tma_prefetch_map(&P->map_a);
    tma_prefetch_map(&P->map_b);
#ifdef COURSE_DEBUG
    if (PLANTED(pc->plant_bug, BUG_PRODUCER_PHASE0)) pc->write_state.phase = 0;   /* the classic: first acquire never passes */
#endif
    for (work_walk w = walk_start(P); walk_valid(P, &w); walk_next(P, &w)) {
        const work_unit u = walk_unit(P, &w);
        producer_load_tile<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(P, pc, &u);
    }
    /* Producer tail: acquire every slot once more, i.e. wait until both
     * CTAs' consumers have released all of them.  Then no remote arrive and
     * no multicast can still reach this CTA, and it may exit (this thread
     * keeps it alive until then).  Without it the partner could arrive on,
     * or write into, the shared memory of a CTA that has left. */
    for (int s = 0; s < P->stages; ++s) {
        producer_acquire(pc->sm->empty, pc->write_state.index, pc->write_state.phase);
        pipeline_advance(&pc->write_state);
    }
}

/* release, in a cluster: "done reading slot s" to both producers that write
 * it, ours (a local arrive) and the partner's (a remote arrive; its default
 * semantics suffice for this WAR hand-off, step 08's NOTES.md).  `remote` is 0 for a CTA
 * alone (64x64) and for the DEBUG build's planted bug. */
static __device__ __forceinline__ void consumer_release_cluster(uint64_t *empty, uint32_t slot,
                                                                uint32_t peer, int remote)
{
    consumer_release(empty, slot);
    if (remote) mbar_arrive_cluster(&empty[slot], peer);
}

/* Issue the wgmmas of the k-tile in the slot cc->read_state names: KSTEPS
 * k16 steps for each of the warpgroup's WG_M_BLOCKS m64 blocks, one commit
 * group.  accumulate = 0 overwrites the accumulators on the first k16 step. */
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>
static __device__ __forceinline__ void consumer_mma_slot(consumer_ctx *cc, float (*acc)[ACC_REGS],
                                                         int accumulate)
{
    const smem_ring *sm = cc->sm;
    const uint32_t slot = cc->read_state.index;
    /* Descriptors of B's BN rows in the slot and, in the loop below, of
     * each m64 block of A; each k16 step moves 32 bytes along the rows. */
    const uint64_t db = wgmma_desc_k_major_sw128(sm->b + slot * B_STAGE_BYTES);
    wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
    wgmma_fence();   /* accumulator writes (zeroing, the last epilogue) come first */
    /* scale-d = 0 on a unit's first k16 step (accumulate = 0): D = A.B overwrites
     * whatever the registers held (the previous tile's results), so
     * no zeroing pass is needed. */
#pragma unroll
    for (int kk = 0; kk < KSTEPS; ++kk)
#pragma unroll
        for (int mb = 0; mb < WG_M_BLOCKS; ++mb) {
            const uint64_t da = wgmma_desc_k_major_sw128(
                sm->a + slot * A_STAGE_BYTES + (cc->part * WG_M_BLOCKS + mb) * 64 * WGMMA_SW128_ROW_BYTES);
            wgmma_tile_k16(acc[mb], wgmma_desc_advance(da, kk * WGMMA_K16_BYTES),
                           wgmma_desc_advance(db, kk * WGMMA_K16_BYTES), accumulate || kk > 0);
        }
    wgmma_commit_group();
}

/* ---- consumer mainloop: one unit's k-tiles through the ring -----------------
 * The warpgroup computes its whole tile: WG_M_BLOCKS m64 blocks of A (one
 * wgmma chain each) against all BN columns of B.  read_state is the slot
 * to wait for, release_state the slot to hand back (one behind).
 * cc->reads counts the k-tiles this warpgroup consumed (trace, planted
 * bug).  With its last wgmma issued it passes the tensor cores to the
 * partner (when hand_over: the partner has a unit after this one). */
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>
static __device__ __forceinline__ void consumer_mainloop(consumer_ctx *cc, float (*acc)[ACC_REGS],
                                                         const work_unit *u, int hand_over)
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

        consumer_mma_slot<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(cc, acc, kt > u->k_begin);
        CLOCK_SPAN(cc->clk, cc->leader, TP_CONSUMER_COMPUTE, cc->reads);

        /* release, one k-tile late.  After issuing k-tile kt's group, wait
         * until at most 1 group is pending: k-tile kt-1's wgmmas are then
         * complete, so nothing reads slot (kt-1) any more and it can go back
         * to the producer, while k-tile kt's wgmmas keep the tensor cores
         * busy during the wait for k-tile kt+1.  Releasing slot kt here
         * instead would be a WAR race: its wgmmas may still be reading when
         * TMA overwrites it.  (The alternative, wait_group(0) then release
         * slot kt, is also correct but drains the tensor-core queue every
         * k-tile: step 05's README, exercise 3.)  This is why a ring needs >= 2 slots.
         * At a unit's first k-tile the slot to release is the previous
         * unit's last, which the drain below already handed back: nothing
         * to release then. */
        wgmma_wait_group(1);
        wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
        if (kt > u->k_begin) {
#ifdef COURSE_DEBUG
            if (!(PLANTED(cc->plant_bug, BUG_SKIP_RELEASE) && cc->reads == 1))
#endif
                if (cc->leader)
                    consumer_release_cluster(sm->empty, release_state->index, cc->rank ^ 1u, CLUSTER_SIZE == 2 &&
                                             !(PLANTED(cc->plant_bug, BUG_SKIP_REMOTE_RELEASE) && cc->reads == 1));
            pipeline_advance(release_state);
        }
        CLOCK_SPAN(cc->clk, cc->leader, TP_CONSUMER_RELEASE, cc->reads);
        pipeline_advance(read_state);
    }
    /* Every wgmma of this unit is issued: hand the tensor cores over
     * now, before waiting for them to finish, so the partner's first
     * wgmmas queue right behind my last ones. */
    if (hand_over) pingpong_pass_turn(BAR_MMA, cc->c);
    /* Drain: the last k-tile's wgmmas must finish before the accumulators
     * are read (reading them earlier is undefined), then hand its slot back
     * at once: the ring stays balanced, and a producer with more tiles to
     * load (step 06 on) refills the slot during the epilogue. */
    wgmma_wait_group(0);
    wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
    if (cc->leader) consumer_release_cluster(sm->empty, release_state->index, cc->rank ^ 1u, CLUSTER_SIZE == 2);
}

/* One 64 x 64 sub-tile through a D buffer: registers -> bf16 -> swizzled
 * shared memory -> one TMA store at (row0, col0).  acc_sub: its EPI_REGS
 * accumulators (sub-tile j of m64 block mb = columns 64j .. 64j+63 =
 * accumulators 32j .. 32j+31 of acc[mb]; wgmma_acc_col: register i is in
 * column 8(i/4) + ...).  cc->stores, the sub-tiles stored in this turn,
 * picks the buffer. */
static __device__ __forceinline__ void epilogue_store_subtile(const kernel_params *P, consumer_ctx *cc,
                                                              const float *acc_sub, int row0, int col0)
{
    const int b = cc->stores % EPI_BUFS + cc->part * EPI_BUFS;   /* cooperative: my own pair */
    /* WAR on the buffer: the store issued from it two sub-tiles
     * ago must have finished READING it.  Only the thread that
     * committed a bulk group can wait for it, so the leader
     * waits and a barrier tells the other 127 threads. */
    if (cc->leader) tma_store_wait_read(EPI_BUFS - 1);
    named_bar_sync(BAR_STORE + cc->c, WG_THREADS, "epilogue");
    unsigned char *buf = cc->sm->d_ptr + b * EPI_SUB_BYTES;
#pragma unroll
    for (int i = 0; i < EPI_REGS; i += 2) {
        const __nv_bfloat162 v = __floats2bfloat162_rn(acc_sub[i], acc_sub[i + 1]);
        *(__nv_bfloat162 *)(buf + sw128_acc_pair_offset(warpgroup_thread(), i)) = v;
    }
    /* RAW across proxies: these st.shared are generic-proxy
     * writes and the TMA store reads through the async proxy.
     * Each writing thread fences its own writes, then the
     * barrier gathers them before the one thread stores. */
    fence_proxy_async_smem();
    named_bar_sync(BAR_STORE + cc->c, WG_THREADS, "epilogue");
    if (cc->leader) {
        tma_store_2d(&P->map_d, col0, row0, cc->sm->d + b * EPI_SUB_BYTES);
        tma_store_commit_group();
    }
    ++cc->stores;
}

/* ---- epilogue: accumulators -> bf16 -> swizzled smem -> TMA store -----------
 * Two D buffers, shared with the partner in turns (cooperative: a pair each; consumer_tiles
 * takes the turn around this call). */
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>
static __device__ __forceinline__ void epilogue_store(const kernel_params *P, consumer_ctx *cc,
                                                      float (*acc)[ACC_REGS], const work_unit *u)
{
    const int m0 = u->tile_m * BM + cc->part * 64 * WG_M_BLOCKS, n0 = u->tile_n * BN;   /* my rows */
    if (cc->lean || P->use_tma_store) {
        if (TILE_WGS == 1) cc->stores = 0;   /* sub-tiles stored in this turn: picks the D buffer */
#pragma unroll
        for (int mb = 0; mb < WG_M_BLOCKS; ++mb)
#pragma unroll
            for (int j = 0; j < EPI_CHUNKS; ++j)
                epilogue_store_subtile(P, cc, &acc[mb][EPI_REGS * j], m0 + 64 * mb, n0 + EPI_COLS * j);
        /* Hand the buffers over only once my stores have read them:
         * the partner's first st.shared would otherwise race the TMA
         * unit.  Only the committing thread can wait. */
        if (cc->leader && TILE_WGS == 1) tma_store_wait_read(0);   /* cooperative: mine alone */
    } else {
        /* N % 8 != 0: D's rows are not 16-byte aligned, which a tensor map
         * requires; write straight from the registers, masked.  D, M and N
         * in registers first: a store through D could, for all the compiler
         * knows, change *P, and it would reload them after every store. */
        __nv_bfloat16 *__restrict__ D = P->D;
        const int M = P->M, N = P->N;
#pragma unroll
        for (int mb = 0; mb < WG_M_BLOCKS; ++mb)
#pragma unroll
            for (int i = 0; i < ACC_REGS; i += 2)
                gemm_store_pair(D, M, N, m0 + 64 * mb + wgmma_acc_row(warpgroup_thread(), i),
                                n0 + wgmma_acc_col(warpgroup_thread(), i), acc[mb][i], acc[mb][i + 1]);
    }
}

/* Step past the unit a walk stands on, in the walk and in the ring: the
 * partner's unit, whose k-tiles are the next ones the producer loads. */
static __device__ __forceinline__ void skip_unit(const kernel_params *P, work_walk *w,
                                                 pipeline_state *read_state)
{
    if (!walk_valid(P, w)) return;
    const work_unit u = walk_unit(P, w);
    pipeline_advance_by(read_state, (uint32_t)(u.k_end - u.k_begin));
    walk_next(P, w);
}

/* ---- consumer role: every other unit of the walk, in turns with the partner --
 * Consumer c (warpgroup c + 1) takes units c, c+2, c+4 ... of this CTA's
 * walk.  The producer loads every unit in order, so c's pipeline states
 * start c units into the ring and skip the partner's unit after every one. */
/* Cooperative (TILE_WGS = 2, step 06's consumer): both take EVERY unit, its 64
 * rows `part` (128 accumulators each), every stage and epilogue together: no turns. */
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>
static __device__ __forceinline__ void consumer_tiles(const kernel_params *P, consumer_ctx *cc)
{
    if (cc->leader && P->use_tma_store) tma_prefetch_map(&P->map_d);

    /* Kick-off: consumer 0 goes first.  Consumer 1 opens consumer 0's two
     * turns once, as if it had just finished a tile before consumer 0's
     * first.  (The partner kicks, not consumer 0 itself: a warp must not
     * arrive on a barrier and then use the same id again before it
     * completed.) */
    if (TILE_WGS == 1 && cc->c == 1) {
#ifdef COURSE_DEBUG
        if (!PLANTED(cc->plant_bug, BUG_SKIP_NAMED_ARRIVE))
#endif
            pingpong_pass_turn(BAR_MMA, cc->c);
        pingpong_pass_turn(BAR_EPI, cc->c);
    }

    float acc[WG_M_BLOCKS][ACC_REGS];
    work_walk w = walk_start(P);
    if (TILE_WGS == 1 && cc->c == 1) skip_unit(P, &w, &cc->read_state);   /* consumer 1 skips 0's first */
    cc->release_state = cc->read_state;
    while (walk_valid(P, &w)) {
        const work_unit u = walk_unit(P, &w);
        /* Does the partner have a unit after this one?  If not, it has left
         * (or will): passing it a turn would leave an arrive nobody
         * matches, so skip it. */
        work_walk next = w;
        walk_next(P, &next);
        const int partner_next = TILE_WGS == 1 && walk_valid(P, &next);

        /* My turn on the tensor cores: the partner has issued its last
         * wgmma of the previous unit (or this is consumer 0's first). */
        if (TILE_WGS == 1) pingpong_wait_turn(BAR_MMA, cc->c, "pingpong mma");
        consumer_mainloop<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(cc, acc, &u, partner_next);
        /* Skip the partner's unit: my next one follows it in the ring. */
        w = next;
        if (TILE_WGS == 1) skip_unit(P, &w, &cc->read_state);
        cc->release_state = cc->read_state;

        /* The fixup, outside both turns: neither a writer's store nor an
         * owner's wait holds a barrier the partner needs (step 09's README); a
         * writer then takes its epilogue turn and passes it unused. */
        const int writes = fixup_piece<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(P, cc, acc, &u);
        if (writes || sk_unit_waits(&P->sk.plan, &u)) CLOCK_SPAN(cc->clk, cc->leader, TP_FIXUP, u.tile);

        /* The epilogue runs under the partner's mainloop, in its own turn (pingpong). */
        if (TILE_WGS == 1) pingpong_wait_turn(BAR_EPI, cc->c, "pingpong epilogue");
        CLOCK_SPAN(cc->clk, cc->leader, TP_CONSUMER_WAIT, cc->reads);
        if (cluster_unit_stores(&P->sched, &u) && !writes)   /* padding tiles and writers: nothing to store */
            epilogue_store<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(P, cc, acc, &u);
        if (partner_next) pingpong_pass_turn(BAR_EPI, cc->c);
        CLOCK_SPAN(cc->clk, cc->leader, TP_EPILOGUE, u.tile);
    }
    /* The last stores must have read shared memory before the CTA exits and
     * its shared memory goes to another CTA (and written D before the kernel
     * counts as done). */
    if (cc->leader && (cc->lean || P->use_tma_store)) tma_store_wait_all();
}

/* Barrier counts:
 *   full[s]  = 1: one arrival per phase, the producer's arrive.expect_tx.
 *     The data itself is counted in bytes, not arrivals: the phase
 *     completes when that arrival happened AND the tx-count is back to 0,
 *     i.e. every byte the producer announced has landed.  The TMA unit is
 *     not a thread and does not arrive.
 *   empty[s] = 2 (cooperative: 4): per CTA one warpgroup (or both) reads slot s (the
 *     same ring position: both CTAs walk the same cluster tiles), and one
 *     thread of it (thread 0) arrives on its own CTA's empty[s] and on
 *     the partner's, after the wgmma.wait_group that proved the
 *     warpgroup's wgmmas on the slot have finished reading it.  Both
 *     producers write slot s of both CTAs (A's halves), so each waits
 *     for both readers.  A wgmma is one operation of the whole
 *     warpgroup, so one thread's wait covers all four warps.  (CUTLASS's
 *     PipelineTmaAsync with clusters also counts one arrival per
 *     consumer warpgroup and CTA.) */
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>
static __device__ __forceinline__ void barriers_init(const smem_ring *sm, int stages)
{
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; ++s) {
            mbar_init(&sm->full[s], 1);
            mbar_init(&sm->empty[s], CLUSTER_SIZE * TILE_WGS);   /* cooperative: 4, both warpgroups read every slot */
        }
        named_bar_init();
        mbar_fence_init();
    }
}

/* ---- the CTA: roles, register split, barriers ---------------------------------
 * Warpgroup 0 produces, warpgroups 1..CONSUMER_WGS consume.  `traced` is a
 * constant in each of the two kernels below, so the one every timed launch
 * runs has no trace code in it at all (no timer reads, no calls, no branches
 * in the k loop).  So is `lean` (pingpong_kernel_lean, further below). */
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>
static __device__ __forceinline__ void gemm_cta(const kernel_params *P, const int traced, const int lean,
                                                const int cuts)
{
    const smem_config layout = SMEM_CONFIG;
    const smem_ring sm = smem_ring_carve(layout, P->stages);
    /* Role tests must be uniform per warp (and per warpgroup for wgmma and
     * setmaxnreg): read the warpgroup index through a shuffle so the
     * compiler knows. */
    const int wg = __shfl_sync(0xffffffffu, (int)threadIdx.x / WG_THREADS, 0);
    const uint32_t rank = cluster_ctarank();   /* 0 or 1: which tile and which half of A */

    barriers_init<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(&sm, P->stages);
    /* Nobody waits on, arrives at or TMA-signals an uninitialized barrier,
     * in this CTA or the partner's: the cluster-wide __syncthreads, its
     * arrive relaxed (mbar_fence_init released the init to the cluster). */
    cluster_sync_after_init();

    /* Timeline: one writer per warpgroup. */
    trace_clock clk = trace_clock_start(P->trace, wg, traced);

    if (wg == 0) {
        /* Give the registers back first (setmaxnreg is per warpgroup), then
         * one thread issues everything; the other 127 leave.  elect_one_sync
         * needs the whole warp, so warp 0 calls it before any lane is
         * excluded. */
        REGS_DEC(PRODUCER_REGS);
        if (threadIdx.x / 32 == 0 && elect_one_sync()) {
            producer_ctx pc = {.sm = &sm, .rank = rank, .write_state = pipeline_producer_start((uint32_t)P->stages),
                               .cuts = cuts, .clk = &clk, .plant_bug = P->plant_bug};
            producer_load_tiles<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(P, &pc);
        }
        return;
    }
    REGS_INC(CONSUMER_REGS);
    /* The one thread that releases slots and writes trace records.  tid == 0
     * rather than elect_one_sync(): the whole warpgroup reaches every use
     * together (the loop bounds are uniform), so any fixed thread serves, and
     * a constant test costs no instruction.  (elect.sync over a converged
     * warp also picks one fixed lane, lane 0 in practice; the PTX ISA
     * promises only that the choice is deterministic.)  The producer uses
     * elect_one_sync because its other lanes leave right after.  The same
     * thread issues the epilogue's TMA stores. */
    const pipeline_state first = pipeline_consumer_start((uint32_t)P->stages);
    const int tid = (int)threadIdx.x % WG_THREADS;   /* thread in the warpgroup */
    consumer_ctx cc = {.sm = &sm, .read_state = first, .release_state = first, .c = wg - 1,
                       .leader = tid == 0, .rank = rank, .lean = lean, .clk = &clk, .plant_bug = P->plant_bug};
    cc.part = (wg - 1) % TILE_WGS;   /* cooperative: consumer c computes rows part of every tile */
    consumer_tiles<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(P, &cc);
}

/* The kernel's one parameter, the struct above, is __grid_constant__: its
 * tensor maps are read where they lie, in parameter space. */
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE, int A_CUT>   /* A_CUT: MENU_CONFIG says */
__global__ void __launch_bounds__(THREADS, 1) pingpong_kernel(const __grid_constant__ kernel_params P)
{
    /* The rules that depend on the tile, checked for every configuration. */
    static_assert(A_STAGE_BYTES % SMEM_ALIGN == 0 && B_STAGE_BYTES % SMEM_ALIGN == 0,
                  "every A and B box must start on a 1024-byte swizzle atom");
    static_assert(STAGE_BYTES < (1 << 20), "an mbarrier's tx-count holds at most 2^20 - 1 bytes");
    static_assert(A_HALF_BYTES % SMEM_ALIGN == 0 && B_HALF_BYTES % SMEM_ALIGN == 0, "a CTA's half must start on an atom");
    static_assert(BN % EPI_COLS == 0, "BN must be a multiple of the 64-column store sub-tile");
    static_assert(PRODUCER_REGS >= 24 && PRODUCER_REGS % 8 == 0, "setmaxnreg: a multiple of 8, >= 24");
    static_assert(TILE_WGS == 1 || TILE_WGS == CONSUMER_WGS, "a tile is one warpgroup's, or all of theirs");
    static_assert(PARTIAL_BYTES * TILE_WGS == BM * BN * sizeof(float), "a CTA's partial: its tile in fp32");
    gemm_cta<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(&P, 0, 0, A_CUT);
}

/* The traced copy is a separate kernel rather than a branch inside one, so
 * the timed kernel's code and register allocation are untouched by tracing.
 * Its trace calls sit between wgmma issue and wait.  ptxas keeps the wgmmas
 * asynchronous across these (no C7510 message for this kernel), but not
 * across every call: in the DEBUG build, the bounded wait's call to
 * report_hang (which reaches printf) gets them serialized, with C7510
 * "wgmma pipeline crossing function boundary".  Check -Xptxas -v. */
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>
__global__ void __launch_bounds__(THREADS, 1)
pingpong_kernel_traced(const __grid_constant__ kernel_params P)
{
    gemm_cta<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(&P, 1, 0, 1);
}

/* The kernel every data-parallel launch with TMA stores runs (N % 8 == 0): the
 * same roles without stream-K's fixup and the masked stores, 1,152 instructions
 * where the full one has 1,992 (64x128).  After the harness's L2 flush the code
 * is in DRAM, and the code the full kernel jumps over still costs: at 1024^3 this
 * one is 0.28 us (4%) shorter (NOTES.md, "Session 14").  Traced runs trace the full one. */
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE, int A_CUT>
__global__ void __launch_bounds__(THREADS, 1) pingpong_kernel_lean(const __grid_constant__ kernel_params P)
{
    gemm_cta<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(&P, 0, 1, A_CUT);
}

/* ---- host: step 08's plan plus the stream-K plan, and the launch --------------
 * A plan that streams launches cooperatively: every CTA resident or the
 * launch fails (an owner spins on a writer's flag, which a CTA waiting for an
 * SM would never raise).  Whole tiles launch as step 08.  A variable template: one per configuration. */
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE, int A_CUT>
static const gemm_launch_desc LAUNCH = {
    .step = STEP_ID,
    .kernel = (const void *)pingpong_kernel<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE, A_CUT>,
    .kernel_traced = (const void *)pingpong_kernel_traced<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>,
    .threads = THREADS,
    .smem = SMEM_CONFIG,
    .min_stages = MIN_STAGES,
    .cluster = CLUSTER_SIZE,
    .cooperative = 1,   /* combines with the cluster dimension */
};
template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE, int A_CUT>   /* whole tiles stored by TMA: the lean kernel, not cooperative */
static const gemm_launch_desc LAUNCH_LEAN = {STEP_ID, (const void *)pingpong_kernel_lean<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE, A_CUT>,
    (const void *)pingpong_kernel_traced<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>, THREADS, SMEM_CONFIG, MIN_STAGES, CLUSTER_SIZE, 0};

/* ---- the menu: the kernel above at five tiles (why these five: NOTES.md, "The menu") ---- */
typedef struct {
    chooser_config c;                  /* its name, its tile (BM x BN), its k-tile time, TILE_WGS */
    const gemm_launch_desc *launch[3], *lean[3];   /* LAUNCH<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE, A_CUT>, LAUNCH_LEAN<...>:
                                                      [0] every box whole, [1] boxes cut (the edges, padding),
                                                      [2] the tile alone; [0] and [1] launch alike */
} menu_config;

/* A_CUT: every configuration's kernels come twice: every box whole (M and N whole numbers of tiles, an
 * even count: most of the bench's shapes) and boxes cut (the edges, a padding CTA's none), since the
 * tests cost 1.2% at 1024^3 (NOTES.md, "Session 24").
 * CLUSTER: 64 x 64 runs alone: where it wins (few tiles) the pair's start-up barrier costs more than
 * the A rows it would share save (512^3: 2-3%, NOTES.md "Session 15").  [2]: a pingpong pair (along N)
 * also comes alone, with the tests, for where its partner would compute only padding (chooser_cluster);
 * for 64x64 and the cooperative pair (along M, never sent alone) [2] is [1]. */
#define MENU_CONFIG(NAME, WG_M_BLOCKS, BN, TILE_WGS, CLUSTER, KT_US)                                \
    {{NAME, 64 * WG_M_BLOCKS * TILE_WGS, BN, KT_US, TILE_WGS},                                      \
     {&LAUNCH<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER, 0>, &LAUNCH<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER, 1>, \
      &LAUNCH<WG_M_BLOCKS, BN, TILE_WGS, TILE_WGS == 1 ? 1 : CLUSTER, 1>},                          \
     {&LAUNCH_LEAN<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER, 0>, &LAUNCH_LEAN<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER, 1>, \
      &LAUNCH_LEAN<WG_M_BLOCKS, BN, TILE_WGS, TILE_WGS == 1 ? 1 : CLUSTER, 1>}}
static const menu_config MENU[] = {
    MENU_CONFIG("64x64", 1, 64, 1, 1, CHOOSER_KT_US_64x64),   /* few tiles: twice 64x128's CTAs */
    MENU_CONFIG("64x128", 1, 128, 1, 2, CHOOSER_KT_US_64x128),
    MENU_CONFIG("128x128", 2, 128, 1, 2, CHOOSER_KT_US_128x128),
    MENU_CONFIG("128x192", 2, 192, 1, 2, CHOOSER_KT_US_128x192),
    MENU_CONFIG("128x256c", 1, 256, 2, 2, CHOOSER_KT_US_128x256c),   /* cooperative (its kernel keeps the name pingpong_kernel) */
};
#define MENU_SIZE ((int)(sizeof MENU / sizeof MENU[0]))

typedef struct {
    kernel_params P;
    int grid;                 /* the plan's units, in CTAs */
    size_t workspace;         /* bytes: a partial tile and a flag per CTA, if anything streams */
    const gemm_launch_desc *launch, *lean;   /* its configuration's */
} step_plan;

/* The harness allocates this once per run (after prepare). */
static size_t step_workspace_bytes(const gemm_operands *op)
{
    /* For every candidate (--tune runs them in turn): the largest partials, then the flags. */
    int most = 0;   /* elements of the menu's largest tile: a CTA's partial is its tile in fp32 */
    for (int c = 0; c < MENU_SIZE; ++c) most = MENU[c].c.bm * MENU[c].c.bn > most ? MENU[c].c.bm * MENU[c].c.bn : most;
    return ((size_t)most * sizeof(float) + CONSUMER_WGS * sizeof(uint32_t)) * op->num_sms;
}

/* What the plan does, once per run (not per rotation set). */
static void stream_k_plan_print(const step_plan *p)
{
    static int told = 0;
    const sk_plan *s = &p->P.sk.plan;
    if (told++) return;
    printf("stream-K plan: %d cluster tiles x %d k-tiles on %d clusters: %d streamed "
           "(%d-%d k-tiles per cluster), %d data-parallel; workspace %zu bytes\n",
           s->tiles, s->kt, s->units, s->sk_tiles, s->sk_base, s->sk_base + (s->sk_extra > 0),
           s->tiles - s->sk_tiles, p->workspace);
}

/* Boxes stop at the matrix's edge.  Rows past M (N) cost TMA time though they bring zeros, more
 * than real rows: a pair forced at 8192 x N x 4096 took 43.7 us at N = 136 and 28.1 at N = 256, for
 * less work (128x128/dp: experiments/edge_box; NOTES.md, sessions 19-25).  So the last tile column's
 * own box (B; the cooperative pair's own box is A, in its last tile row) asks for the edge's rows
 * rounded up to a swizzle atom (8), through a second map, and in the last tile row the shared box (A;
 * the cooperative's B, in its last column) the same through a third: the rank whose half the edge
 * cuts loads those rows, a rank whose half lies wholly past it loads none.  Each CTA still receives
 * every rank's share through the multicast.  The slot's rows past the edge keep old bytes; the MMAs
 * make accumulator rows past M (columns past N) from them, and no store writes those.
 * This function: a box of `rows` rows (of `extent`, K long) for the tile at the edge, its map and its bytes. */
static uint32_t encode_edge_box(CUtensorMap *map, const void *t, int extent, int k, int rows, const char *what)
{
    const tma_2d_desc d = tma_2d_bf16_row_major(t, (uint64_t)extent, (uint64_t)k, rows, BK, TMA_SWIZZLE_128B);
    tma_encode_or_exit(map, &d, STEP_ID, what);
    return tma_box_bytes_bf16(&d);
}

/* T cluster tiles of KT k-tiles on U co-resident clusters, the chooser's plan.  Whole
 * tiles keep step 08's grid (min(T, U)) and walk; a plan that streams may
 * use more clusters: the walk table is built for the plan's grid, once. */
static step_plan *config_prepare(const gemm_operands *op, const menu_config *m, const chooser_estimate *e)
{
    const int TILE_WGS = m->c.tile_wgs, WG_M_BLOCKS = m->c.bm / 64 / TILE_WGS, BN = m->c.bn;   /* for BM, ... */
    const int CLUSTER_SIZE = e->cluster, alone = CLUSTER_SIZE < m->launch[0]->cluster;   /* chooser_cluster's */
    step_plan *p = (step_plan *)gemm_plan_alloc(sizeof *p, STEP_ID);
    kernel_params *P = &p->P;
    /* Boxes stop at the matrix's edge: encode_edge_box says why. */
    gemm_encode_ab(&P->map_a, &P->map_b, op, A_HALF_ROWS, B_HALF_ROWS, BK);   /* the boxes each CTA loads */
    const int own_rows = SHARE_B ? A_HALF_ROWS : B_HALF_ROWS, left = SHARE_B ? op->m % BM : op->n % BN;
    const int edge_rows = left ? (left + 7) / 8 * 8 : own_rows;
    P->edge_tx = encode_edge_box(&P->map_edge, SHARE_B ? op->a : op->b, SHARE_B ? op->m : op->n, op->k, edge_rows,
                                 SHARE_B ? "A at its edge" : "B at its edge");
    /* The last tile row's (column's) rows of the shared box: the edge tests the tile, not the shape, so
     * where they are whole the last rank loads its half whole through map_shared_edge. */
    const int half = SHARE_B ? B_HALF_ROWS : A_HALF_ROWS, shared_left = SHARE_B ? op->n % BN : op->m % BM;
    const int last_rows = shared_left ? shared_left : SHARE_B ? BN : BM;
    P->shared_edge_rank = (uint32_t)(last_rows - 1) / half;   /* the rank whose half the edge cuts */
    const int shared_rows = (last_rows - (int)P->shared_edge_rank * half + 7) / 8 * 8;
    P->shared_edge_tx = P->shared_edge_rank * half * BK * 2 +   /* the ranks before it whole */
                        encode_edge_box(&P->map_shared_edge, SHARE_B ? op->b : op->a, SHARE_B ? op->n : op->m, op->k,
                                        shared_rows, SHARE_B ? "B at its edge" : "A at its edge");
    P->use_tma_store = gemm_encode_d(&P->map_d, op, EPI_ROWS, EPI_COLS);
    P->D = op->d;
    P->M = op->m;
    P->N = op->n;
    P->k_tiles = (op->k + BK - 1) / BK;
    P->stages = op->stages;
    P->sched = cluster_sched_make(op->m, op->n, BM, BN, CLUSTER_SIZE, !SHARE_B, op->group,
                                  op->num_sms / CLUSTER_SIZE);
    static_assert((int)GEMM_MODE_DP == (int)SK_MODE_DP && (int)GEMM_MODE_SK == (int)SK_MODE_SK,
                  "--mode values are the scheduler's");
    static_assert((int)GEMM_MODE_CAP == (int)CHOOSER_MODE_CAP, "--mode cap is the chooser's");
    const int odd = CLUSTER_SIZE == 2 && (SHARE_B ? P->sched.tiles_m : P->sched.tiles_n) % 2;   /* a padding tile */
    const int which = alone ? 2 : shared_left || left || odd;   /* m->launch[] and lean[] */
    const int units = gemm_persistent_grid(m->launch[which], op, 1 << 28) / CLUSTER_SIZE;
    P->sk.plan = e->plan;   /* the chooser's, the one --explain printed: it must be this launch's */
    if (e->plan.tiles != P->sched.sched.num_tiles || e->plan.kt != P->k_tiles || e->plan.units > units)
        fprintf(stderr, "step%s: the chooser's plan does not fit the launch\n", STEP_ID), exit(EXIT_WRONG);
    p->grid = P->sk.plan.units * CLUSTER_SIZE;
    cluster_walk_params(m->launch[which], op, p->grid, P->walk_start, (int)(sizeof P->walk_start / sizeof P->walk_start[0]));
    p->workspace = P->sk.plan.sk_tiles ? p->grid * TILE_WGS * (PARTIAL_BYTES + sizeof(uint32_t)) : 0;
    p->launch = m->launch[which];
    p->lean = m->lean[which];
    op->report->cluster = CLUSTER_SIZE;
    op->report->config = m->c.name;
    op->report->stages = op->stages;
    /* The CSV's mode column: what runs, auto's choice resolved. */
    op->report->mode = chooser_plan_name(e);
    stream_k_plan_print(p);
    return p;
}

static void step_release(void *plan)
{
    gemm_plan_free(plan);
}

static void step_launch(const gemm_operands *op, cudaStream_t stream)
{
    static gemm_launch_desc whole;   /* LAUNCH without the cooperative attribute */
    whole = *((const step_plan *)op->plan)->launch;   /* gemm_launch sets up each kernel once, whatever its descriptor */
    whole.cooperative = 0;
    step_plan *p = (step_plan *)op->plan;
    kernel_params *P = &p->P;
    P->trace = op->trace;
    P->trace.cta_b = 1;   /* a timeline shows the two CTAs of cluster 0 */
    P->plant_bug = op->plant_bug;
    /* partials first, flags after them; the harness's launch number */
    P->sk.partials = (float4 *)op->workspace;
    P->sk.flags = (uint32_t *)((char *)op->workspace + op->workspace_bytes) - CONSUMER_WGS * op->num_sms;
    P->sk.epoch = op->epoch;
    gemm_operands o = *op;   /* with the plan's ring: --stages, or the most its configuration fits */
    o.stages = P->stages;
    gemm_launch(P->sk.plan.sk_tiles ? p->launch : P->use_tma_store ? p->lean : &whole, &o, p->grid, P, stream);
}

/* ---- the chooser's host side: the candidates at these operands (--config and --mode narrow them) */
static int menu_estimates(const gemm_operands *op, chooser_estimate *e)
{
    static chooser_config cfg[MENU_SIZE];
    static chooser_device dev;
    if (!dev.ctas) {
        gemm_operands o = *op;
        o.stages = gemm_stages_that_fit(MENU[0].launch[0], op->smem_optin, SMEM_LAYOUT_MAX_STAGES);
        const chooser_device d = {gemm_persistent_grid(MENU[0].launch[0], &o, 1 << 28),   /* one CTA per SM, any tile */
                                  (double)op->l2_bytes, op->dram_gbs};
        dev = d;
        for (int c = 0; c < MENU_SIZE; ++c) {
            cfg[c] = MENU[c].c, cfg[c].cluster = MENU[c].launch[0]->cluster;
            cfg[c].stages = op->stages ? op->stages : gemm_stages_that_fit(MENU[c].launch[0], op->smem_optin, SMEM_LAYOUT_MAX_STAGES);
        }
    }
    return chooser_candidates(op->m, op->n, op->k, cfg, MENU_SIZE, op->config, op->mode, &dev, e);
}

static const char *menu_config_name(int c) { return MENU[c].c.name; }

/* How many candidates; with buf, candidate i's name. */
static int menu_candidates(const gemm_operands *op, int i, char *buf, size_t len)
{
    chooser_estimate e[CHOOSER_MAX_CANDIDATES];
    const int n = menu_estimates(op, e);
    if (buf) snprintf(buf, len, "%s/%s", MENU[e[i].config].c.name, chooser_plan_name(&e[i]));
    return n;
}

/* --explain: every candidate's reasons, then the model's choice. */
static void menu_explain(const gemm_operands *op)
{
    chooser_estimate e[CHOOSER_MAX_CANDIDATES];
    const int n = menu_estimates(op, e), pick = chooser_pick(e, n);
    printf("explain: %-17s %6s %6s %5s %6s %8s %5s %8s %8s %8s\n", "candidate", "tiles", "waves", "fill",
           "B/MAC", "busiest", "power", "kt us", "DRAM us", "pred us");
    for (int i = 0; i < n; ++i)
        printf("explain: %8s/%-8s %6d %6.2f %5.2f %6.4f %8lld %5.2f %8.3f %8.1f %8.1f%s%s\n",
               MENU[e[i].config].c.name, chooser_plan_name(&e[i]), e[i].tiles, e[i].waves,
               e[i].last_wave_fill, e[i].bytes_per_mac, e[i].busiest_kt, e[i].power, e[i].kt_us,
               e[i].t_dram_us, e[i].t_us, e[i].cluster < MENU[e[i].config].launch[0]->cluster ? "  alone" : "",
               i == pick ? "  <- the model's choice" : "");
}

/* The candidate the harness names (--tune's, or the tuning cache's), else the
 * model's; its configuration's prepare, with the most stages it fits unless --stages. */
static void *step_prepare(const gemm_operands *op)
{
    chooser_estimate e[CHOOSER_MAX_CANDIDATES];
    const int n = menu_estimates(op, e);
    const int i = op->candidate >= 0 ? op->candidate : chooser_pick(e, n);
    const menu_config *m = &MENU[e[i].config];
    gemm_operands o = *op;
    o.launch = m->launch[0];
    if (!o.stages) {   /* the ring the model priced: chooser_ring */
        chooser_config c = m->c;
        c.stages = gemm_stages_that_fit(m->launch[0], op->smem_optin, SMEM_LAYOUT_MAX_STAGES);
        o.stages = chooser_ring(&c, &e[i]);
    }
    return config_prepare(&o, m, &e[i]);
}

int main(int argc, char **argv)
{
    static const gemm_menu menu = {MENU_SIZE, menu_config_name, menu_candidates, menu_explain};
    char summary[320] = "autotuned GEMM: step 09's kernel (clusters of 2 sharing A, B for 128x256c; 64x64 alone; stream-K), tiles:";
    for (int c = 0; c < MENU_SIZE; ++c) strcat(strcat(summary, " "), MENU[c].c.name);   /* 320: room to spare */
    strcat(summary, "; chosen by a model, the cache or --tune");
    const gemm_step step = {
        .step = STEP_ID,
        .name = "autotune",
        .summary = summary,
        .variant = "autotune_cluster2",
        .min_stages = MIN_STAGES,
        .max_stages = MAX_STAGES,
        .default_stages = DEFAULT_STAGES,
        .need = {9, 0, 1, "wgmma, setmaxnreg and TMA need an sm_90a (Hopper H100/H200) GPU"},
        .prepare = step_prepare,
        .release = step_release,
        .launch = step_launch,
        .trace_units = 1 + CONSUMER_WGS,
        .trace_unit_kind = "warpgroup",
        .has_group = 1,
        .workspace_bytes = step_workspace_bytes,
        .has_mode = 1,
        .plant_bugs = (1u << BUG_PRODUCER_PHASE0) | (1u << BUG_SKIP_COMMIT) | (1u << BUG_SKIP_RELEASE) |
                      (1u << BUG_SKIP_NAMED_ARRIVE) | (1u << BUG_SKIP_REMOTE_RELEASE) |
                      (1u << BUG_SKIP_FLAG),
        .menu = &menu,
    };
    return gemm_main(argc, argv, &step);
}
