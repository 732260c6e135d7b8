/* cp_async.cuh — Ampere-style asynchronous copies, global -> shared (sm_80+).
 *
 * cp.async hands a 16-byte copy to the memory system and returns at once: the
 * thread keeps issuing (more copies, math) while the bytes travel.  The thread
 * groups its copies (commit_group closes the group of every copy issued since
 * the last commit) and later waits for groups by age:
 *
 *   cp_async_wait_group(n)   block until at most the n most recent groups are
 *                            still in flight; all older groups have landed.
 *
 * Two rules that every user of these wrappers must know:
 *   - Groups belong to the issuing THREAD.  After a wait the data is visible
 *     to that thread only; a __syncthreads() (or another CTA barrier) must
 *     follow before other threads read what it copied.
 *   - Counting is by position, not by content.  A multistage loop that
 *     commits once per iteration must commit even when it had nothing to
 *     copy (an empty group is complete at once): skip one and
 *     wait_group(n) suddenly means "one group later" and lets a stage be read
 *     before it landed (docs/hopper_ptx.md, "Pitfalls", 8).
 *
 * Shared-memory operands are 32-bit shared-window addresses, e.g.
 * (uint32_t)__cvta_generic_to_shared(p), as everywhere in common/. */
#ifndef COMMON_CP_ASYNC_CUH
#define COMMON_CP_ASYNC_CUH

#include <stdint.h>

/* Copy 16 bytes from global src to shared dst, bypassing L1 (.cg: the data is
 * used from shared memory, not re-read through L1), and ask L2 to fetch the
 * whole 128-byte line (.L2::128B: the neighbouring bytes come next, e.g. the
 * next k-tile of the same GEMM rows).  Only src_bytes (16 or 0) are read; the
 * rest of the 16 is written as zeros.  src_bytes = 0 is how an edge is
 * handled: nothing is read (we still pass an address inside the array) and
 * the destination becomes zeros, which add nothing to a dot product.
 * Both addresses must be 16-byte aligned. */
static __device__ __forceinline__ void cp_async_cg_16(uint32_t dst_smem, const void *src_gmem,
                                                      uint32_t src_bytes)
{
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;"
                 ::"r"(dst_smem), "l"(src_gmem), "r"(src_bytes)
                 : "memory");
}

/* Close the current group: every cp.async this thread issued since the last
 * commit belongs to it. */
static __device__ __forceinline__ void cp_async_commit_group(void)
{
    asm volatile("cp.async.commit_group;" ::: "memory");
}

/* Wait until at most n of this thread's most recent groups are still pending.
 * The PTX instruction takes n as an immediate, so a run-time n (e.g. stages-2
 * with --stages) goes through this switch; with a constant n the compiler
 * keeps only the one case.  n outside 0..7 waits for everything, which is
 * always safe (it only waits longer). */
static __device__ __forceinline__ void cp_async_wait_group(int n)
{
    switch (n) {
    case 7: asm volatile("cp.async.wait_group 7;" ::: "memory"); break;
    case 6: asm volatile("cp.async.wait_group 6;" ::: "memory"); break;
    case 5: asm volatile("cp.async.wait_group 5;" ::: "memory"); break;
    case 4: asm volatile("cp.async.wait_group 4;" ::: "memory"); break;
    case 3: asm volatile("cp.async.wait_group 3;" ::: "memory"); break;
    case 2: asm volatile("cp.async.wait_group 2;" ::: "memory"); break;
    case 1: asm volatile("cp.async.wait_group 1;" ::: "memory"); break;
    default: asm volatile("cp.async.wait_group 0;" ::: "memory"); break;
    }
}

/* Commit whatever is open and wait for all of this thread's copies. */
static __device__ __forceinline__ void cp_async_wait_all(void)
{
    asm volatile("cp.async.wait_all;" ::: "memory");
}


/* Copy 4 bytes (one float) global -> shared through L1 (.ca; 4-byte copies
 * may not use .cg); src_bytes 0 writes a zero and reads nothing.  For the
 * ragged end of an array whose length is not a multiple of 4 elements, where
 * a 16-byte copy would reach past the allocation. */
static __device__ __forceinline__ void cp_async_ca_4(uint32_t dst_smem, const void *src_gmem,
                                                     uint32_t src_bytes)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;"
                 ::"r"(dst_smem), "l"(src_gmem), "r"(src_bytes)
                 : "memory");
}

#endif
