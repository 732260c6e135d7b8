/* mbarrier.cuh — the shared-memory barrier that replaces __syncthreads, and the
 * pipeline vocabulary built on it (docs/hopper_ptx.md, "mbarrier").
 *
 * An mbarrier is a 64-bit object in shared memory holding a phase bit, a count
 * of arrivals still expected in this phase and a transaction byte count
 * (TMA, step 05).  A phase completes when every expected thread has arrived
 * and the byte count is back to 0; the barrier then flips its phase and
 * re-arms itself with the init count.  Waiting is by parity: wait(bar, P)
 * returns once the phase with parity P has completed.
 *
 * Unlike bar.sync, arriving does not wait, and waiting threads need not be
 * the arriving ones.  That is what lets producer and consumer warps run
 * different code paths, each blocking only on the other's progress.
 *
 * Two ways to ask "has the phase completed?", and the wrappers are named for
 * the instruction they issue:
 *   mbar_test_wait   mbarrier.test_wait: answers at once, never suspends.
 *   mbar_try_wait    mbarrier.try_wait: if the phase is not complete yet, the
 *                    thread may be suspended until it completes or until a
 *                    time limit the hardware chooses runs out; then answers.
 *                    A loop around it is the blocking wait (mbar_wait_named):
 *                    suspended threads do not spin on the issue slots.
 *
 * Vocabulary (the CuTe DSL's and CUTLASS's names; docs/glossary.md), for a
 * ring of slots with a `full` and an `empty` barrier each:
 *   producer_acquire(empty, slot, phase)    wait until the slot may be written
 *   producer_commit(full, slot)             "data is in": arrive on full
 *   producer_commit_cp_async(full, slot)    the same, performed when this
 *                                           thread's cp.async copies land
 *   consumer_wait(full, slot, phase)        wait until the slot holds data
 *                                           (a try_wait loop)
 *   consumer_test_wait(full, slot, phase)   peek: has it arrived?  test_wait,
 *                                           never blocks (CUTLASS's
 *                                           consumer_test_wait; its
 *                                           consumer_try_wait may suspend)
 *   consumer_release(empty, slot)           "done reading": arrive on empty
 *
 * Memory ordering: arrive has .release and test_wait/try_wait .acquire
 * semantics at CTA scope (PTX defaults), so the arriving thread's
 * shared-memory writes are visible to a thread whose wait succeeded.  That
 * covers only the arriving thread's own writes, so every thread that wrote
 * the slot arrives itself (init count = number of writer threads): no
 * reliance on cumulativity. */
#ifndef COMMON_MBARRIER_CUH
#define COMMON_MBARRIER_CUH

#include <stdint.h>
#include "debug.cuh"

static __device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* One thread initializes; then mbar_fence_init() and a __syncthreads() make
 * the initialized barrier visible to every thread (and to the TMA unit)
 * before anyone arrives or waits on it. */
static __device__ __forceinline__ void mbar_init(uint64_t *bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count)
                 : "memory");
}

static __device__ __forceinline__ void mbar_fence_init(void)
{
    /* Orders this thread's mbarrier.init before later arrives/waits of other
     * threads (after the following __syncthreads) and of the async proxy. */
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

static __device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(bar)) : "memory");
}

/* Arrive and announce `bytes` of asynchronous (TMA) writes that must land
 * before this phase can complete. */
static __device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t *bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bar)),
                 "r"(bytes)
                 : "memory");
}

/* mbarrier.test_wait: 1 if the phase with this parity has completed, else 0.
 * Never suspends the thread: a peek that costs one instruction. */
static __device__ __forceinline__ uint32_t mbar_test_wait(uint64_t *bar, uint32_t parity)
{
    uint32_t done;
    asm volatile("{\n .reg .pred p;\n"
                 " mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(smem_u32(bar)), "r"(parity)
                 : "memory");
    return done;
}

/* mbarrier.try_wait: 1 if the phase with this parity has completed, else 0,
 * like test_wait, but when the phase is still incomplete the thread may be
 * suspended first, until the phase completes or a hardware-defined time limit
 * expires.  Call it in a loop (mbar_wait_named) to wait; use test_wait to peek. */
static __device__ __forceinline__ uint32_t mbar_try_wait(uint64_t *bar, uint32_t parity)
{
    uint32_t done;
    asm volatile("{\n .reg .pred p;\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(smem_u32(bar)), "r"(parity)
                 : "memory");
    return done;
}

/* Block until the phase with this parity has completed: try_wait in a loop.
 * The names only feed the DEBUG build's hang report. */
static __device__ __forceinline__ void mbar_wait_named(uint64_t *bar, uint32_t parity,
                                                       const char *barrier, const char *waiter,
                                                       int slot)
{
#ifdef COURSE_DEBUG
    if (mbar_try_wait(bar, parity)) return;
    const uint64_t t0 = trace_now();
    while (!mbar_try_wait(bar, parity))
        if (trace_now() - t0 > HANG_TIMEOUT_NS) report_hang(barrier, waiter, slot, parity);
#else
    (void)barrier; (void)waiter; (void)slot;
    asm volatile("{\n .reg .pred p;\n"
                 "LAB_WAIT:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 " @!p bra LAB_WAIT;\n}" ::"r"(smem_u32(bar)),
                 "r"(parity)
                 : "memory");
#endif
}


/* ---- pipeline vocabulary ---------------------------------------------- */

static __device__ __forceinline__ void producer_acquire(uint64_t *empty, uint32_t slot,
                                                        uint32_t phase)
{
    mbar_wait_named(&empty[slot], phase, "empty", "producer_acquire", (int)slot);
}

static __device__ __forceinline__ void producer_commit(uint64_t *full, uint32_t slot)
{
    mbar_arrive(&full[slot]);
}

/* Arrive on the barrier once all cp.async copies this thread has issued so
 * far have landed (the arrival is performed by the memory system later; the
 * thread does not wait).  .noinc: the arrival counts against the barrier's
 * init count, so full's count is the number of copying threads. */
static __device__ __forceinline__ void mbar_arrive_on_cp_async(uint64_t *bar)
{
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(smem_u32(bar))
                 : "memory");
}

/* producer_commit for a producer that fills the slot with cp.async. */
static __device__ __forceinline__ void producer_commit_cp_async(uint64_t *full, uint32_t slot)
{
    mbar_arrive_on_cp_async(&full[slot]);
}

static __device__ __forceinline__ void consumer_wait(uint64_t *full, uint32_t slot,
                                                     uint32_t phase)
{
    mbar_wait_named(&full[slot], phase, "full", "consumer_wait", (int)slot);
}

/* Peek without blocking (test_wait): 1 if the slot already holds data.  A 0
 * must be followed by consumer_wait before the slot is read. */
static __device__ __forceinline__ uint32_t consumer_test_wait(uint64_t *full, uint32_t slot,
                                                              uint32_t phase)
{
    return mbar_test_wait(&full[slot], phase);
}

static __device__ __forceinline__ void consumer_release(uint64_t *empty, uint32_t slot)
{
    mbar_arrive(&empty[slot]);
}

#endif
