/* step09_stream_k — stream-K: every SM gets a share of the MAC loop,
 * whatever the shape; a tile cut between clusters is finished through
 * global memory.
 *
 *   D[M x N] = A[M x K] . B[N x K]^T    bf16 in, fp32 accumulate, bf16 out
 *
 * Concept.  Whole tiles leave SMs idle when the tile count is not a
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
 * What changed from step 08 (clusters sharing A, whole tiles):
 *
 *   step 08                               step 09
 *   ------------------------------------  ---------------------------------------
 *   cluster c walks cluster tiles         sk_walk of unit walk_start[c]: pieces
 *   walk_start[c], + #clusters            (k-ranges), then whole tiles as 08
 *   mainloop over k-tiles 0 .. KT         over the piece's [k_begin, k_end)
 *   partner skips KT k-tiles              skips the partner's piece
 *   every tile ends in an epilogue        fixup_piece: a writer stores and
 *                                         flags, an owner waits and adds
 *   cluster launch                        + cooperative when the plan streams
 *
 * Build and run (sm_90a only):
 *   make step09
 *   ./build/step09_stream_k --m 1024 --n 1024 --k 14336 --mode sk
 *   ./build/step09_stream_k --m 256 --n 256 --k 256 --exact --mode sk
 *   make DEBUG=1 step09 && ./build/debug/step09_stream_k --m 1024 --n 1024 --k 14336 --plant-bug 5
 *   make diff STEP=9
 */
#include <cuda.h>

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
 *   make step07 BUILD=build/v NVCC_EXTRA="-DBN=192"   (the register split follows) */
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

/* ---- the cluster -------------------------------------------------------------
 * Two CTAs side by side along N share the A box: each loads A_HALF_ROWS of
 * its BM rows and multicasts them.  Sharing B instead (clusters along M)
 * measured within 2%, A ahead on the large shapes (NOTES.md).  Every CTA
 * still receives the whole stage, STAGE_BYTES, into its own shared memory. */
#define CLUSTER_SIZE 2
#define CLUSTER_MASK ((uint16_t)((1u << CLUSTER_SIZE) - 1))   /* multicast to both CTAs */
#define A_HALF_ROWS (BM / CLUSTER_SIZE)         /* rows of A this CTA loads */
#define A_HALF_BYTES (A_HALF_ROWS * BK * 2)

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
static_assert(PRODUCER_REGS >= 24 && PRODUCER_REGS % 8 == 0, "setmaxnreg: a multiple of 8, >= 24");

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
 * A stage is 32-40 KiB of boxes plus its full and empty mbarriers (8 bytes
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
#define SMEM_CONFIG {A_STAGE_BYTES, B_STAGE_BYTES, EPI_BYTES}   /* D: 2 x 8 KiB, shared in turns */
#define H100_SMEM_OPTIN (227 * 1024)
/* 2: the release runs one k-tile late (wgmma_wait_group(1) below), so one slot
 * is always held by the wgmmas in flight and the producer needs another. */
#define MIN_STAGES 2
/* At most 8, step 03's ceiling; with 32 KiB stages and 16 KiB of epilogue
 * buffers the budget decides: 6 (5 with the 40 KiB stages of 128 x 192). */
#define MAX_STAGES gemm_stages_that_fit(&LAUNCH, H100_SMEM_OPTIN, SMEM_LAYOUT_MAX_STAGES)
#define DEFAULT_STAGES MAX_STAGES
#define STEP_ID "09"                           /* the step's number, in messages too */

static_assert(A_STAGE_BYTES % SMEM_ALIGN == 0 && B_STAGE_BYTES % SMEM_ALIGN == 0,
              "every A and B box must start on a 1024-byte swizzle atom");
static_assert(SMEM_ALIGN == SMEM_LAYOUT_ALIGN, "the layout rounds the base to the swizzle atom");
static_assert(BK * 2 == WGMMA_SW128_ROW_BYTES, "a k-tile row must be one 128-byte swizzle row");
static_assert(EPI_SUB_BYTES % SMEM_ALIGN == 0, "every D buffer must start on a swizzle atom");
static_assert(EPI_COLS * 2 == WGMMA_SW128_ROW_BYTES, "an epilogue row must be one swizzle row");
static_assert(STAGE_BYTES < (1 << 20), "an mbarrier's tx-count holds at most 2^20 - 1 bytes");
static_assert(A_HALF_BYTES % SMEM_ALIGN == 0, "each CTA's half of A must start on a swizzle atom");

/* ---- stream-K: the plan and the fixup (common/fixup.cuh) ---------------------
 * The workspace is the harness's, zeroed once (flags hold the launch number:
 * never reset).  A partial: a warpgroup's accumulators in register order,
 * 64 KiB per CTA in slot sk_cluster_slot(unit, rank); the owner's CTA r
 * reads the writers' CTA r: the same tile, the same fragment layout. */
typedef struct {
    sk_plan plan;
    float4 *partials;      /* one partial tile per CTA: its first piece's */
    uint32_t *flags;       /* one per CTA: the epoch of the launch that wrote its partial */
    uint32_t epoch;        /* this launch's number, 1, 2, ... */
} stream_k_params;
#define PARTIAL_F4 (WG_M_BLOCKS * ACC_REGS / 4)           /* float4 per thread */
#define PARTIAL_BYTES (PARTIAL_F4 * WG_THREADS * 16)      /* 64 KiB */

/* Writer: all threads store, a barrier gathers the stores, one thread releases them. */
static __device__ __forceinline__ void fixup_write_partial(float (*acc)[ACC_REGS],
                                                           const stream_k_params *sk, int slot,
                                                           int c, int tid, int plant_bug)
{
    partial_store_all(sk->partials + (size_t)slot * PARTIAL_F4 * WG_THREADS, &acc[0][0],
                      WG_M_BLOCKS * ACC_REGS, WG_THREADS, tid);
    named_bar_sync(BAR_STORE + c, WG_THREADS, "fixup write");
    (void)plant_bug;
#ifdef COURSE_DEBUG
    if (PLANTED(plant_bug, BUG_SKIP_FLAG)) return;   /* the owner must name this partial */
#endif
    if (tid == 0) flag_store_release_gpu(&sk->flags[slot], sk->epoch);
}

/* Owner: per writer unit in k order (a fixed order: bitwise reproducible), one
 * thread acquires its flag, a barrier passes the news on, all threads add. */
static __device__ __forceinline__ void fixup_add_partials(float (*acc)[ACC_REGS],
                                                          const stream_k_params *sk, int tile,
                                                          int unit, uint32_t rank, int c, int tid)
{
    const int last = sk_tile_last_unit(&sk->plan, tile);
    for (int v = unit + 1; v <= last; ++v) {
        const int slot = sk_cluster_slot(v, (int)rank, CLUSTER_SIZE);
        if (tid == 0) flag_wait_acquire_gpu(&sk->flags[slot], sk->epoch, tile, v);
        named_bar_sync(BAR_STORE + c, WG_THREADS, "fixup wait");
        partial_add_all(&acc[0][0], sk->partials + (size_t)slot * PARTIAL_F4 * WG_THREADS,
                        WG_M_BLOCKS * ACC_REGS, WG_THREADS, tid);
    }
}

/* A piece's fixup.  Returns 1 for a writer (it has no tile to store). */
static __device__ __forceinline__ int fixup_piece(float (*acc)[ACC_REGS], const stream_k_params *sk,
                                                  const sk_work *pc, int unit, uint32_t rank, int c,
                                                  int tid, int plant_bug)
{
    if (sk_work_writes(&sk->plan, pc)) {
        fixup_write_partial(acc, sk, sk_cluster_slot(unit, (int)rank, CLUSTER_SIZE), c, tid,
                            plant_bug);
        return 1;
    }
    if (sk_work_waits(&sk->plan, pc)) fixup_add_partials(acc, sk, pc->tile, unit, rank, c, tid);
    return 0;
}

/* This cluster's unit: its place in the placement's walk order.  Re-read
 * where needed (an L1 hit) rather than kept live: the consumers' registers
 * are all taken, and ptxas spilled it. */
static __device__ __forceinline__ int stream_k_unit(const gemm_cluster_params *params)
{
    return __ldg(&params->walk_start[cluster_id_x()]);
}

/* Step past the piece a walk stands on, in the walk and in the ring. */
static __device__ __forceinline__ void skip_piece(const sk_plan *plan, sk_walk *w,
                                                  pipeline_state *read_state)
{
    if (!sk_walk_valid(plan, w)) return;
    const sk_work p = sk_walk_work(plan, w);
    pipeline_advance_by(read_state, (uint32_t)(p.k_end - p.k_begin));
    sk_walk_next(plan, w);
}

/* ---- producer: one thread loads every k-tile of every tile -------------------
 * The other 127 threads of warpgroup 0 have nothing to do and have left
 * (gemm_cta).  write_state walks the ring: acquire a free slot, announce the
 * bytes, issue the two TMA boxes.  The thread walks this CTA's tiles and
 * their k-tiles as ONE sequence: the ring does not know where a tile ends. */
static __device__ __forceinline__ void producer_load_tile(const CUtensorMap *map_a,
                                                          const CUtensorMap *map_b,
                                                          const smem_ring *sm,
                                                          pipeline_state *write_state, int k_begin, int k_end,
                                                          int m0, int n0, uint32_t rank, int *loads,
                                                          trace_clock *clk, int plant_bug)
{
    (void)plant_bug;
    for (int kt = k_begin; kt < k_end; ++kt, ++*loads) {
        /* acquire: the slot's previous contents were fully read (WAR). */
        producer_acquire(sm->empty, write_state->index, write_state->phase);
        CLOCK_SPAN(clk, 1, TP_PRODUCER_ACQUIRE, *loads);
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
        if (!(PLANTED(plant_bug, BUG_SKIP_COMMIT) && *loads == 1))
#endif
            mbar_arrive_expect_tx(bar, STAGE_BYTES);
        /* Coordinates innermost first: {k, row}.  Our half of A, into the
         * same offset of both CTAs' slot; each one's full barrier counts it. */
        tma_load_2d_multicast(sm->a + write_state->index * A_STAGE_BYTES + rank * A_HALF_BYTES, map_a,
                              kt * BK, m0 + (int)rank * A_HALF_ROWS, smem_u32(bar), CLUSTER_MASK);
        tma_load_2d(sm->b + write_state->index * B_STAGE_BYTES, map_b, kt * BK, n0, smem_u32(bar));
        CLOCK_SPAN(clk, 1, TP_PRODUCER_LOAD, *loads);
        pipeline_advance(write_state);
    }
}

static __device__ __forceinline__ void producer_load_tiles(const CUtensorMap *map_a,
                                                           const CUtensorMap *map_b,
                                                           const smem_ring *sm, int stages,
                                                           const sk_plan *plan, const gemm_cluster_params *params,
                                                           uint32_t rank, trace_clock *clk,
                                                           int plant_bug)
{
    (void)plant_bug;
    tma_prefetch_map(map_a);
    tma_prefetch_map(map_b);
    pipeline_state write_state = pipeline_producer_start((uint32_t)stages);
#ifdef COURSE_DEBUG
    if (PLANTED(plant_bug, BUG_PRODUCER_PHASE0)) write_state.phase = 0;   /* the classic: first acquire never passes */
#endif
    int loads = 0;   /* k-tiles issued by this CTA, for the planted bug and the trace */
    for (sk_walk wk = sk_walk_start(plan, stream_k_unit(params)); sk_walk_valid(plan, &wk);
         sk_walk_next(plan, &wk)) {
        const sk_work pc = sk_walk_work(plan, &wk);
        int tm, tn;
        /* A tile past an odd N edge is loaded too: its half of A is the partner's. */
        cluster_sched_coords(&params->sched, pc.tile, (int)rank, &tm, &tn);
        producer_load_tile(map_a, map_b, sm, &write_state, pc.k_begin, pc.k_end, tm * BM, tn * BN,
                           rank, &loads, clk, plant_bug);
    }
    /* Producer tail: acquire every slot once more, i.e. wait until both
     * CTAs' consumers have released all of them.  Then no remote arrive and
     * no multicast can still reach this CTA, and it may exit (this thread
     * keeps it alive until then).  Without it the partner could arrive on,
     * or write into, the shared memory of a CTA that has left. */
    for (int s = 0; s < stages; ++s) {
        producer_acquire(sm->empty, write_state.index, write_state.phase);
        pipeline_advance(&write_state);
    }
}

/* release, in a cluster: "done reading slot s" to both producers that write
 * it, ours (a local arrive) and the partner's (a remote arrive; its default
 * semantics suffice for this WAR hand-off, NOTES.md).  `remote` is 1 except
 * for the DEBUG build's planted bug. */
static __device__ __forceinline__ void consumer_release_cluster(uint64_t *empty, uint32_t slot,
                                                                uint32_t peer, int remote)
{
    consumer_release(empty, slot);
    if (remote) mbar_arrive_cluster(&empty[slot], peer);
}


/* ---- consumer mainloop: one tile's k-tiles through the ring -----------------
 * The warpgroup computes its whole tile: WG_M_BLOCKS m64 blocks of A (one
 * wgmma chain each) against all BN columns of B.  read_state is the slot
 * to wait for, release_state the slot to hand back (one behind).  *reads
 * counts the k-tiles this warpgroup consumed (trace, planted bug).  With
 * its last wgmma issued it passes the tensor cores to the partner (when
 * hand_over: the partner has a tile after this one). */
static __device__ __forceinline__ void consumer_mainloop(float (*acc)[ACC_REGS], const smem_ring *sm,
                                                         int c, int k_begin, int k_end,
                                                         pipeline_state *read_state,
                                                         pipeline_state *release_state,
                                                         int *reads, int leader, int hand_over,
                                                         uint32_t peer, trace_clock *clk,
                                                         int plant_bug)
{
    (void)plant_bug;
    for (int kt = k_begin; kt < k_end; ++kt, ++*reads) {
        /* wait: the TMA bytes of k-tile kt have landed.  Every consumer
         * thread waits (acquire): the data is then visible to the wgmmas
         * this warpgroup issues, with no proxy fence (TMA writes and wgmma
         * reads are both async-proxy, and complete_tx releases them). */
        consumer_wait(sm->full, read_state->index, read_state->phase);
        CLOCK_SPAN(clk, leader, TP_CONSUMER_WAIT, *reads);

        /* Descriptors of B's BN rows in the slot and, in the loop below, of
         * each m64 block of A; each k16 step moves 32 bytes along the rows. */
        const uint64_t db = wgmma_desc_k_major_sw128(sm->b + read_state->index * B_STAGE_BYTES);
        wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
        wgmma_fence();   /* accumulator writes (zeroing, the last epilogue) come first */
        /* scale-d = 0 on a piece's first k16 step: D = A.B overwrites
         * whatever the registers held (the previous piece's results), so
         * no zeroing pass is needed. */
#pragma unroll
        for (int kk = 0; kk < KSTEPS; ++kk)
#pragma unroll
            for (int mb = 0; mb < WG_M_BLOCKS; ++mb) {
                const uint64_t da = wgmma_desc_k_major_sw128(
                    sm->a + read_state->index * A_STAGE_BYTES + mb * 64 * WGMMA_SW128_ROW_BYTES);
                wgmma_tile_k16(acc[mb], wgmma_desc_advance(da, kk * WGMMA_K16_BYTES),
                               wgmma_desc_advance(db, kk * WGMMA_K16_BYTES), kt > k_begin || kk > 0);
            }
        wgmma_commit_group();
        CLOCK_SPAN(clk, leader, TP_CONSUMER_COMPUTE, *reads);

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
        if (kt > k_begin) {
#ifdef COURSE_DEBUG
            if (!(PLANTED(plant_bug, BUG_SKIP_RELEASE) && *reads == 1))
#endif
                if (leader)
                    consumer_release_cluster(sm->empty, release_state->index, peer,
                                             !(PLANTED(plant_bug, BUG_SKIP_REMOTE_RELEASE) && *reads == 1));
            pipeline_advance(release_state);
        }
        CLOCK_SPAN(clk, leader, TP_CONSUMER_RELEASE, *reads);
        pipeline_advance(read_state);
    }
    /* Every wgmma of this tile is issued: hand the tensor cores over
     * now, before waiting for them to finish, so the partner's first
     * wgmmas queue right behind my last ones. */
    if (hand_over) pingpong_pass_turn(BAR_MMA, c);
    /* Drain: the last k-tile's wgmmas must finish before the accumulators
     * are read (reading them earlier is undefined), then hand its slot back
     * at once: the ring stays balanced, and a producer with more tiles to
     * load (step 06 on) refills the slot during the epilogue. */
    wgmma_wait_group(0);
    wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
    if (leader) consumer_release_cluster(sm->empty, release_state->index, peer, 1);
}

/* ---- epilogue: accumulators -> bf16 -> swizzled smem -> TMA store -----------
 * Sub-tile j of m64 block mb = columns 64j .. 64j+63 = accumulators
 * 32j .. 32j+31 of acc[mb] (wgmma_acc_col: register i is in column
 * 8(i/4) + ...).  The two D buffers are shared with the partner, in turns
 * (consumer_tiles takes the turn around this call). */
static __device__ __forceinline__ void epilogue_store(const CUtensorMap *map_d,
                                                      __nv_bfloat16 *__restrict__ D, int M, int N,
                                                      float (*acc)[ACC_REGS], const smem_ring *sm,
                                                      int c, int m0, int n0, int tid, int leader,
                                                      int use_tma_store)
{
    if (use_tma_store) {
        int stores = 0;   /* sub-tiles stored in this turn: picks the D buffer */
#pragma unroll
        for (int mb = 0; mb < WG_M_BLOCKS; ++mb)
#pragma unroll
            for (int j = 0; j < EPI_CHUNKS; ++j, ++stores) {
                const int b = stores % EPI_BUFS;
                /* WAR on the buffer: the store issued from it two sub-tiles
                 * ago must have finished READING it.  Only the thread that
                 * committed a bulk group can wait for it, so the leader
                 * waits and a barrier tells the other 127 threads. */
                if (leader) tma_store_wait_read(EPI_BUFS - 1);
                named_bar_sync(BAR_STORE + c, WG_THREADS, "epilogue");
                unsigned char *buf = sm->d_ptr + b * EPI_SUB_BYTES;
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
                named_bar_sync(BAR_STORE + c, WG_THREADS, "epilogue");
                if (leader) {
                    tma_store_2d(map_d, n0 + EPI_COLS * j, m0 + 64 * mb, sm->d + b * EPI_SUB_BYTES);
                    tma_store_commit_group();
                }
            }
        /* Hand the buffers over only once my stores have read them:
         * the partner's first st.shared would otherwise race the TMA
         * unit.  Only the committing thread can wait. */
        if (leader) tma_store_wait_read(0);
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
}

/* ---- consumer role: every other piece of the walk, in turns with the partner -
 * Consumer c (warpgroup c + 1) takes pieces c, c+2, c+4 ... of this unit's
 * walk (a piece: a k-range of a streamed cluster tile, or a whole one).  The
 * producer loads every piece in order, so c's pipeline states start c
 * pieces into the ring and skip the partner's piece after every one. */
static __device__ __forceinline__ void consumer_tiles(const CUtensorMap *map_d,
                                                      __nv_bfloat16 *__restrict__ D, int M, int N,
                                                      const smem_ring *sm, int stages,
                                                      const stream_k_params *sk, const gemm_cluster_params *params,
                                                      int use_tma_store, int c, uint32_t rank,
                                                      trace_clock *clk, int plant_bug)
{
    (void)plant_bug;
    const int tid = (int)threadIdx.x % WG_THREADS;   /* thread in the warpgroup */
    /* The one thread that releases slots and writes trace records.  tid == 0
     * rather than elect_one_sync(): the whole warpgroup reaches every use
     * together (the loop bounds are uniform), so any fixed thread serves, and
     * a constant test costs no instruction.  (elect.sync over a converged
     * warp also picks one fixed lane, lane 0 in practice; the PTX ISA
     * promises only that the choice is deterministic.)  The producer uses
     * elect_one_sync because its other lanes leave right after.  The same
     * thread issues the epilogue's TMA stores. */
    const int leader = tid == 0;
    if (leader && use_tma_store) tma_prefetch_map(map_d);

    /* Kick-off: consumer 0 goes first.  Consumer 1 opens consumer 0's two
     * turns once, as if it had just finished a tile before consumer 0's
     * first.  (The partner kicks, not consumer 0 itself: a warp must not
     * arrive on a barrier and then use the same id again before it
     * completed.) */
    if (c == 1) {
#ifdef COURSE_DEBUG
        if (!PLANTED(plant_bug, BUG_SKIP_NAMED_ARRIVE))
#endif
            pingpong_pass_turn(BAR_MMA, c);
        pingpong_pass_turn(BAR_EPI, c);
    }

    float acc[WG_M_BLOCKS][ACC_REGS];
    const sk_plan *plan = &sk->plan;
    pipeline_state read_state = pipeline_consumer_start((uint32_t)stages);
    sk_walk wk = sk_walk_start(plan, stream_k_unit(params));
    if (c == 1) skip_piece(plan, &wk, &read_state);   /* consumer 1 skips 0's first piece */
    pipeline_state release_state = read_state;
    int reads = 0;      /* k-tiles consumed by this warpgroup (trace, planted bug) */
    while (sk_walk_valid(plan, &wk)) {
        const sk_work pc = sk_walk_work(plan, &wk);
        int tm, tn;
        const int real = cluster_sched_coords(&params->sched, pc.tile, (int)rank, &tm, &tn);
        /* Does the partner have a piece after this one?  If not, it has left
         * (or will): passing it a turn would leave an arrive nobody
         * matches, so skip it. */
        sk_walk next = wk;
        sk_walk_next(plan, &next);
        const int partner_next = sk_walk_valid(plan, &next);

        /* My turn on the tensor cores: the partner has issued its last
         * wgmma of the previous tile (or this is consumer 0's first tile). */
        pingpong_wait_turn(BAR_MMA, c, "pingpong mma");
        consumer_mainloop(acc, sm, c, pc.k_begin, pc.k_end, &read_state, &release_state, &reads,
                          leader, partner_next, rank ^ 1u, clk, plant_bug);
        /* Skip the partner's piece: my next one follows it in the ring. */
        wk = next;
        skip_piece(plan, &wk, &read_state);
        release_state = read_state;

        /* The fixup, outside both turns: neither a writer's store nor an
         * owner's wait holds a barrier the partner needs (README.md); a
         * writer then takes its epilogue turn and passes it unused. */
        const int writes = fixup_piece(acc, sk, &pc, stream_k_unit(params), rank, c, tid, plant_bug);
        if (writes || sk_work_waits(plan, &pc)) CLOCK_SPAN(clk, leader, TP_FIXUP, pc.tile);

        /* The epilogue runs under the partner's mainloop, in its own turn. */
        pingpong_wait_turn(BAR_EPI, c, "pingpong epilogue");
        CLOCK_SPAN(clk, leader, TP_CONSUMER_WAIT, reads);
        if (real && !writes)   /* a tile past an odd N edge was computed on zeros: nothing to store */
            epilogue_store(map_d, D, M, N, acc, sm, c, tm * BM, tn * BN, tid, leader, use_tma_store);
        if (partner_next) pingpong_pass_turn(BAR_EPI, c);
        CLOCK_SPAN(clk, leader, TP_EPILOGUE, pc.tile);
    }
    /* The last stores must have read shared memory before the CTA exits and
     * its shared memory goes to another CTA (and written D before the kernel
     * counts as done). */
    if (leader && use_tma_store) tma_store_wait_all();
}

/* ---- the CTA: roles, register split, barriers ---------------------------------
 * Warpgroup 0 produces, warpgroups 1..CONSUMER_WGS consume.  `traced` is a
 * constant in each of the two kernels below, so the one every timed launch
 * runs has no trace code in it at all (no timer reads, no calls, no branches
 * in the k loop). */
static __device__ __forceinline__ void gemm_cta(const CUtensorMap *map_a, const CUtensorMap *map_b,
                                                const CUtensorMap *map_d,
                                                __nv_bfloat16 *__restrict__ D, int M, int N,
                                                int K, int stages, gemm_cluster_params params,
                                                stream_k_params sk, trace_ctx tr, int plant_bug,
                                                const int traced)
{
    const smem_config layout = SMEM_CONFIG;
    const smem_ring sm = smem_ring_carve(layout, stages);
    /* Role tests must be uniform per warp (and per warpgroup for wgmma and
     * setmaxnreg): read the warpgroup index through a shuffle so the
     * compiler knows. */
    const int wg = __shfl_sync(0xffffffffu, (int)threadIdx.x / WG_THREADS, 0);
    const uint32_t rank = cluster_ctarank();   /* 0 or 1: which tile and which half of A */
    (void)K;   /* the plan holds the k-tiles (the last may be partial, zero-filled) */

    /* Barrier counts:
     *   full[s]  = 1: one arrival per phase, the producer's arrive.expect_tx.
     *     The data itself is counted in bytes, not arrivals: the phase
     *     completes when that arrival happened AND the tx-count is back to 0,
     *     i.e. every byte the producer announced has landed.  The TMA unit is
     *     not a thread and does not arrive.
     *   empty[s] = 2: in each CTA one consumer warpgroup reads slot s (the
     *     same ring position: both CTAs walk the unit's pieces), and one
     *     thread of it (thread 0) arrives on its own CTA's empty[s] and on
     *     the partner's, after the wgmma.wait_group that proved the
     *     warpgroup's wgmmas on the slot have finished reading it.  Both
     *     producers write slot s of both CTAs (A's halves), so each waits
     *     for both readers.  A wgmma is one operation of the whole
     *     warpgroup, so one thread's wait covers all four warps.  (CUTLASS's
     *     PipelineTmaAsync with clusters also counts one arrival per
     *     consumer warpgroup and CTA.) */
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; ++s) {
            mbar_init(&sm.full[s], 1);
            mbar_init(&sm.empty[s], CLUSTER_SIZE);
        }
        named_bar_init();
        mbar_fence_init();
    }
    /* Nobody waits on, arrives at or TMA-signals an uninitialized barrier,
     * in this CTA or the partner's: the cluster-wide __syncthreads (the
     * init is released to the cluster by mbar_fence_init). */
    cluster_sync();

    /* Timeline: one writer per warpgroup. */
    trace_clock clk = trace_clock_start(tr, wg, traced);

    if (wg == 0) {
        /* Give the registers back first (setmaxnreg is per warpgroup), then
         * one thread issues everything; the other 127 leave.  elect_one_sync
         * needs the whole warp, so warp 0 calls it before any lane is
         * excluded. */
        REGS_DEC(PRODUCER_REGS);
        if (threadIdx.x / 32 == 0 && elect_one_sync())
            producer_load_tiles(map_a, map_b, &sm, stages, &sk.plan, &params, rank, &clk, plant_bug);
        return;
    }
    REGS_INC(CONSUMER_REGS);
    consumer_tiles(map_d, D, M, N, &sm, stages, &sk, &params, params.use_tma_store, wg - 1, rank,
                   &clk, plant_bug);
}

/* Tensor maps by value, as __grid_constant__ parameters: the kernel then
 * takes their address in parameter space, which TMA accepts.  A plain
 * by-value parameter would be copied to local memory, which it does not. */
__global__ void __launch_bounds__(THREADS, 1)
pingpong_kernel(const __grid_constant__ CUtensorMap map_a,
                const __grid_constant__ CUtensorMap map_b,
                const __grid_constant__ CUtensorMap map_d, __nv_bfloat16 *__restrict__ D, int M,
                int N, int K, int stages, gemm_cluster_params params, stream_k_params sk,
                trace_ctx tr, int plant_bug)
{
    gemm_cta(&map_a, &map_b, &map_d, D, M, N, K, stages, params, sk, tr, plant_bug, 0);
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
                       int M, int N, int K, int stages, gemm_cluster_params params,
                       stream_k_params sk, trace_ctx tr, int plant_bug)
{
    gemm_cta(&map_a, &map_b, &map_d, D, M, N, K, stages, params, sk, tr, plant_bug, 1);
}

/* ---- host: step 08's glue (common/cluster_launch.cuh) plus the stream-K plan --
 * Step 08's plan and launch, wrapped: the stream-K plan, one more kernel
 * parameter.  A plan that streams launches cooperatively: every CTA resident
 * or the launch fails (an owner spins on a writer's flag, which a CTA
 * waiting for an SM would never raise).  Whole tiles launch as step 08. */
static const gemm_launch_desc LAUNCH = {
    .step = STEP_ID,
    .kernel = (const void *)pingpong_kernel,
    .kernel_traced = (const void *)pingpong_kernel_traced,
    .threads = THREADS,
    .smem = SMEM_CONFIG,
    .min_stages = MIN_STAGES,
    .cluster = CLUSTER_SIZE,
    .cooperative = 1,   /* combines with the cluster dimension */
    .bm = BM, .bn = BN, .bk = BK,
    .d_rows = EPI_ROWS, .d_cols = EPI_COLS,
};

typedef struct {
    gemm_cluster_plan base;   /* maps, cluster_sched, walk table, grid */
    stream_k_params sk;
    size_t workspace;         /* bytes: a partial tile and a flag per CTA, if anything streams */
} stream_k_plan;

/* The harness allocates this once per run (after prepare). */
static size_t stream_k_workspace_bytes(const gemm_operands *op)
{
    return ((const stream_k_plan *)op->plan)->workspace;
}

/* T cluster tiles of KT k-tiles on U co-resident clusters, --mode.  Whole
 * tiles keep step 08's grid (min(T, U)) and walk; a plan that streams may
 * use more clusters: number them for that grid. */
static void *stream_k_prepare(const gemm_operands *op)
{
    stream_k_plan *p = (stream_k_plan *)gemm_plan_alloc(sizeof *p, STEP_ID);
    gemm_cluster_plan *base = (gemm_cluster_plan *)gemm_cluster_prepare(op);
    p->base = *base;
    gemm_plan_free(base);
    static_assert((int)GEMM_MODE_DP == (int)SK_MODE_DP && (int)GEMM_MODE_SK == (int)SK_MODE_SK,
                  "--mode values are the scheduler's");
    const int units = gemm_persistent_grid(op->launch, op, 1 << 28) / CLUSTER_SIZE;
    p->sk.plan = sk_plan_make(p->base.params.sched.sched.num_tiles, (op->k + BK - 1) / BK, units,
                              op->mode);
    if (p->sk.plan.units * CLUSTER_SIZE != p->base.grid) {
        p->base.grid = p->sk.plan.units * CLUSTER_SIZE;
        CUDA_CHECK(cudaFree((void *)p->base.params.walk_start));
        p->base.params.walk_start = cluster_walk_table(
            THREADS, smem_layout_of(LAUNCH.smem, op->stages).total, CLUSTER_SIZE, p->base.grid,
            op->num_sms);
    }
    p->workspace = p->sk.plan.sk_tiles ? p->base.grid * (PARTIAL_BYTES + sizeof(uint32_t)) : 0;
    /* The CSV's mode column: what runs, auto's choice resolved. */
    op->report->mode = p->sk.plan.sk_tiles == 0 ? "dp" : op->mode == GEMM_MODE_SK ? "sk" : "sk_l2";
    static int told = 0;   /* once per run, not per rotation set */
    if (!told++)
        printf("stream-K plan: %d cluster tiles x %d k-tiles on %d clusters: %d streamed "
               "(%d-%d k-tiles per cluster), %d data-parallel; workspace %zu bytes\n",
               p->sk.plan.tiles, p->sk.plan.kt, p->sk.plan.units, p->sk.plan.sk_tiles,
               p->sk.plan.sk_base, p->sk.plan.sk_base + (p->sk.plan.sk_extra > 0),
               p->sk.plan.tiles - p->sk.plan.sk_tiles, p->workspace);
    return p;
}

static void stream_k_launch(const gemm_operands *op, cudaStream_t stream)
{
    static gemm_launch_desc whole;   /* LAUNCH without the cooperative attribute */
    whole = LAUNCH;
    whole.cooperative = 0;
    stream_k_plan *p = (stream_k_plan *)op->plan;
    trace_ctx tr = op->trace;
    tr.cta_b = 1;   /* a timeline shows the two CTAs of cluster 0 */
    /* partials first, flags after them; the harness's launch number */
    const size_t ctas = (size_t)p->sk.plan.units * CLUSTER_SIZE;
    p->sk.partials = (float4 *)op->workspace;
    p->sk.flags = op->workspace ? (uint32_t *)((char *)op->workspace + ctas * PARTIAL_BYTES) : NULL;
    p->sk.epoch = op->epoch;
    void *args[] = {&p->base.a, &p->base.b, &p->base.d, (void *)&op->d, (void *)&op->m,
                    (void *)&op->n, (void *)&op->k, (void *)&op->stages, &p->base.params, &p->sk,
                    (void *)&tr, (void *)&op->plant_bug};
    gemm_launch(p->sk.plan.sk_tiles ? &LAUNCH : &whole, op, p->base.grid, args, stream);
}

int main(int argc, char **argv)
{
    char variant[48], summary[240];
    snprintf(variant, sizeof variant, "%dx%dx%d_stream_k_cluster%d", BM, BN, BK, CLUSTER_SIZE);
    snprintf(summary, sizeof summary,
             "stream-K GEMM: the partial wave's k-tiles split over clusters of %d CTAs sharing A, "
             "split tiles finished by a fixup in global memory; pingpong, setmaxnreg %d/%d (%s)",
             CLUSTER_SIZE, PRODUCER_REGS, CONSUMER_REGS, variant);
    const gemm_step step = {
        .step = STEP_ID,
        .name = "stream_k",
        .summary = summary,
        .variant = variant,
        .min_stages = MIN_STAGES,
        .max_stages = MAX_STAGES,
        .default_stages = DEFAULT_STAGES,
        .need = {9, 0, 1, "wgmma, setmaxnreg and TMA need an sm_90a (Hopper H100/H200) GPU"},
        .prepare = stream_k_prepare,
        .release = gemm_cluster_release,
        .launch = stream_k_launch,
        .trace_units = 1 + CONSUMER_WGS,
        .trace_unit_kind = "warpgroup",
        .has_group = 1,
        .workspace_bytes = stream_k_workspace_bytes,
        .launch_desc = &LAUNCH,
        .has_mode = 1,
    };
    return gemm_main(argc, argv, &step);
}
