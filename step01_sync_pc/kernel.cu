/* step01_sync_pc — producer/consumer hand-off with __syncthreads.
 *
 * Concept: one shared-memory buffer (one "slot") between producer warps, which
 * copy a chunk of x from global memory into it (cp.async, 16 bytes per
 * thread per copy), and consumer warps, which compute y = f(x) from it.  Two
 * barriers per chunk make the hand-off safe:
 *
 *   RAW  consumers must not read the slot before the producers wrote it;
 *   WAR  producers must not overwrite it before the consumers read it.
 *
 * __syncthreads() is one barrier for the whole CTA, so each of these barriers
 * also stops everyone else: while the consumers compute, the producers sit
 * at the WAR barrier instead of loading the next chunk, and while the
 * producers load, the consumers sit at the RAW barrier.  Time per chunk is
 * load + compute.  Steps 02 and 03 remove exactly this.
 *
 * What changed from the previous step: this is the first step.
 *
 * Build and run:
 *   make step01
 *   ./build/step01_sync_pc                     # default n = 2^26, work = 64
 *   ./build/step01_sync_pc --work 64 --n-elems 1000003
 *   make timeline STEP=01                      # the per-warp timeline
 */
#include "stream.cuh"

/* One CTA's work.  Two kernels are built from it (below): the timed one with
 * tracing compiled out, the traced one for --trace. */
static __device__ __forceinline__ void sync_pc_cta(const float *__restrict__ x,
                                                   float *__restrict__ y, int64_t n, int work,
                                                   trace_ctx tr)
{
    __shared__ float4 slot[SLOT_VEC4];

    const int warp = threadIdx.x / 32;
    const int is_producer = warp < PRODUCER_WARPS;
    const int tracer = TRACE_ON(tr) && threadIdx.x % 32 == 0;
    const int64_t num_chunks = (n + STREAM_CHUNK - 1) / STREAM_CHUNK;
    uint64_t t = TRACE_ON(tr) ? trace_now() : 0;

    for (int64_t c = blockIdx.x; c < num_chunks; c += gridDim.x) {
        if (is_producer) {
            chunk_copy_async(slot, x, c, n, threadIdx.x);
            cp_async_wait_all();   /* my copies have landed (visible to me only) */
            TRACE_SPAN(tr, tracer, warp, TP_PRODUCER_LOAD, c, t);
        }
        __syncthreads();   /* RAW: the slot is written before anyone reads it */

        if (!is_producer) {
            const int ct = threadIdx.x - PRODUCER_THREADS;
            float4 u[VEC_PER_CONSUMER];
            chunk_read(u, slot, ct);
            if (TRACE_ON(tr)) {   /* wait ends when the first slot read returns */
                uint64_t now = trace_now_after_smem(slot);
                if (tracer) trace_put(tr, warp, TP_CONSUMER_WAIT, (int)c, t, now);
                t = now;
            }
            chunk_compute_store(u, y, c, n, work, ct);
            TRACE_SPAN(tr, tracer, warp, TP_CONSUMER_COMPUTE, c, t);
        }
        __syncthreads();   /* WAR: everyone has read the slot before it is overwritten */

        if (is_producer && TRACE_ON(tr)) {   /* time spent waiting in the two barriers */
            uint64_t now = trace_now_after_smem(slot);
            if (tracer) trace_put(tr, warp, TP_PRODUCER_ACQUIRE, (int)c, t, now);
            t = now;
        }
    }
}

__global__ void __launch_bounds__(STREAM_THREADS, 1)
sync_pc_kernel(const float *__restrict__ x, float *__restrict__ y, int64_t n, int work)
{
    sync_pc_cta(x, y, n, work, trace_disabled());
}

__global__ void __launch_bounds__(STREAM_THREADS, 1)
sync_pc_kernel_traced(const float *__restrict__ x, float *__restrict__ y, int64_t n, int work,
                      trace_ctx tr)
{
    sync_pc_cta(x, y, n, work, tr);
}

static void launch_step01(const stream_operands *op, cudaStream_t stream)
{
    if (TRACE_ON(op->trace))
        sync_pc_kernel_traced<<<op->grid, STREAM_THREADS, 0, stream>>>(op->x, op->y, op->n,
                                                                        op->work, op->trace);
    else
        sync_pc_kernel<<<op->grid, STREAM_THREADS, 0, stream>>>(op->x, op->y, op->n, op->work);
    CUDA_CHECK_LAUNCH();
}

int main(int argc, char **argv)
{
    static const stream_step step = {
        "01", "sync_pc", "producer/consumer hand-off through one shared buffer and __syncthreads",
        1, 1, 1, launch_step01};
    return stream_main(argc, argv, &step);
}
