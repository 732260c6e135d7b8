/* step03_staged_pipeline — a ring of S slots driven by (index, phase) state.
 *
 * Concept: with one slot (step 02) only one chunk can be in flight: the
 * producers cannot start chunk c+1 until the consumers have copied chunk c
 * out, so each chunk pays the full DRAM latency, and any hiccup on one side
 * stalls the other at once.  With S slots the producers run up to S chunks
 * ahead: S chunks of copies are in flight per SM (enough bytes in flight to
 * cover the latency at full bandwidth), and the ring absorbs the jitter, so
 * time per chunk approaches max(load, compute).
 *
 *   producer:  acquire empty[i] -> fill slot i -> commit full[i] -> advance
 *   consumer:  wait full[i] -> read slot i -> release empty[i] -> advance
 *
 * Each side keeps a pipeline_state (common/pipeline_state.h): index = slot
 * to use next, phase = parity to wait for on it.  Advancing wraps the index
 * and flips the phase, because by then this side has seen one more phase of
 * every slot's barrier.  Producer starts at (0, 1), consumer at (0, 0).
 *
 * Non-blocking peek: the consumer asks "is the next chunk already in?" with
 * consumer_test_wait (mbarrier.test_wait, which answers at once and never
 * suspends the thread) BEFORE computing the current chunk, and only calls the
 * blocking consumer_wait (a try_wait loop) afterwards if the answer was no
 * (CUTLASS's consumer_test_wait and barrier token; CUTLASS's and QuACK's
 * consumer_try_wait ask the same with try_wait, which may suspend briefly):
 * the barrier's latency hides under the compute, and the timeline shows a
 * wait only when one happened.
 *
 * What changed from step 02:
 *   - S slots in dynamic shared memory (--stages 1..8) and S full/empty pairs;
 *   - pipeline_state replaces the bare phase bit;
 *   - the consumer peeks at the next slot with test_wait (consumer_test_wait).
 *
 * Build and run:
 *   make step03
 *   ./build/step03_staged_pipeline --stages 4
 *   for s in 1 2 4 8; do ./build/step03_staged_pipeline --stages $s; done
 *   diff -u step02_async_pipeline/kernel.cu step03_staged_pipeline/kernel.cu
 */
#include "stream.cuh"
#include "mbarrier.cuh"
#include "pipeline_state.h"

/* 4: on the H100 at work 64 (plots/results, stages sweep) one slot gives 0.54
 * of the copy's bandwidth, 2 give 0.84, 3 give 0.94, 4 give 0.96; more do not
 * gain beyond noise (0.96-0.97). */
#define STEP03_DEFAULT_STAGES 4

/* One CTA's work.  Two kernels are built from it (below): the timed one with
 * tracing compiled out, the traced one for --trace. */
static __device__ __forceinline__ void staged_pipeline_cta(const float *__restrict__ x,
                                                           float *__restrict__ y, int64_t n,
                                                           int work, int stages, trace_ctx tr,
                                                           int plant_bug)
{
    extern __shared__ float4 slots[];                  /* stages x SLOT_VEC4 */
    __shared__ uint64_t full[STREAM_MAX_STAGES], empty[STREAM_MAX_STAGES];

    const int warp = threadIdx.x / 32;
    const int is_producer = warp < PRODUCER_WARPS;
    const int tracer = TRACE_ON(tr) && threadIdx.x % 32 == 0;
    const int64_t num_chunks = (n + STREAM_CHUNK - 1) / STREAM_CHUNK;

    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; ++s) {
            mbar_init(&full[s], PRODUCER_THREADS);
            mbar_init(&empty[s], CONSUMER_THREADS);
        }
        mbar_fence_init();
    }
    __syncthreads();   /* nobody touches a barrier before it is initialized */
    uint64_t t = TRACE_ON(tr) ? trace_now() : 0;

    if (is_producer) {
        pipeline_state ps = pipeline_producer_start(stages);   /* (0, 1): all slots empty */
        if (PLANTED(plant_bug, BUG_PRODUCER_PHASE0)) ps.phase = 0;
        for (int64_t c = blockIdx.x; c < num_chunks; c += gridDim.x) {
            producer_acquire(empty, ps.index, ps.phase);
            TRACE_SPAN(tr, tracer, warp, TP_PRODUCER_ACQUIRE, c, t);
            chunk_copy_async(&slots[ps.index * SLOT_VEC4], x, c, n, threadIdx.x);
            if (!(PLANTED(plant_bug, BUG_SKIP_COMMIT) && c == blockIdx.x))
                producer_commit_cp_async(full, ps.index);
            TRACE_SPAN(tr, tracer, warp, TP_PRODUCER_LOAD, c, t);
            pipeline_advance(&ps);
        }
    } else {
        const int ct = threadIdx.x - PRODUCER_THREADS;
        pipeline_state cs = pipeline_consumer_start(stages);   /* (0, 0) */
        uint32_t ready = consumer_test_wait(full, cs.index, cs.phase);
        for (int64_t c = blockIdx.x; c < num_chunks; c += gridDim.x) {
            float4 u[VEC_PER_CONSUMER];
            if (!ready) {
                consumer_wait(full, cs.index, cs.phase);
                TRACE_SPAN(tr, tracer, warp, TP_CONSUMER_WAIT, c, t);
            }
            chunk_read(u, &slots[cs.index * SLOT_VEC4], ct);
            if (!(PLANTED(plant_bug, BUG_SKIP_RELEASE) && c == blockIdx.x))
                consumer_release(empty, cs.index);
            pipeline_advance(&cs);
            ready = consumer_test_wait(full, cs.index, cs.phase);   /* peek at the next chunk */
            chunk_compute_store(u, y, c, n, work, ct);
            TRACE_SPAN(tr, tracer, warp, TP_CONSUMER_COMPUTE, c, t);
        }
    }
}

__global__ void __launch_bounds__(STREAM_THREADS, 1)
staged_pipeline_kernel(const float *__restrict__ x, float *__restrict__ y, int64_t n, int work,
                       int stages, int plant_bug)
{
    staged_pipeline_cta(x, y, n, work, stages, trace_disabled(), plant_bug);
}

__global__ void __launch_bounds__(STREAM_THREADS, 1)
staged_pipeline_kernel_traced(const float *__restrict__ x, float *__restrict__ y, int64_t n,
                              int work, int stages, trace_ctx tr, int plant_bug)
{
    staged_pipeline_cta(x, y, n, work, stages, tr, plant_bug);
}

static void launch_step03(const stream_operands *op, cudaStream_t stream)
{
    const int smem = op->stages * SLOT_BYTES;
    if (TRACE_ON(op->trace)) {
        CUDA_CHECK(cudaFuncSetAttribute(staged_pipeline_kernel_traced,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        staged_pipeline_kernel_traced<<<op->grid, STREAM_THREADS, smem, stream>>>(
            op->x, op->y, op->n, op->work, op->stages, op->trace, op->plant_bug);
    } else {
        CUDA_CHECK(cudaFuncSetAttribute(staged_pipeline_kernel,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        staged_pipeline_kernel<<<op->grid, STREAM_THREADS, smem, stream>>>(
            op->x, op->y, op->n, op->work, op->stages, op->plant_bug);
    }
    CUDA_CHECK_LAUNCH();
}

int main(int argc, char **argv)
{
    static const stream_step step = {
        "03", "staged_pipeline", "a ring of S slots with (index, phase) pipeline state",
        1, STREAM_MAX_STAGES, STEP03_DEFAULT_STAGES, launch_step03,
        (1u << BUG_PRODUCER_PHASE0) | (1u << BUG_SKIP_COMMIT) | (1u << BUG_SKIP_RELEASE)};
    return stream_main(argc, argv, &step);
}
