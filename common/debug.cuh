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
enum { BUG_PRODUCER_PHASE0 = 1, BUG_SKIP_COMMIT = 2, BUG_SKIP_RELEASE = 3 };
#define PLANTED(plant_bug, which) (COURSE_DEBUG_BUILD && (plant_bug) == (which))

/* What the timed-out thread saw. */
typedef struct {
    volatile int hung;          /* 1 once a thread timed out */
    int block, warp, slot;
    uint32_t phase;
    char barrier[24];           /* e.g. "empty", "full", "pingpong" */
    char waiter[32];            /* e.g. "producer_acquire" */
} hang_report;

/* Pointer into mapped host memory, set by debug_hang_report_install(). */
static __device__ hang_report *g_hang_report;
static __device__ int g_hang_claimed;

static __device__ __forceinline__ uint64_t globaltimer_ns(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __device__ void copy_name(char *dst, const char *src, int cap)
{
    int i = 0;
    for (; i < cap - 1 && src[i]; ++i) dst[i] = src[i];
    dst[i] = '\0';
}

/* Called by a thread whose wait exceeded HANG_TIMEOUT_NS.  Never returns. */
static __device__ __noinline__ void report_hang(const char *barrier, const char *waiter,
                                                int slot, uint32_t phase)
{
    if (atomicCAS(&g_hang_claimed, 0, 1) == 0) {
        hang_report *r = g_hang_report;
        if (r) {
            r->block = (int)blockIdx.x;
            r->warp = (int)(threadIdx.x / 32);
            r->slot = slot;
            r->phase = phase;
            copy_name(r->barrier, barrier, (int)sizeof r->barrier);
            copy_name(r->waiter, waiter, (int)sizeof r->waiter);
            __threadfence_system();
            r->hung = 1;
            __threadfence_system();
        }
        printf("HANG: block %d warp %d waited more than %.1f s in %s on barrier '%s' "
               "slot %d for phase parity %u\n",
               (int)blockIdx.x, (int)(threadIdx.x / 32), HANG_TIMEOUT_NS * 1e-9, waiter,
               barrier, slot, phase);
        /* A fence orders the writes but does not wait for them to reach the
         * host; give them time to land before the trap tears the context down. */
        const uint64_t t0 = globaltimer_ns();
        while (globaltimer_ns() - t0 < 20000000ull) { }
        __trap();
    }
    /* Every other thread that times out waits here for the first one's trap:
     * trapping now could kill the grid before the report reaches the host. */
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
    if (h && h->hung)
        fprintf(stderr,
                "pipeline hang diagnosed: block %d warp %d timed out in %s on barrier '%s' "
                "slot %d waiting for phase parity %u\n",
                h->block, h->warp, h->waiter, h->barrier, h->slot, h->phase);
}

#endif
