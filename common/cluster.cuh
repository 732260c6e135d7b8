/* cluster.cuh — two CTAs that share loads (thread-block clusters, sm_90).
 *
 * A cluster is a group of CTAs launched together on neighbouring SMs that
 * can address each other's shared memory.  Step 07 uses clusters of 2 whose
 * tiles lie in the same tile column: both need the same rows of B.  Instead
 * of each CTA loading all of B's box, each loads half and MULTICASTS it:
 * one TMA load writes the same bytes into the same shared-memory offset of
 * both CTAs and signals the mbarrier at that offset in each.  L2 then
 * serves B once per pair instead of twice.
 *
 * What that costs in protocol: a CTA's slot is now written by two producers
 * (its own and its partner's), so a producer may refill slot s only when
 * BOTH CTAs' consumers have released it: each consumer release arrives on
 * its own CTA's empty[s] and on the partner's (mbar_arrive_cluster), and
 * empty[s] counts both.  Before the first remote arrive or multicast, every
 * CTA of the cluster must have initialized its barriers (cluster_sync after
 * init), and no CTA may exit while its partner can still arrive on or write
 * into its shared memory (cluster_sync at the end).  PTX ISA: "Cluster of
 * Cooperative Thread Arrays", mapa, mbarrier.arrive, cp.async.bulk.tensor
 * (.multicast::cluster), barrier.cluster. */
#ifndef COMMON_CLUSTER_CUH
#define COMMON_CLUSTER_CUH

#include <stdint.h>
#include <cuda.h>

/* This CTA's rank in its cluster (0 .. cluster size - 1). */
static __device__ __forceinline__ uint32_t cluster_ctarank(void)
{
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

/* Every thread of every CTA in the cluster arrives, then waits for all:
 * the cluster-wide __syncthreads.  Release/acquire: shared-memory writes
 * before it (barrier inits) are visible to the other CTAs after it. */
static __device__ __forceinline__ void cluster_sync(void)
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

/* Arrive on the mbarrier at the same shared-memory offset as `bar`, in the
 * CTA of rank `cta` (which may be this one).  mapa turns our address into
 * that CTA's address in the cluster's shared window. */
static __device__ __forceinline__ void mbar_arrive_cluster(uint64_t *bar, uint32_t cta)
{
    asm volatile("{\n"
                 " .reg .b32 remote;\n"
                 " mapa.shared::cluster.u32 remote, %0, %1;\n"
                 " mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
                 "}" ::"r"((uint32_t)__cvta_generic_to_shared(bar)), "r"(cta)
                 : "memory");
}

/* tma_load_2d (tma.cuh), written into the same offset of every CTA in
 * cta_mask (bit r = rank r), each signalling its own mbarrier at smem_mbar's
 * offset with the bytes it received. */
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

#endif
