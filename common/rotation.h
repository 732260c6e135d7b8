/* rotation.h — which input set each timed launch reads, so that the step and
 * cuBLAS are measured under the same conditions (gemm_impl.cuh, the GEMM
 * harness of steps 04 and up and of peers/).
 *
 * Two things would make an interleaved A/B timing unfair or meaningless:
 *   - a side that reads what the other side has just read: its A and B are
 *     then partly in L2.  (Until this header, both sides of pair i read set
 *     i % nsets: cuBLAS always ran on the inputs the step had just pulled into
 *     L2, worth 3-4% of cuBLAS's time at 1024^3-2048^3 on an H100.)
 *   - inputs that stay in L2 from one launch to their next use: a small
 *     problem then measures the cache, not the kernel.
 * So a set is an A, a B and the D its launch writes, and the sets are taken
 * in the order the launches run, whichever side a launch belongs to (launch
 * t reads set t mod nsets, and writes its D): no launch reads the
 * set the launch before it read, the two sides read the same buffers (no
 * placement belongs to one side), and there are enough sets that between
 * two reads of one set the other sets move ROTATION_COVER_L2 times the L2's
 * size through it.  (Measured: this alone did not take the A/A test to 1.00
 * at 512^3 and 1024^3, which read 0.98-0.99 with sets and D shared this way;
 * the random order of each round did, harness.cuh.)  Where that would take
 * more than ROTATION_MAX_SETS sets (tiny problems: < 600 KB of A and B on an
 * H100) or more memory than the device
 * has, the harness instead flushes L2 before every timed launch (reads a
 * buffer of twice its size, outside the timed span).
 *
 * Plain C, header-inline: tests/test_rotation.c checks the exact code the
 * harness runs. */
#ifndef COMMON_ROTATION_H
#define COMMON_ROTATION_H

#include <stddef.h>

#define ROTATION_COVER_L2 3       /* bytes of all sets >= 3 x L2: 2 x L2 between reads of one */
#define ROTATION_MAX_SETS 256

typedef struct {
    int nsets;      /* input sets (A and B each), >= 1 */
    int flush;      /* 1: the sets cannot keep each other out of L2: flush before every launch */
} rotation_plan;

/* bytes: one set (A, B and D); l2: the device's L2 size; budget: device memory
 * the sets may take (>= bytes, or there is no run at all). */
static inline rotation_plan rotation_plan_make(double bytes, double l2, double budget)
{
    rotation_plan p;
    const double cover = ROTATION_COVER_L2 * l2;
    double want = bytes > 0 ? cover / bytes : 1;
    int n = want >= ROTATION_MAX_SETS ? ROTATION_MAX_SETS : (int)want + (want > (int)want);
    if (n < 2) n = 2;              /* never the set the launch before read */
    n += n & 1;                    /* even: one round of two launches reads two sets */
    if (n > ROTATION_MAX_SETS) n = ROTATION_MAX_SETS;
    while (n > 2 && (double)n * bytes > budget) n -= 2;
    if (n == 2 && 2.0 * bytes > budget) n = 1;   /* only one fits: both sides share it */
    p.nsets = n;
    p.flush = (double)n * bytes < cover;
    return p;
}

/* The set the launch at position t of the run (0, 1, 2 ..., both sides
 * counted, in the order they run) reads. */
static inline int rotation_set(long long t, int nsets)
{
    return (int)(t % nsets);
}

#endif
