/* step06_persistent — a persistent warp-specialized GEMM: one CTA per SM
 * walks many output tiles, its producer never stops loading, and each tile
 * leaves through shared memory and one TMA store.
 *
 *   D[M x N] = A[M x K] . B[N x K]^T    bf16 in, fp32 accumulate, bf16 out
 *
 * Concept.  Step 05 launched one CTA per tile.  Every CTA paid, with its
 * tensor cores idle, for (1) filling its pipeline (the first TMA round trip)
 * and (2) its epilogue, and the next CTA on that SM could not start loading
 * before this one exited.  This step launches min(#tiles, #SMs) CTAs and
 * lets each one loop over tiles:
 *
 *   - tile scheduler (persistent_schedule.h): CTA b takes work indices b, b+G,
 *     b+2G ...; each index maps to a tile in grouped raster order;
 *   - the pipeline state is never reset between tiles: the producer goes on
 *     filling the ring with the NEXT tile's k-tiles while the consumers are
 *     still finishing this one, so the next tile starts with a full ring and
 *     its loads run under this tile's epilogue;
 *   - register reallocation (regs.cuh): the producer warpgroup gives back
 *     registers (setmaxnreg.dec 40), the consumers take them (232);
 *   - TMA-store epilogue: accumulators -> bf16 -> a shared-memory buffer of
 *     the epilogue's own (never the A/B ring, which is already refilling)
 *     -> one TMA store per 64 x 64 sub-tile, issued by one thread.  TMA
 *     clips at the matrix edges, so no masks.
 *
 *   producer (WG 0, 1 thread)          consumers (WG 1, WG 2)
 *   for each tile of this CTA:         for each tile of this CTA:
 *     for each k-tile:                   for each k-tile: wait full, 4 wgmma,
 *       acquire empty, expect_tx,          release the previous slot
 *       TMA A, TMA B                     drain; epilogue: 4 x (regs -> smem
 *   (runs up to S k-tiles ahead,           sub-tile, proxy fence, bar, TMA store)
 *    across tile boundaries)
 *
 * What changed from step 05 (one CTA per tile):
 *
 *   step 05                               step 06
 *   ------------------------------------  ---------------------------------------
 *   grid = #tiles, one tile per CTA       grid = min(#tiles, #SMs), a tile loop
 *   grouped_tile_coords(blockIdx.x, ..8)  persistent_schedule.h: walk + grouped raster,
 *                                         --group, raster along M or N by shape
 *   pipeline state born and dead per CTA  carried across tiles, never reset
 *   168 registers for every warp          setmaxnreg: producer 40, consumers 232
 *   accumulators zeroed, then +=          first wgmma of a tile overwrites (scale-d 0)
 *   epilogue: masked global stores        regs -> swizzled smem -> TMA store
 *                                         (masked stores only when N % 8 != 0)
 *   4 stages, ring only                   stages from the budget left after the
 *                                         epilogue buffer (smem_layout.h)
 *
 * Kept from step 05: the 128 x 256 x 64 tile, one producer thread and two
 * consumer warpgroups that cooperate on one tile (64 rows each), the
 * full/empty protocol and the one-k-tile-late release.
 *
 * Build and run (sm_90a only):
 *   make step06
 *   ./build/step06_persistent --m 4096 --n 4096 --k 4096
 *   ./build/step06_persistent --m 4096 --n 4096 --k 4096 --group 1
 *   ./build/step06_persistent --m 1000 --n 1000 --k 1000 --trace /tmp/t06.csv
 *   make diff STEP=06
 */
#include <cuda.h>

#include "gemm.cuh"
#include "mbarrier.cuh"
#include "named_barrier.cuh"
#include "pipeline_state.h"
#include "epilogue.cuh"
#include "regs.cuh"
#include "smem_layout.h"
#include "persistent_schedule.h"
#include "tma.h"
#include "tma.cuh"
#include "wgmma.cuh"
#include "wgmma_desc.h"

/* ---- tile shape ------------------------------------------------------------
 * 128 x 256 x 64 per tile: two consumer warpgroups, each owning a 64 x 256
 * block of D = one m64n256k16 accumulator, 128 fp32 registers per thread.
 * Why this shape (step 05's README.md, "Choosing the tile"):
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
 *     registers from the producer to the consumers: setmaxnreg, below. */
#define CONSUMER_WGS 2
#define WG_M_BLOCKS 1                           /* m64 blocks per consumer warpgroup */
#define WG_THREADS 128                          /* 4 warps: one warpgroup */
#define WG_ROWS (64 * WG_M_BLOCKS)              /* rows of D per consumer WG */
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
#define wgmma_tile_k16 wgmma_m64n256k16_bf16    /* one m64 block's k16 step */

/* ---- register split ----------------------------------------------------------
 * 384 threads at __launch_bounds__(384, 1): ptxas caps every thread at 168.
 * The producer needs ~30 (addresses, loop counters); give it the minimum
 * that leaves room for them and hand the rest to the consumers:
 * 128 x 40 + 256 x 232 = 64512 = 384 x 168 (regs.cuh).  At this tile the
 * consumers do not need the extra registers yet (built without the split:
 * 161, no spill; step07_pingpong/experiments/regs_split.log); the split is
 * the pattern, and it becomes necessary with more accumulators per thread
 * (step 07's 128 x 192 tile). */
#define PRODUCER_REGS 40
#define CONSUMER_REGS 232
static_assert(WG_THREADS * PRODUCER_REGS + CONSUMER_WGS * WG_THREADS * CONSUMER_REGS <=
                  THREADS * 168, "the consumers may take only what the producer gave back");

/* ---- the epilogue's own shared memory ---------------------------------------
 * A tile leaves as 64 x 64 sub-tiles: each consumer warpgroup converts 64
 * columns of its 64 x 256 block to bf16, writes them to a buffer in the
 * SWIZZLE_128B layout (64 bf16 = 128 B rows: bank-conflict free, see
 * sw128_offset_bf16), and one thread stores the buffer with TMA.  Two
 * buffers per warpgroup: the warpgroup fills one while the TMA unit reads
 * the other.  2 x 2 x 8 KiB = 32 KiB, so four 48 KiB stages still fit in
 * 227 KiB (a whole 64 KiB tile buffer would leave room for three). */
#define EPI_COLS 64                             /* one 128-byte swizzle row of bf16 */
#define EPI_ROWS 64                             /* one consumer warpgroup's rows */
#define EPI_SUB_BYTES (EPI_ROWS * EPI_COLS * 2) /* 8 KiB per sub-tile buffer */
#ifndef EPI_BUFS
#define EPI_BUFS 2                              /* per consumer warpgroup */
#endif
#define EPI_BYTES (CONSUMER_WGS * EPI_BUFS * EPI_SUB_BYTES)   /* 32 KiB */
#define EPI_CHUNKS (BN / EPI_COLS)              /* 4 sub-tiles per warpgroup per tile */
#define EPI_REGS (ACC_REGS / EPI_CHUNKS)        /* 32 accumulators per sub-tile */

/* Named barriers (named_barrier.cuh).  Id 0 is __syncthreads'.  One id per
 * consumer warpgroup c = 0, 1 (warpgroups 1, 2): the base plus c. */
enum {
    BAR_STORE = 1    /* 1 + c: inside consumer c's epilogue, its 128 threads */
};

/* ---- shared memory (common/smem_layout.h: the one layout) -------------------
 * A stage is 48 KiB of boxes plus its full and empty mbarriers (8 bytes
 * each); SMEM_LAYOUT_ALIGN bytes of slack round the base up to 1024, the
 * swizzle atom every box must start on (smem_layout.h says why).  The
 * --stages range is sized for the shared memory one CTA may opt in to on an
 * H100 or H200, 227 KiB (the device attribute
 * cudaDevAttrMaxSharedMemoryPerBlockOptin on both; CUDA C++ Programming
 * Guide, compute capability 9.0: 228 KiB per SM, 227 KiB per block).  The
 * launcher checks the requested ring against the attribute of the device it
 * runs on (gemm_operands.smem_optin) and refuses what does not fit.  The
 * epilogue buffers come off the top: the ring gets what they leave.
 * The D buffers are the epilogue's alone: the A/B ring is being refilled with
 * the next tile's k-tiles while the epilogue runs, so it cannot double as
 * the output staging area the way it could in a one-tile-per-CTA kernel. */
#define SMEM_CONFIG {A_STAGE_BYTES, B_STAGE_BYTES, EPI_BYTES}   /* D: 4 x 8 KiB */
#define H100_SMEM_OPTIN (227 * 1024)
/* 2: the release runs one k-tile late (wgmma_wait_group(1) below), so one slot
 * is always held by the wgmmas in flight and the producer needs another. */
#define MIN_STAGES 2
/* At most 8, step 03's ceiling; with 48 KiB stages and 32 KiB of epilogue
 * buffers the budget decides: 4. */
#define MAX_STAGES gemm_stages_that_fit(&LAUNCH, H100_SMEM_OPTIN, SMEM_LAYOUT_MAX_STAGES)
#define DEFAULT_STAGES MAX_STAGES
#define STEP_ID "06"                           /* the step's number, in messages too */

static_assert(A_STAGE_BYTES % SMEM_ALIGN == 0 && B_STAGE_BYTES % SMEM_ALIGN == 0,
              "every A and B box must start on a 1024-byte swizzle atom");
static_assert(SMEM_ALIGN == SMEM_LAYOUT_ALIGN, "the layout rounds the base to the swizzle atom");
static_assert(BK * 2 == WGMMA_SW128_ROW_BYTES, "a k-tile row must be one 128-byte swizzle row");
static_assert(EPI_SUB_BYTES % SMEM_ALIGN == 0, "every D buffer must start on a swizzle atom");
static_assert(EPI_COLS * 2 == WGMMA_SW128_ROW_BYTES, "an epilogue row must be one swizzle row");
static_assert(STAGE_BYTES < (1 << 20), "an mbarrier's tx-count holds at most 2^20 - 1 bytes");

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
    tile_sched sched;                  /* the grouped raster (persistent_schedule.h) */
    int use_tma_store;                 /* 1: N % 8 == 0 (16-byte D rows), 0: masked stores */
    trace_ctx trace;                   /* tracing off unless --trace (recs == NULL) */
    int plant_bug;                     /* DEBUG builds: --plant-bug, else 0 */
} kernel_params;

/* ---- the scheduler: this CTA's work units -----------------------------------
 * A work unit is {tile, its coordinates, a range of k-tiles}
 * (persistent_schedule.h).  Here every unit is a whole tile, k-tiles
 * 0 .. k_tiles: CTA b takes work indices b, b + G, b + 2G ... (G = the
 * grid), each a tile in grouped raster order.  The roles ask only these
 * four questions, so a later step changes what the walk hands out, never
 * the roles (step 09). */
typedef tile_walk work_walk;

static __device__ __forceinline__ work_walk walk_start(const kernel_params *P)
{
    return tile_walk_start((int)blockIdx.x, (int)gridDim.x);
}

static __device__ __forceinline__ int walk_valid(const kernel_params *P, const work_walk *w)
{
    return tile_walk_valid(&P->sched, w);
}

static __device__ __forceinline__ void walk_next(const kernel_params *P, work_walk *w)
{
    tile_walk_advance(w, 1);
}

static __device__ __forceinline__ work_unit walk_unit(const kernel_params *P, const work_walk *w)
{
    return persistent_unit(&P->sched, w->idx, P->k_tiles);
}

/* ---- role contexts: what each role reads and carries from unit to unit ------
 * Passed by pointer; everything is inlined, so the fields live in registers
 * like the loose variables they replace. */
typedef struct {
    const smem_ring *sm;
    pipeline_state write_state;   /* the next slot to fill: never reset between units */
    int loads;                    /* k-tiles issued by this CTA (planted bug, trace) */
    trace_clock *clk;
    int plant_bug;
} producer_ctx;

typedef struct {
    const smem_ring *sm;
    pipeline_state read_state;    /* the next slot to wait for */
    pipeline_state release_state; /* the slot to hand back, one k-tile behind */
    int c;                        /* consumer warpgroup 0 or 1 (warpgroup c + 1) */
    int leader;                   /* 1 in the one thread that releases slots and stores (thread 0) */
    int reads;                    /* k-tiles consumed by this warpgroup (trace, planted bug) */
    int stores;                   /* sub-tiles stored by this warpgroup: picks the D buffer */
    trace_clock *clk;
    int plant_bug;
} consumer_ctx;

/* ---- producer: one thread loads every k-tile of every tile -------------------
 * The other 127 threads of warpgroup 0 have nothing to do and have left
 * (gemm_cta).  write_state walks the ring: acquire a free slot, announce the
 * bytes, issue the two TMA boxes.  The thread walks this CTA's tiles and
 * their k-tiles as ONE sequence: the ring does not know where a tile ends. */
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
    for (work_walk w = walk_start(P); walk_valid(P, &w); walk_next(P, &w)) {
        const work_unit u = walk_unit(P, &w);
        producer_load_tile(P, pc, &u);
    }
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
    /* scale-d = 0 on a unit's first k16 step (accumulate = 0): D = A.B overwrites
     * whatever the registers held (the previous tile's results), so
     * no zeroing pass is needed. */
#pragma unroll
    for (int kk = 0; kk < KSTEPS; ++kk)
#pragma unroll
        for (int mb = 0; mb < WG_M_BLOCKS; ++mb) {
            const uint64_t da = wgmma_desc_k_major_sw128(
                a_base + slot * A_STAGE_BYTES + mb * 64 * WGMMA_SW128_ROW_BYTES);
            wgmma_tile_k16(acc[mb], wgmma_desc_advance(da, kk * WGMMA_K16_BYTES),
                           wgmma_desc_advance(db, kk * WGMMA_K16_BYTES), accumulate || kk > 0);
        }
    wgmma_commit_group();
}

/* ---- consumer mainloop: one unit's k-tiles through the ring -----------------
 * Consumer warpgroup c computes rows 64c .. 64c + 63 of the tile against
 * all 256 columns: A rows 64c.. of each A box (64 rows x 128 B = 8 KiB
 * further: a whole number of atoms), the whole B box.  read_state is the
 * slot to wait for, release_state the slot to hand back (one behind); both
 * run on across tiles exactly like the producer's.
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

        consumer_mma_slot(cc, acc, kt > u->k_begin);
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
    pipeline_advance(release_state);
}

/* One 64 x 64 sub-tile through a D buffer: registers -> bf16 -> swizzled
 * shared memory -> one TMA store at (row0, col0).  acc_sub: its EPI_REGS
 * accumulators (sub-tile j of m64 block mb = columns 64j .. 64j+63 =
 * accumulators 32j .. 32j+31 of acc[mb]; wgmma_acc_col: register i is in
 * column 8(i/4) + ...).  cc->stores picks the buffer. */
static __device__ __forceinline__ void epilogue_store_subtile(const kernel_params *P, consumer_ctx *cc,
                                                              const float *acc_sub, int row0, int col0)
{
    const uint32_t d_base = cc->sm->d + (uint32_t)cc->c * EPI_BUFS * EPI_SUB_BYTES;
    unsigned char *d_ptr = cc->sm->d_ptr + (size_t)cc->c * EPI_BUFS * EPI_SUB_BYTES;
    const int b = cc->stores % EPI_BUFS;
    /* WAR on the buffer: the store issued from it two sub-tiles
     * ago must have finished READING it.  Only the thread that
     * committed a bulk group can wait for it, so the leader
     * waits and a barrier tells the other 127 threads. */
    if (cc->leader) tma_store_wait_read(EPI_BUFS - 1);
    named_bar_sync(BAR_STORE + cc->c, WG_THREADS, "epilogue");
    unsigned char *buf = d_ptr + b * EPI_SUB_BYTES;
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
        tma_store_2d(&P->map_d, col0, row0, d_base + b * EPI_SUB_BYTES);
        tma_store_commit_group();
    }
    ++cc->stores;
}

/* ---- epilogue: accumulators -> bf16 -> swizzled smem -> TMA store ----------- */
static __device__ __forceinline__ void epilogue_store(const kernel_params *P, consumer_ctx *cc,
                                                      float (*acc)[ACC_REGS], const work_unit *u)
{
    const int m0 = u->tile_m * BM + cc->c * WG_ROWS, n0 = u->tile_n * BN;   /* this warpgroup's rows */
    if (P->use_tma_store) {
#pragma unroll
        for (int mb = 0; mb < WG_M_BLOCKS; ++mb)
#pragma unroll
            for (int j = 0; j < EPI_CHUNKS; ++j)
                epilogue_store_subtile(P, cc, &acc[mb][EPI_REGS * j], m0 + 64 * mb, n0 + EPI_COLS * j);
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

/* ---- consumer role: every unit of the walk through mainloop and epilogue ----
 * Both warpgroups take every unit of this CTA's walk, in the producer's
 * order (64 rows each). */
static __device__ __forceinline__ void consumer_tiles(const kernel_params *P, consumer_ctx *cc)
{
    if (cc->leader && P->use_tma_store) tma_prefetch_map(&P->map_d);
    float acc[WG_M_BLOCKS][ACC_REGS];
    for (work_walk w = walk_start(P); walk_valid(P, &w); walk_next(P, &w)) {
        const work_unit u = walk_unit(P, &w);
        consumer_mainloop(cc, acc, &u);
        epilogue_store(P, cc, acc, &u);
        CLOCK_SPAN(cc->clk, cc->leader, TP_EPILOGUE, u.tile);
    }
    /* The last stores must have read shared memory before the CTA exits and
     * its shared memory goes to another CTA (and written D before the kernel
     * counts as done). */
    if (cc->leader && P->use_tma_store) tma_store_wait_all();
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
        named_bar_init();
        mbar_fence_init();
    }
}

/* ---- the CTA: roles, register split, barriers ---------------------------------
 * Warpgroup 0 produces, warpgroups 1..CONSUMER_WGS consume.  `traced` is a
 * constant in each of the two kernels below, so the one every timed launch
 * runs has no trace code in it at all (no timer reads, no calls, no branches
 * in the k loop). */
static __device__ __forceinline__ void gemm_cta(const kernel_params *P, const int traced)
{
    const smem_config layout = SMEM_CONFIG;
    const smem_ring sm = smem_ring_carve(layout, P->stages);
    /* Role tests must be uniform per warp (and per warpgroup for wgmma and
     * setmaxnreg): read the warpgroup index through a shuffle so the
     * compiler knows. */
    const int wg = __shfl_sync(0xffffffffu, (int)threadIdx.x / WG_THREADS, 0);

    barriers_init(&sm, P->stages);
    __syncthreads();   /* nobody waits on, arrives at or TMA-signals an uninitialized barrier */

    /* Timeline: one writer per warpgroup. */
    trace_clock clk = trace_clock_start(P->trace, wg, traced);

    if (wg == 0) {
        /* Give the registers back first (setmaxnreg is per warpgroup), then
         * one thread issues everything; the other 127 leave.  elect_one_sync
         * needs the whole warp, so warp 0 calls it before any lane is
         * excluded. */
        REGS_DEC(PRODUCER_REGS);
        if (threadIdx.x / 32 == 0 && elect_one_sync()) {
            producer_ctx pc = {.sm = &sm, .write_state = pipeline_producer_start((uint32_t)P->stages),
                               .clk = &clk, .plant_bug = P->plant_bug};
            producer_load_tiles(P, &pc);
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
                       .leader = tid == 0, .clk = &clk, .plant_bug = P->plant_bug};
    consumer_tiles(P, &cc);
}

/* The kernel's one parameter, the struct above, is __grid_constant__: its
 * tensor maps are read where they lie, in parameter space. */
__global__ void __launch_bounds__(THREADS, 1) persistent_kernel(const __grid_constant__ kernel_params P)
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
__global__ void __launch_bounds__(THREADS, 1)
persistent_kernel_traced(const __grid_constant__ kernel_params P)
{
    gemm_cta(&P, 1);
}

/* ---- host: the plan and the launch (the glue is common/gemm_launch.cuh) ------
 * This step names its kernels, its tile and its shared memory, and fills
 * its kernel_params once per input set: three tensor maps, the raster, the
 * grid.  Each launch stamps the per-launch fields and launches. */
static const gemm_launch_desc LAUNCH = {
    .step = STEP_ID,
    .kernel = (const void *)persistent_kernel,
    .kernel_traced = (const void *)persistent_kernel_traced,
    .threads = THREADS,
    .smem = SMEM_CONFIG,
    .min_stages = MIN_STAGES,
    .cluster = 1,
};

typedef struct {
    kernel_params P;
    int grid;                 /* min(tiles, SMs) */
} step_plan;

static void *step_prepare(const gemm_operands *op)
{
    step_plan *p = (step_plan *)gemm_plan_alloc(sizeof *p, STEP_ID);
    kernel_params *P = &p->P;
    gemm_encode_ab(&P->map_a, &P->map_b, op, BM, BN, BK);
    P->use_tma_store = gemm_encode_d(&P->map_d, op, EPI_ROWS, EPI_COLS);
    P->D = op->d;
    P->M = op->m;
    P->N = op->n;
    P->k_tiles = (op->k + BK - 1) / BK;
    P->stages = op->stages;
    P->sched = gemm_persistent_sched(op, BM, BN);
    p->grid = gemm_persistent_grid(&LAUNCH, op, P->sched.num_tiles);
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
    snprintf(variant, sizeof variant, "%dx%dx%d_persistent", BM, BN, BK);
    snprintf(summary, sizeof summary,
             "persistent warp-specialized GEMM: one CTA per SM walks tiles in grouped raster "
             "order, setmaxnreg %d/%d, TMA-store epilogue (%s)", PRODUCER_REGS, CONSUMER_REGS,
             variant);
    const gemm_step step = {
        .step = STEP_ID,
        .name = "persistent",
        .summary = summary,
        .variant = variant,
        .min_stages = MIN_STAGES,
        .max_stages = MAX_STAGES,
        .default_stages = DEFAULT_STAGES,
        .need = {9, 0, 1, "wgmma, setmaxnreg and TMA need an sm_90a (Hopper H100/H200) GPU"},
        .prepare = step_prepare,
        .release = gemm_plan_free,
        .launch = step_launch,
        .trace_units = 1 + CONSUMER_WGS,
        .trace_unit_kind = "warpgroup",
        .has_group = 1,
        .launch_desc = &LAUNCH,
        .plant_bugs = (1u << BUG_PRODUCER_PHASE0) | (1u << BUG_SKIP_COMMIT) | (1u << BUG_SKIP_RELEASE),
    };
    return gemm_main(argc, argv, &step);
}
