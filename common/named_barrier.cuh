/* named_barrier.cuh — the 16 hardware barriers of a CTA, by number (steps 06-09).
 *
 * __syncthreads() is barrier 0 with every thread of the CTA.  The same
 * hardware offers 15 more, each with a thread count of our choosing, so a
 * subset of warps can synchronize without stopping the others:
 *
 *   named_bar_sync(id, n)    arrive and wait until n threads have arrived
 *   named_bar_arrive(id, n)  arrive and go on (a signal to the waiters)
 *
 * A barrier completes when n threads (counted per warp, so n is a multiple
 * of 32) have arrived by either call, then re-arms itself.  Accesses made
 * before arriving are visible to the threads that waited.  Rules (PTX ISA,
 * "bar, barrier"): never id 0 while __syncthreads is in use; every warp calls
 * with all its lanes (.aligned); a warp that arrived on an id must not use
 * that id again before the barrier completed.  The steps keep their ids in
 * an enum that starts at 1.
 *
 * DEBUG builds (make DEBUG=1).  A hardware barrier cannot be polled, so a
 * wait on one cannot time out: a missing arrive would hang silently.  In
 * DEBUG builds the two calls are therefore emulated in shared memory with
 * the same meaning: a per-id counter of arrived threads that only grows;
 * the k-th completion happens when it reaches k * n; a syncing warp waits,
 * bounded by HANG_TIMEOUT_NS, until the count reaches the end of its own
 * generation, and otherwise reports the hang by barrier name and id
 * (debug.cuh).  Normal builds compile to bar.sync / bar.arrive only. */
#ifndef COMMON_NAMED_BARRIER_CUH
#define COMMON_NAMED_BARRIER_CUH

#include <stdint.h>
#include "debug.cuh"

#define NAMED_BARRIERS 16

#ifdef COURSE_DEBUG
static __device__ __forceinline__ unsigned *named_bar_counts(void)
{
    __shared__ unsigned counts[NAMED_BARRIERS];   /* threads arrived so far, per id */
    return counts;
}
#endif

/* Call from one thread before the kernel's first __syncthreads (no-op in
 * normal builds). */
static __device__ __forceinline__ void named_bar_init(void)
{
#ifdef COURSE_DEBUG
    for (int i = 0; i < NAMED_BARRIERS; ++i) named_bar_counts()[i] = 0;
#endif
}

static __device__ __forceinline__ void named_bar_sync(int id, int nthreads, const char *name)
{
#ifdef COURSE_DEBUG
    __syncwarp();
    if (threadIdx.x % 32 == 0) {
        volatile unsigned *c = named_bar_counts() + id;
        __threadfence_block();                                  /* release the warp's writes */
        const unsigned old = atomicAdd((unsigned *)c, 32u);
        const unsigned done = (old / (unsigned)nthreads + 1u) * (unsigned)nthreads;
        const uint64_t t0 = trace_now();
        while ((int)(*c - done) < 0)
            if (trace_now() - t0 > HANG_TIMEOUT_NS)
                report_hang(name, "named_bar_sync", id, (old / (unsigned)nthreads) & 1u);
        __threadfence_block();                                  /* acquire the others' */
    }
    __syncwarp();
#else
    (void)name;
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(nthreads) : "memory");
#endif
}

static __device__ __forceinline__ void named_bar_arrive(int id, int nthreads)
{
#ifdef COURSE_DEBUG
    (void)nthreads;
    __syncwarp();
    if (threadIdx.x % 32 == 0) {
        __threadfence_block();
        atomicAdd(named_bar_counts() + id, 32u);
    }
    __syncwarp();
#else
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(nthreads) : "memory");
#endif
}

#endif
