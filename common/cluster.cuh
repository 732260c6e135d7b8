/* cluster.cuh — CTAs that share loads: thread-block clusters (sm_90, step 08).
 *
 * A cluster is a group of CTAs (here 2) that the hardware places together on
 * the SMs of one GPC and that can reach each other's shared memory
 * ("distributed shared memory").  Step 08 gives the two CTAs of a cluster two
 * output tiles that need the same panel of one operand.  Each CTA's producer
 * loads HALF of that operand's box and MULTICASTS it: one TMA load writes the
 * same bytes at the same shared-memory offset in both CTAs and signals the
 * mbarrier at the same offset in each.  L2 serves that operand once per pair.
 *
 *   CTA rank 0                            CTA rank 1
 *   own box of the other operand          own box of the other operand
 *   shared box, rows 0..h-1  --multicast-->  shared box, rows 0..h-1
 *   shared box, rows h..2h-1 <--multicast--  shared box, rows h..2h-1
 *
 * What that costs in protocol (PTX ISA: "Cluster of Cooperative Thread
 * Arrays", mapa, mbarrier, cp.async.bulk.tensor, barrier.cluster):
 *   - a slot of CTA r is written by two producers, its own and its
 *     partner's; it may be refilled only when the consumers of BOTH CTAs
 *     released it.  A consumer therefore arrives on its own empty[s] and on
 *     the partner's (mbar_arrive_cluster), and empty[s] counts both;
 *   - every CTA's full[s] expects the whole stage's bytes: its own loads plus
 *     the half its partner multicasts into it;
 *   - nobody may arrive on, or multicast into, a barrier before its CTA has
 *     initialized it: fence_mbarrier_init_cluster, then a cluster barrier;
 *   - no CTA may exit while its partner can still arrive on its barriers or
 *     write into its shared memory (the kernel's producer tail).
 *
 * Remote arrives are arrive-only: a thread can wait (test_wait / try_wait)
 * only on a barrier of its own CTA.  So every WAIT in the protocol stays a
 * local mbarrier wait, bounded and named in DEBUG builds (mbarrier.cuh,
 * debug.cuh): a missing remote arrive shows up as the partner's producer
 * timing out in producer_acquire on 'empty'.  The hardware cluster barrier
 * (barrier.cluster) cannot be polled; the steps use it only right after
 * barrier init, where every thread of both CTAs reaches it unconditionally. */
#ifndef COMMON_CLUSTER_CUH
#define COMMON_CLUSTER_CUH

#include <stdint.h>
#include <cuda.h>

#include "persistent_schedule.h"

/* ---- who am I ------------------------------------------------------------- */

/* %cluster_ctarank: this CTA's rank in its cluster, 0 .. size - 1. */
static __device__ __forceinline__ uint32_t cluster_ctarank(void)
{
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

/* %cluster_nctarank: CTAs in this cluster (1 for a launch without clusters). */
static __device__ __forceinline__ uint32_t cluster_nctarank(void)
{
    uint32_t n;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    return n;
}

/* %clusterid.x and %nclusterid.x: this cluster's index in the grid of
 * clusters and their number (1-D grids of 1-D clusters in the course). */
static __device__ __forceinline__ uint32_t cluster_id_x(void)
{
    uint32_t c;
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(c));
    return c;
}

static __device__ __forceinline__ uint32_t cluster_count_x(void)
{
    uint32_t c;
    asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(c));
    return c;
}

/* %smid: the SM this CTA runs on (for placement probes and traces only: the
 * PTX ISA says it may change during execution and is not contiguous). */
static __device__ __forceinline__ uint32_t sm_id(void)
{
    uint32_t s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

/* ---- distributed shared memory -------------------------------------------- */

/* mapa: the address, in the cluster's shared window, of the byte at the same
 * offset as `smem_addr` (a shared::cta address of this CTA) in CTA `rank`. */
static __device__ __forceinline__ uint32_t mapa_shared_cluster(uint32_t smem_addr, uint32_t rank)
{
    uint32_t remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem_addr), "r"(rank));
    return remote;
}

/* Arrive on the mbarrier at the same offset as `bar` in CTA `rank` (which may
 * be this CTA).  Default semantics: .release at .cta scope, the form
 * CUTLASS's ClusterBarrier::arrive(cta_id) issues.  Why that is enough for
 * the consumer's release (a WAR hand-off: the arriving thread publishes no
 * data, it only says "my reads are finished"), and what .release.cluster
 * costs instead: step08_cluster_multicast/NOTES.md. */
static __device__ __forceinline__ void mbar_arrive_cluster(uint64_t *bar, uint32_t rank)
{
    const uint32_t remote = mapa_shared_cluster((uint32_t)__cvta_generic_to_shared(bar), rank);
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
}

/* The same arrive with explicit .release.cluster semantics: the arriving
 * thread's earlier memory accesses are ordered before the arrive for every
 * thread of the cluster.  Kept for the measurement in NOTES.md. */
static __device__ __forceinline__ void mbar_arrive_release_cluster(uint64_t *bar, uint32_t rank)
{
    const uint32_t remote = mapa_shared_cluster((uint32_t)__cvta_generic_to_shared(bar), rank);
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote)
                 : "memory");
}

/* ---- cluster barrier ---------------------------------------------------------
 * barrier.cluster: every non-exited thread of every CTA in the cluster
 * arrives, then waits until all have.  .aligned: all threads of a warp
 * execute it together.  The arrive's default semantics are .release and the
 * wait's .acquire (cluster scope): shared-memory writes before the arrive are
 * visible to the whole cluster after the wait.  .relaxed drops the release,
 * for when something else already ordered the writes (after
 * fence_mbarrier_init_cluster, CUTLASS's cluster_arrive_relaxed). */
static __device__ __forceinline__ void cluster_arrive(void)
{
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
}

static __device__ __forceinline__ void cluster_arrive_relaxed(void)
{
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}

static __device__ __forceinline__ void cluster_wait(void)
{
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

/* The cluster barrier right after barrier init (steps 08-10): every thread
 * arrives RELAXED, then waits.  No release is needed there: the thread that
 * initialized the barriers has already issued fence.mbarrier_init.release.cluster
 * (mbar_fence_init), the fence the PTX ISA pairs with a relaxed cluster arrive
 * (CUTLASS: fence_barrier_init, then cluster_arrive_relaxed and cluster_wait).
 * The default arrive's .release costs every thread MEMBAR.ALL.CTA, MEMBAR.ALL.GPU,
 * ERRBAR and CGAERRBAR in front of UCGABAR_ARV (the SASS): measured, ~0.3 us of
 * every launch of step 10, 4% at 512^3 (step10_autotune/NOTES.md, "The
 * start-up barrier"). */
static __device__ __forceinline__ void cluster_sync_after_init(void)
{
    cluster_arrive_relaxed();
    cluster_wait();
}

/* Make this thread's mbarrier.init visible to the whole cluster (and to the
 * async proxy, i.e. TMA multicasts from the partner's SM) before the cluster
 * barrier that follows it. */
static __device__ __forceinline__ void fence_mbarrier_init_cluster(void)
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

/* ---- TMA multicast ---------------------------------------------------------
 * tma_load_2d (tma.cuh) into every CTA of the cluster whose bit is set in
 * cta_mask (bit r = rank r): the box lands at offset smem_dst of each, and
 * each one's mbarrier at offset smem_mbar gets complete_tx of the box's bytes.
 * Both addresses are this CTA's shared::cta addresses; the same offsets are
 * used in the other CTAs. */
static __device__ __forceinline__ void tma_load_2d_multicast(uint32_t smem_dst,
                                                             const CUtensorMap *map,
                                                             int32_t c_inner, int32_t c_outer,
                                                             uint32_t smem_mbar, uint16_t cta_mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;"
                 :: "r"(smem_dst), "l"((uint64_t)map), "r"(c_inner), "r"(c_outer), "r"(smem_mbar),
                    "h"(cta_mask)
                 : "memory");
}

/* The tile walk of this CTA's cluster (both CTAs walk the same cluster
 * tiles): start at the table's entry (cluster_walk_table, cluster_launch.cuh),
 * stride by the number of clusters. */
static __device__ __forceinline__ tile_walk cluster_tile_walk_start(const int *walk_start)
{
    return tile_walk_start(walk_start[cluster_id_x()], (int)cluster_count_x());
}

#endif
