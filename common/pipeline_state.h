/* pipeline_state.h — where a producer or a consumer is in a ring of S slots.
 *
 * A pipeline of S slots has, per slot, a `full` and an `empty` mbarrier.  Each
 * side walks the ring with its own (index, phase):
 *
 *   index  which slot to touch next: 0, 1, ..., S-1, 0, 1, ...
 *   phase  which phase of that slot's barrier to wait for.  An mbarrier's
 *          phases alternate 0, 1, 0, 1 ...; try_wait.parity(P) succeeds once
 *          the phase with parity P has completed.  Each time the index wraps
 *          to 0 the waiter has consumed one phase of every slot, so it flips.
 *
 * Start states (the one fact everyone gets wrong once):
 *   consumer  (0, 0): waits for the first completion of full[0].
 *   producer  (0, 1): a fresh barrier is in phase 0, which has not completed,
 *             so try_wait.parity(1) asks about "the phase before phase 0" and
 *             returns true at once: the producer's first pass over the ring
 *             finds every slot empty without anyone having released it.
 *
 * Same fields and rule as CUTLASS's PipelineState and the CuTe DSL's; the
 * ring size is a run-time value here because --stages is a flag.
 * Plain C (HD = __host__ __device__ under nvcc): tests/test_pipeline_state.c checks it. */
#ifndef COMMON_PIPELINE_STATE_H
#define COMMON_PIPELINE_STATE_H

#include <stdint.h>
#include "hd.h"

/* Under gcc HD is empty: `inline` keeps a test that uses only some of these
 * functions free of unused-function warnings. */
#if defined(__CUDACC__)
#define PIPE_FN static HD
#else
#define PIPE_FN static inline HD
#endif

typedef struct {
    uint32_t index;   /* slot to use next, 0..stages-1 */
    uint32_t phase;   /* parity to wait for on that slot's barrier */
    uint32_t stages;  /* ring size S */
} pipeline_state;

PIPE_FN pipeline_state pipeline_consumer_start(uint32_t stages)
{
    pipeline_state s = {0u, 0u, stages};
    return s;
}

PIPE_FN pipeline_state pipeline_producer_start(uint32_t stages)
{
    pipeline_state s = {0u, 1u, stages};
    return s;
}

/* One step along the ring; the phase flips each time the ring wraps. */
PIPE_FN void pipeline_advance(pipeline_state *s)
{
    s->index += 1u;
    if (s->index == s->stages) {
        s->index = 0u;
        s->phase ^= 1u;
    }
}

/* n steps at once (step 07: a consumer warpgroup skips the k-tiles that its
 * partner reads).  The phase flips once per wrap, i.e. (index + n) / S times. */
PIPE_FN void pipeline_advance_by(pipeline_state *s, uint32_t n)
{
    const uint32_t t = s->index + n;
    s->phase ^= (t / s->stages) & 1u;
    s->index = t % s->stages;
}

/* Closed form of `iteration` advances from the consumer start; the producer's
 * phase is this one xor 1.  Used by tests and by code that jumps ahead. */
PIPE_FN pipeline_state pipeline_consumer_at(uint32_t stages, uint64_t iteration)
{
    pipeline_state s;
    s.index = (uint32_t)(iteration % stages);
    s.phase = (uint32_t)((iteration / stages) & 1u);
    s.stages = stages;
    return s;
}

#endif
