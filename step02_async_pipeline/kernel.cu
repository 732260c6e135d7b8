/* step02_async_pipeline — the same single slot, handed over with mbarriers.
 *
 * Concept: warp specialization.  Producer and consumer warps now run separate
 * loops and meet only at two mbarriers in shared memory:
 *
 *   full   "the slot holds chunk c"      producers arrive, consumers wait
 *   empty  "the slot may be overwritten" consumers arrive, producers wait
 *
 * An mbarrier arrive does not wait, and a wait involves only the warps that
 * need the answer.  So each side blocks only on the other side's progress:
 *   - consumers release the slot as soon as they have copied it into
 *     registers, BEFORE they compute, so the producers refill it (the load
 *     latency of chunk c+1) while the consumers compute chunk c;
 *   - producers do not even wait for their own copies: cp.async can arrive on
 *     the full barrier by itself when the bytes land
 *     (producer_commit_cp_async), and the consumers wait for that.
 * With __syncthreads neither was possible: one barrier held all warps.
 *
 * Each barrier toggles between phase 0 and 1 every time it completes; each
 * side tracks the parity it waits for.  The producer's starts at 1: a fresh
 * barrier is in (incomplete) phase 0, and waiting for parity 1 means "the
 * phase before", which counts as complete: the slot starts empty.
 *
 * What changed from step 01:
 *   - two mbarriers (full, empty) replace the two __syncthreads per chunk;
 *     the only __syncthreads left publishes the barriers' initialization;
 *   - producers and consumers loop separately (warp-specialized);
 *   - the copies arrive on `full` themselves; consumers release before they compute.
 *
 * Build and run:
 *   make step02
 *   ./build/step02_async_pipeline --work 64
 *   diff -u step01_sync_pc/kernel.cu step02_async_pipeline/kernel.cu
 */
#include "stream.cuh"
#include "mbarrier.cuh"

/* One CTA's work.  Two kernels are built from it (below): the timed one with
 * tracing compiled out, the traced one for --trace. */
static __device__ __forceinline__ void async_pipeline_cta(const float *__restrict__ x,
                                                          float *__restrict__ y, int64_t n,
                                                          int work, trace_ctx tr)
{
    __shared__ float4 slot[SLOT_VEC4];
    __shared__ uint64_t full[1], empty[1];

    const int warp = threadIdx.x / 32;
    const int is_producer = warp < PRODUCER_WARPS;
    const int tracer = TRACE_ON(tr) && threadIdx.x % 32 == 0;
    const int64_t num_chunks = (n + STREAM_CHUNK - 1) / STREAM_CHUNK;

    if (threadIdx.x == 0) {
        /* Every thread that writes (reads) the slot arrives on full (empty):
         * an arrival publishes only that thread's own copies (reads). */
        mbar_init(&full[0], PRODUCER_THREADS);
        mbar_init(&empty[0], CONSUMER_THREADS);
        mbar_fence_init();
    }
    __syncthreads();   /* nobody touches a barrier before it is initialized */
    uint64_t t = TRACE_ON(tr) ? trace_now() : 0;

    if (is_producer) {
        uint32_t phase = 1;   /* the slot starts empty: see header */
        for (int64_t c = blockIdx.x; c < num_chunks; c += gridDim.x) {
            producer_acquire(empty, 0, phase);           /* WAR: consumers have read it */
            TRACE_SPAN(tr, tracer, warp, TP_PRODUCER_ACQUIRE, c, t);
            chunk_copy_async(slot, x, c, n, threadIdx.x);
            producer_commit_cp_async(full, 0);           /* RAW: arrives when the bytes land */
            TRACE_SPAN(tr, tracer, warp, TP_PRODUCER_LOAD, c, t);
            phase ^= 1;
        }
    } else {
        const int ct = threadIdx.x - PRODUCER_THREADS;
        uint32_t phase = 0;
        for (int64_t c = blockIdx.x; c < num_chunks; c += gridDim.x) {
            float4 u[VEC_PER_CONSUMER];
            consumer_wait(full, 0, phase);               /* RAW: the chunk is in */
            TRACE_SPAN(tr, tracer, warp, TP_CONSUMER_WAIT, c, t);
            chunk_read(u, slot, ct);
            consumer_release(empty, 0);                  /* done reading: refill it */
            chunk_compute_store(u, y, c, n, work, ct);
            TRACE_SPAN(tr, tracer, warp, TP_CONSUMER_COMPUTE, c, t);
            phase ^= 1;
        }
    }
}

__global__ void __launch_bounds__(STREAM_THREADS, 1)
async_pipeline_kernel(const float *__restrict__ x, float *__restrict__ y, int64_t n, int work)
{
    async_pipeline_cta(x, y, n, work, trace_disabled());
}

__global__ void __launch_bounds__(STREAM_THREADS, 1)
async_pipeline_kernel_traced(const float *__restrict__ x, float *__restrict__ y, int64_t n,
                             int work, trace_ctx tr)
{
    async_pipeline_cta(x, y, n, work, tr);
}

static void launch_step02(const stream_operands *op, cudaStream_t stream)
{
    if (TRACE_ON(op->trace))
        async_pipeline_kernel_traced<<<op->grid, STREAM_THREADS, 0, stream>>>(
            op->x, op->y, op->n, op->work, op->trace);
    else
        async_pipeline_kernel<<<op->grid, STREAM_THREADS, 0, stream>>>(op->x, op->y, op->n,
                                                                        op->work);
    CUDA_CHECK_LAUNCH();
}

int main(int argc, char **argv)
{
    static const stream_step step = {
        "02", "async_pipeline", "one slot, warp-specialized producer/consumer on full/empty mbarriers",
        1, 1, 1, launch_step02};
    return stream_main(argc, argv, &step);
}
