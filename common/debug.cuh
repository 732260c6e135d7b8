/* debug.cuh — turn a pipeline hang into a message (make DEBUG=1).
 *
 * A pipeline with one phase bit wrong does not crash: every warp waits
 * forever on a barrier nobody will complete.  In a DEBUG build (COURSE_DEBUG
 * defined) every wait in common/ (mbarrier waits, named barriers) spins for at
 * most HANG_TIMEOUT_NS of %globaltimer; then the first thread to time out
 * records who waited on what, prints it, and traps.  The record goes to
 * mapped (zero-copy) host memory as well, because after a trap the context is
 * gone and device printf output is not guaranteed to be flushed: the harness
 * prints the record when the launch fails.  In normal builds none of this is
 * compiled into the kernels. */
#ifndef COMMON_DEBUG_CUH
#define COMMON_DEBUG_CUH

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "trace.cuh"   /* trace_now: the one %globaltimer read */

#ifndef HANG_TIMEOUT_NS
#define HANG_TIMEOUT_NS 2000000000ull   /* 2 s: far above any real wait */
#endif

#ifdef COURSE_DEBUG
#define COURSE_DEBUG_BUILD 1
#else
#define COURSE_DEBUG_BUILD 0
#endif

/* Planted protocol bugs (--plant-bug B, DEBUG builds only) for the test that
 * checks a hang is diagnosed.  In normal builds PLANTED() is the constant 0
 * and the compiler removes the planted branch. */
enum { BUG_PRODUCER_PHASE0 = 1, BUG_SKIP_COMMIT = 2, BUG_SKIP_RELEASE = 3, BUG_SKIP_NAMED_ARRIVE = 4,
       BUG_SKIP_FLAG = 5 /* step 09: a stream-K writer never raises its partial's flag */ };
/* Step 08 (clusters): one consumer release reaches its own CTA's empty
 * barrier but not the partner's (the remote arrive is skipped once), so the
 * partner's producer waits on 'empty' forever. */
enum { BUG_SKIP_REMOTE_RELEASE = 6 };
#define PLANTED(plant_bug, which) (COURSE_DEBUG_BUILD && (plant_bug) == (which))

/* What the timed-out threads saw: up to HANG_MAX_WAITERS distinct waits
 * (waiter, barrier, slot, parity).  One stuck wait usually strands others
 * (a producer stuck on `empty` leaves consumers stuck on `full`); listing
 * them all lets the reader tell cause from consequence. */
#define HANG_MAX_WAITERS 8
typedef struct {
    int block, warp, slot;
    uint32_t phase;
    char barrier[24];           /* e.g. "empty", "full", "pingpong" */
    char waiter[32];            /* e.g. "producer_acquire" */
} hang_wait;

typedef struct {
    volatile int hung;          /* nonzero once a wait timed out */
    hang_wait w[HANG_MAX_WAITERS];
} hang_report;

/* Pointer into mapped host memory, set by debug_hang_report_install(). */
static __device__ hang_report *g_hang_report;
static __device__ unsigned long long g_hang_keys[HANG_MAX_WAITERS];   /* claimed waits */
static __device__ int g_hang_first;    /* 0 until the first reporter claims the trap */

static __device__ void copy_name(char *dst, const char *src, int cap)
{
    int i = 0;
    for (; i < cap - 1 && src[i]; ++i) dst[i] = src[i];
    dst[i] = '\0';
}

/* Called by a thread whose wait exceeded HANG_TIMEOUT_NS.  Never returns.
 * One lane of each stuck warp adds its wait to the report unless an equal one
 * (same waiter, barrier, slot, parity) is there; the first reporter waits
 * 50 ms for the others to record theirs, then traps for everybody. */
static __device__ __noinline__ void report_hang(const char *barrier, const char *waiter,
                                                int slot, uint32_t phase)
{
    hang_report *r = g_hang_report;
    const unsigned active = __activemask();
    /* the lowest lane among those that timed out together (a single elected
     * thread, e.g. a TMA producer, may not be lane 0) */
    if (r && (active & (0u - active)) == (1u << (threadIdx.x % 32))) {
        /* Claim a table entry for this (waiter, barrier, slot, parity): an
         * atomicCAS on a key table in device memory keeps one entry per
         * distinct wait however many warps time out at once. */
        const unsigned long long key =
            (((unsigned long long)(uintptr_t)waiter * 1000003ull) ^ (uintptr_t)barrier ^
             ((unsigned long long)(slot + 1) << 40) ^ ((unsigned long long)phase << 62)) | 1ull;
        int e = HANG_MAX_WAITERS;
        for (int i = 0; i < HANG_MAX_WAITERS; ++i) {
            const unsigned long long old = atomicCAS(&g_hang_keys[i], 0ull, key);
            if (old == 0ull) { e = i; break; }          /* new wait: entry i is ours */
            if (old == key) break;                      /* already reported */
        }
        if (e < HANG_MAX_WAITERS) {
            hang_wait *h = &r->w[e];
            h->block = (int)blockIdx.x;
            h->warp = (int)(threadIdx.x / 32);
            h->slot = slot;
            h->phase = phase;
            copy_name(h->barrier, barrier, (int)sizeof h->barrier);
            copy_name(h->waiter, waiter, (int)sizeof h->waiter);
            __threadfence_system();
            /* plain store: atomics on host memory are not available over PCIe */
            if (r->hung < e + 1) r->hung = e + 1;
            __threadfence_system();
            printf("HANG: block %d warp %d waited more than %.1f s in %s on barrier '%s' "
                   "slot %d for phase parity %u\n",
                   (int)blockIdx.x, (int)(threadIdx.x / 32), HANG_TIMEOUT_NS * 1e-9, waiter,
                   barrier, slot, phase);
            if (atomicExch(&g_hang_first, 1) == 0) {
                /* Let the other stuck warps record their waits and the writes
                 * reach the host (a fence orders them but does not wait for
                 * them), then tear the grid down. */
                const uint64_t t0 = trace_now();
                while (trace_now() - t0 < 50000000ull) { }
                __trap();
            }
        }
    }
    if (!r) __trap();
    /* Everyone else waits here for the first reporter's trap. */
    for (;;) __nanosleep(1000000);
}

/* Host side: allocate the mapped record and point the kernels' symbol at it.
 * Call once after the device is selected (the harness does). */
static hang_report *debug_hang_report_install(void)
{
#ifdef COURSE_DEBUG
    hang_report *h = NULL, *d = NULL;
    if (cudaHostAlloc((void **)&h, sizeof *h, cudaHostAllocMapped) != cudaSuccess) return NULL;
    memset((void *)h, 0, sizeof *h);
    if (cudaHostGetDevicePointer((void **)&d, h, 0) != cudaSuccess) return NULL;
    if (cudaMemcpyToSymbol(g_hang_report, &d, sizeof d) != cudaSuccess) return NULL;
    return h;
#else
    return NULL;
#endif
}

/* After a failed launch: print what the timed-out thread recorded, if any. */
static void debug_hang_report_print(const hang_report *h)
{
    if (!h || !h->hung) return;
    fprintf(stderr, "pipeline hang diagnosed: these waits timed out after %.1f s:\n",
            HANG_TIMEOUT_NS * 1e-9);
    for (int i = 0; i < HANG_MAX_WAITERS; ++i)
        if (h->w[i].waiter[0])
            fprintf(stderr, "  block %d warp %d in %s on barrier '%s' slot %d waiting for phase parity %u\n",
                h->w[i].block, h->w[i].warp, h->w[i].waiter, h->w[i].barrier, h->w[i].slot,
                h->w[i].phase);
}

#endif
