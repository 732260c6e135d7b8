/* trace.cuh — per-warp timelines from %globaltimer (the --trace flag).
 *
 * Each step's CTA body takes a trace_ctx.  Two kernels are built from the
 * body: the timed one passes trace_disabled(), a compile-time constant, so
 * every trace point compiles away; the traced one passes its kernel argument.
 * The launcher picks by whether the harness asked for a trace (TRACE_ON),
 * i.e. the recording is compiled in and switched by the launch argument, and
 * the timed kernel is the same as with no tracing at all.  When --trace is
 * given the harness runs one extra launch with recs set: one lane per warp (or per warpgroup) of two CTAs
 * (CTA 0 and the last one) appends (t_start, t_end, unit, role, phase, index)
 * records, and the host writes them as CSV for plots/timeline.gp.
 *
 * Caveat (docs/hopper_ptx.md, %globaltimer): a stamp read right after bar.sync can carry
 * the time the warp *issued* the barrier, not when it was released.  The
 * steps stamp the end of a barrier wait only after a dependent shared-memory
 * read, or after an mbarrier try_wait loop (whose branch depends on it). */
#ifndef COMMON_TRACE_CUH
#define COMMON_TRACE_CUH

#include <stdint.h>

/* What a record's span was spent on.  Rows of the Gantt chart are units
 * (warp or warpgroup), colours are these. */
enum trace_phase {
    TP_PRODUCER_ACQUIRE = 0,  /* producer waits for an empty slot (or the WAR barrier) */
    TP_PRODUCER_LOAD = 1,     /* producer issues / performs the load into the slot */
    TP_CONSUMER_WAIT = 2,     /* consumer waits for a full slot (or the RAW barrier) */
    TP_CONSUMER_COMPUTE = 3,  /* consumer computes on the slot (FMAs, mma.sync, wgmma) */
    TP_CONSUMER_RELEASE = 4,  /* consumer waits for its MMAs and releases the slot */
    TP_EPILOGUE = 5,          /* accumulators to global memory */
    TP_FIXUP = 6,             /* stream-K (step 09): a writer stores its partial, or an owner waits for and adds them */
    TP_COUNT = 7
};

typedef struct {
    uint64_t t_start, t_end;  /* %globaltimer, ns */
    int32_t cta;              /* blockIdx.x */
    int16_t unit;             /* warp index (streaming) or warpgroup index (GEMM) */
    int16_t phase;            /* enum trace_phase */
    int32_t index;            /* chunk or tile / k-tile index */
    int32_t pad;
} trace_rec;

typedef struct {
    trace_rec *recs;          /* NULL: tracing off */
    uint32_t *counts;         /* records written, per (traced CTA, unit) */
    int cap;                  /* records per (traced CTA, unit) */
    int units;                /* units per CTA */
    int cta_a, cta_b;         /* the two traced CTAs (linear ids); cta_b = -W: see trace_put */
} trace_ctx;

/* -DCOURSE_NO_TRACE compiles every trace point out (used once to measure what
 * the compiled-in, switched-off tracing costs: see the README). */
#ifdef COURSE_NO_TRACE
#define TRACE_ON(tr) 0
#else
#define TRACE_ON(tr) ((tr).recs != NULL)
#endif

/* The untraced kernel of each step passes this compile-time constant to the
 * shared CTA body, so after inlining every TRACE_ON() is a constant 0 and
 * the timed kernel contains no trace code at all (measured: a run-time
 * branch alone cost up to 3.6% in step 02). */
static __host__ __device__ __forceinline__ trace_ctx trace_disabled(void)
{
    trace_ctx t = {NULL, NULL, 0, 0, 0, 0};
    return t;
}

static __device__ __forceinline__ uint64_t trace_now(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) :: "memory");
    return t;
}

/* A timer read that cannot issue before `dep` (e.g. a value just loaded from
 * shared memory after a barrier) is available. */
static __device__ __forceinline__ uint64_t trace_now_after(uint32_t dep)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : "r"(dep) : "memory");
    return t;
}

/* Append one record for `unit` of this CTA.  Call from one lane per unit. */
static __device__ __forceinline__ void trace_put(trace_ctx tr, int unit, int phase, int index,
                                              uint64_t t0, uint64_t t1)
{
    const int total = (int)(gridDim.x * gridDim.y * gridDim.z);
    const int cta = (int)(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
    /* cta_b = -W: the last CTA of the first wave of W CTAs (or of the grid) */
    const int cta_b = tr.cta_b >= 0 ? tr.cta_b : min(-tr.cta_b, total) - 1;
    const int which = cta == tr.cta_a ? 0 : cta == cta_b ? 1 : -1;
    if (which < 0 || unit >= tr.units) return;
    uint32_t *cnt = &tr.counts[which * tr.units + unit];
    uint32_t i = *cnt;      /* one writer per (CTA, unit): no atomic needed */
    if ((int)i >= tr.cap) return;
    *cnt = i + 1;
    trace_rec r;
    r.t_start = t0; r.t_end = t1; r.cta = (int32_t)cta; r.unit = (int16_t)unit;
    r.phase = (int16_t)phase; r.index = index; r.pad = 0;
    tr.recs[((size_t)which * tr.units + unit) * tr.cap + i] = r;
}

/* Stamp helpers used in the steps:
 *   uint64_t t = TRACE_ON(tr) ? trace_now() : 0;   ...work...
 *   TRACE_SPAN(tr, lane0, unit, TP_X, idx, t);     records [t, now] and sets t = now */
#define TRACE_SPAN(tr, writer, unit, phase, index, t)                               \
    do {                                                                            \
        if (TRACE_ON(tr)) {                                                         \
            uint64_t now_ = trace_now();                                            \
            if (writer) trace_put((tr), (unit), (phase), (int)(index), (t), now_);  \
            (t) = now_;                                                             \
        }                                                                           \
    } while (0)

/* A role's timeline clock (steps 05+): the kernel's trace_ctx, the timeline
 * unit (warpgroup) that writes, the end of the last span, and `on`, a
 * compile-time constant in each kernel (0 in the timed one), so that every
 * CLOCK_SPAN compiles away there.  Spans follow each other: each ends where
 * the next begins. */
typedef struct {
    trace_ctx tr;
    uint64_t t;
    int unit;
    int on;
} trace_clock;

static __device__ __forceinline__ trace_clock trace_clock_start(trace_ctx tr, int unit, int on)
{
    trace_clock c;
    c.tr = tr;
    c.t = on ? trace_now() : 0;
    c.unit = unit;
    c.on = on;
    return c;
}

#define CLOCK_SPAN(clk, writer, phase, index)                                        \
    do {                                                                             \
        if ((clk)->on) TRACE_SPAN((clk)->tr, (writer), (clk)->unit, phase, index, (clk)->t); \
    } while (0)

#endif
