/* stream.cuh — the streaming workload of steps 01–03: y[i] = f(x[i]).
 *
 * f is a chain of `work` dependent FMAs, v = v * STREAM_A + STREAM_B, so the
 * consumers' compute per element is a knob (--work) and the producers' load
 * per element is fixed (4 bytes in, 4 bytes out).  The grid is one CTA per SM
 * and every CTA loops over chunks c = blockIdx.x, blockIdx.x + gridDim.x, ...
 * With one CTA per SM, nothing but the pipeline inside the CTA can hide the
 * load latency: no other CTA's warps are there to fill the gaps.
 *
 * Roles inside a CTA (the same in all three steps):
 *   warps 0..PRODUCER_WARPS-1      producers: x chunk -> slot (cp.async)
 *   the next CONSUMER_WARPS warps  consumers: slot -> registers -> f -> y
 * Only the synchronization between the two roles changes from step to step;
 * the data movement below is shared and is not the lesson.
 *
 * Host part: stream_main() parses flags, checks the device, allocates,
 * checks the result against a host computation of f, times the step
 * interleaved with a device-to-device copy of the same bytes, prints a
 * summary line and appends a CSV row. */
#ifndef COMMON_STREAM_CUH
#define COMMON_STREAM_CUH

#include <stdint.h>
#include "cp_async.cuh"
#include "harness.cuh"

/* Sizes (the same in steps 01-03):
 *   STREAM_CHUNK    4096 floats = 16 KiB per slot: each producer thread
 *                   issues 8 copies of 16 bytes per chunk, each consumer
 *                   thread computes 4 float4 = 16 independent FMA chains
 *                   (enough independent work to keep its FMA pipe busy);
 *   PRODUCER_WARPS  4, one warpgroup: 128 threads x 8 copies in flight;
 *   CONSUMER_WARPS  8, two warpgroups: 384 threads per CTA in all;
 *   STREAM_MAX_STAGES  8 slots = 128 KiB, inside the 227 KiB one CTA may
 *                   use; the recorded stages sweep (plots/results) is flat
 *                   from 4-5 slots on, so 8 leaves room to see that. */
#define STREAM_CHUNK 4096                       /* floats per chunk = 16 KiB per slot */
#ifndef PRODUCER_WARPS
#define PRODUCER_WARPS 4
#endif
#ifndef CONSUMER_WARPS
#define CONSUMER_WARPS 8
#endif
#define PRODUCER_THREADS (PRODUCER_WARPS * 32)
#define CONSUMER_THREADS (CONSUMER_WARPS * 32)
#define STREAM_THREADS (PRODUCER_THREADS + CONSUMER_THREADS)
#define SLOT_VEC4 (STREAM_CHUNK / 4)            /* float4s per slot */
#define VEC_PER_PRODUCER (SLOT_VEC4 / PRODUCER_THREADS)   /* 8 cp.async of 16 B per thread per chunk */
#define VEC_PER_CONSUMER (SLOT_VEC4 / CONSUMER_THREADS)   /* 4 float4 = 16 independent FMA chains */
#define SLOT_BYTES (STREAM_CHUNK * 4)
#define STREAM_MAX_STAGES 8
/* Timeline records kept per traced warp: a traced CTA sees
 * n / STREAM_CHUNK / grid chunks (~124 at the default n on 132 SMs) and
 * writes 2 records per chunk (a wait and a work span); records past the cap
 * are dropped. */
#define STREAM_TRACE_CAP 4096

/* f's constants: exact in float, |a| < 1 keeps v bounded for any work. */
#define STREAM_A 0.9990234375f
#define STREAM_B 0.0009765625f

static __host__ __device__ __forceinline__ float stream_f(float v, int work)
{
    for (int i = 0; i < work; ++i) v = fmaf(v, STREAM_A, STREAM_B);
    return v;
}

/* ---- device data movement (shared by steps 01–03) ------------------------ */

/* Producer thread pt (0..PRODUCER_THREADS-1): start copying its share of
 * chunk c from x into the slot with 16-byte cp.async and return at once; the
 * bytes land later (cp_async_wait_all, or an mbarrier arrive-on, tells when).
 * Past the end of x the slot gets zeros: a float4 entirely past the end reads
 * nothing (src-size 0), and the one float4 that straddles the end is copied
 * float by float, so no copy reaches beyond the array.  Copies straight to
 * shared memory hold no registers, so a producer can have several chunks in
 * flight (step 03). */
static __device__ __forceinline__ void chunk_copy_async(float4 *slot, const float *x, int64_t c,
                                                        int64_t n, int pt)
{
    const int64_t base = c * STREAM_CHUNK;
#pragma unroll
    for (int j = 0; j < VEC_PER_PRODUCER; ++j) {
        const int v = pt + j * PRODUCER_THREADS;
        const int64_t e = base + 4 * (int64_t)v;
        const uint32_t dst = (uint32_t)__cvta_generic_to_shared(&slot[v]);
        if (e + 4 <= n) {
            cp_async_cg_16(dst, x + e, 16);
        } else if (e >= n) {
            cp_async_cg_16(dst, x, 0);
        } else {
            for (int q = 0; q < 4; ++q)
                cp_async_ca_4(dst + 4 * q, e + q < n ? x + e + q : x, e + q < n ? 4 : 0);
        }
    }
}

/* Consumer thread ct (0..CONSUMER_THREADS-1): slot -> registers. */
static __device__ __forceinline__ void chunk_read(float4 u[VEC_PER_CONSUMER], const float4 *slot,
                                                  int ct)
{
#pragma unroll
    for (int j = 0; j < VEC_PER_CONSUMER; ++j) u[j] = slot[ct + j * CONSUMER_THREADS];
}

/* Consumer thread ct: f on 16 independent values, then y. */
static __device__ __forceinline__ void chunk_compute_store(float4 u[VEC_PER_CONSUMER], float *y,
                                                           int64_t c, int64_t n, int work, int ct)
{
    for (int i = 0; i < work; ++i) {
#pragma unroll
        for (int j = 0; j < VEC_PER_CONSUMER; ++j) {
            u[j].x = fmaf(u[j].x, STREAM_A, STREAM_B);
            u[j].y = fmaf(u[j].y, STREAM_A, STREAM_B);
            u[j].z = fmaf(u[j].z, STREAM_A, STREAM_B);
            u[j].w = fmaf(u[j].w, STREAM_A, STREAM_B);
        }
    }
    const int64_t base = c * STREAM_CHUNK;
    if (base + STREAM_CHUNK <= n) {
        float4 *dst = (float4 *)(y + base);
#pragma unroll
        for (int j = 0; j < VEC_PER_CONSUMER; ++j) __stcs(&dst[ct + j * CONSUMER_THREADS], u[j]);
    } else {
#pragma unroll
        for (int j = 0; j < VEC_PER_CONSUMER; ++j) {
            const int64_t e = base + 4 * (int64_t)(ct + j * CONSUMER_THREADS);
            if (e + 0 < n) y[e + 0] = u[j].x;
            if (e + 1 < n) y[e + 1] = u[j].y;
            if (e + 2 < n) y[e + 2] = u[j].z;
            if (e + 3 < n) y[e + 3] = u[j].w;
        }
    }
}

/* Timeline stamp after a __syncthreads that is not early (trace.cuh caveat):
 * the timer read waits for a shared-memory load issued after the barrier. */
static __device__ __forceinline__ uint64_t trace_now_after_smem(const float4 *slot)
{
    return trace_now_after(*(volatile const uint32_t *)slot);
}

/* ---- host ------------------------------------------------------------------ */

typedef struct {
    const float *x;
    float *y;
    int64_t n;
    int work;
    int stages;
    int grid;                 /* one CTA per SM */
    trace_ctx trace;          /* off unless --trace */
    int plant_bug;            /* DEBUG builds: --plant-bug */
} stream_operands;

typedef struct {
    const char *step;         /* "01" */
    const char *name;         /* "sync_pc" */
    const char *summary;
    int min_stages, max_stages, default_stages;
    void (*launch)(const stream_operands *op, cudaStream_t stream);
    unsigned plant_bugs;      /* bit b: the step plants bug b (debug.cuh); 0: none */
} stream_step;

static int stream_main(int argc, char **argv, const stream_step *step);

#include "stream_impl.cuh"

#endif
