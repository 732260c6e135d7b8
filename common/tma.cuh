/* tma.cuh — the device side of the Tensor Memory Accelerator (sm_90).
 *
 * One thread hands the TMA unit a tensor map (tma.h), box coordinates and a
 * shared-memory destination; the copy then runs on its own, and when its
 * bytes have landed the unit performs complete_tx(bytes) on an mbarrier.
 * The thread that waits on that barrier is not the one that issued the copy:
 * that is what lets one producer thread feed whole consumer warpgroups.
 *
 *   producer thread                         TMA unit
 *   mbar_arrive_expect_tx(full, bytes)  ->  full: pending arrivals 0, tx += bytes
 *   tma_load_2d(dst, map, {c, r}, full) ->  ... copies the box ...
 *                                           full: tx -= bytes -> 0: phase completes
 *
 * Coordinates are element offsets, innermost first: {col, row} of the box's
 * first element.  They may run past the matrix: elements outside it are
 * written as zeros, and the full box is still counted in the transaction
 * bytes (docs/hopper_ptx.md, TMA loads).
 *
 * The data written by a load is made visible to the threads whose wait on
 * the barrier succeeded (the load's complete_tx is a release, try_wait an
 * acquire): no proxy fence is needed between a TMA load and wgmma or ld.shared.
 * The other direction (generic stores read by a TMA store or wgmma) needs
 * fence_proxy_async_smem() in the writing threads.
 *
 * Needs <cuda.h> for CUtensorMap.  The map must live in param, const or
 * global memory: pass it as `const __grid_constant__ CUtensorMap` and take
 * its address here. */
#ifndef COMMON_TMA_CUH
#define COMMON_TMA_CUH

#include <stdint.h>
#include <cuda.h>

/* Copy the box at {c_inner, c_outer} of `map` into shared memory at
 * smem_dst and signal its bytes on the mbarrier at smem_mbar (both 32-bit
 * shared-window addresses).  smem_dst is 128-byte aligned, and 1024-byte
 * aligned for a SWIZZLE_128B box that wgmma reads with base offset 0. */
static __device__ __forceinline__ void tma_load_2d(uint32_t smem_dst, const CUtensorMap *map,
                                                   int32_t c_inner, int32_t c_outer,
                                                   uint32_t smem_mbar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(smem_dst), "l"((uint64_t)map), "r"(c_inner), "r"(c_outer), "r"(smem_mbar)
                 : "memory");
}

/* Copy a box from shared memory at smem_src to {c_inner, c_outer} of `map`.
 * Elements outside the matrix are not written.  Completion is tracked by
 * bulk async-groups of the issuing thread: commit, then wait. */
static __device__ __forceinline__ void tma_store_2d(const CUtensorMap *map, int32_t c_inner,
                                                    int32_t c_outer, uint32_t smem_src)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                 :: "l"((uint64_t)map), "r"(c_inner), "r"(c_outer), "r"(smem_src)
                 : "memory");
}

/* Close the group of this thread's bulk stores issued since the last commit. */
static __device__ __forceinline__ void tma_store_commit_group(void)
{
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

/* Wait until at most n of this thread's committed store groups still have
 * to READ their shared-memory source (then the buffer may be rewritten).
 * Only the committing thread can wait on its groups.  n is an immediate in
 * the instruction, hence the switch (0..7; larger n waits as for 7). */
static __device__ __forceinline__ void tma_store_wait_read(int n)
{
    switch (n) {
    case 0: asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); break;
    case 1: asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory"); break;
    case 2: asm volatile("cp.async.bulk.wait_group.read 2;" ::: "memory"); break;
    case 3: asm volatile("cp.async.bulk.wait_group.read 3;" ::: "memory"); break;
    case 4: asm volatile("cp.async.bulk.wait_group.read 4;" ::: "memory"); break;
    case 5: asm volatile("cp.async.bulk.wait_group.read 5;" ::: "memory"); break;
    case 6: asm volatile("cp.async.bulk.wait_group.read 6;" ::: "memory"); break;
    default: asm volatile("cp.async.bulk.wait_group.read 7;" ::: "memory"); break;
    }
}

/* Wait until all of this thread's store groups have completed their global
 * writes (before the kernel's results are needed by someone else). */
static __device__ __forceinline__ void tma_store_wait_all(void)
{
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

/* Order this thread's earlier generic-proxy shared-memory accesses (st.shared,
 * stmatrix, mbarrier.init) before later async-proxy accesses (TMA, wgmma). */
static __device__ __forceinline__ void fence_proxy_async_smem(void)
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/* Bring the 128-byte tensor map into the TMA unit's cache before the first
 * copy needs it.  One thread, once per map. */
static __device__ __forceinline__ void tma_prefetch_map(const CUtensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];" :: "l"((uint64_t)map) : "memory");
}

/* All 32 lanes must call it (elect.sync over the full mask); returns 1 in
 * exactly one of them, the same lane for the same set of active lanes. */
static __device__ __forceinline__ uint32_t elect_one_sync(void)
{
    uint32_t leader;
    asm volatile("{\n"
                 " .reg .pred p;\n"
                 " elect.sync _|p, 0xffffffff;\n"
                 " selp.u32 %0, 1, 0, p;\n"
                 "}"
                 : "=r"(leader));
    return leader;
}

#endif
