/* fixup.cuh — handing a partial tile from one CTA to another through global
 * memory (step 09's stream-K fixup).
 *
 * A tile cut among several CTAs is finished by its owner; each other CTA
 * (a writer) leaves its fp32 partial accumulators in a workspace slot and
 * raises a flag.  Memory-model protocol (PTX ISA, "Memory Consistency Model";
 * docs/hopper_ptx.md, "Flags between CTAs"):
 *
 *   writer                                    owner
 *   every thread: st partials (plain)         one thread: spin on
 *   barrier among the writing threads           ld.acquire.gpu flag == epoch
 *   one thread: st.release.gpu flag = epoch   barrier among the reading threads
 *                                             every thread: ld partials (plain,
 *                                             L2: .cg; never the read-only
 *                                             .nc path, never TMA without a
 *                                             proxy fence)
 *
 * The barrier makes the other threads' stores visible to the releasing
 * thread (CTA scope), and the release at gpu scope is cumulative: it orders
 * all of them before the flag.  On the other side the acquire orders the
 * flag before the loads of the thread that spun, and the barrier extends
 * that to its warpgroup.
 *
 * Flags need no reset.  The flag of a (tile, writer) pair holds the launch
 * counter (epoch) of the last launch that wrote it; the owner waits for
 * equality with the current epoch, so the workspace is zeroed once when it
 * is allocated and never again (a stale flag holds an older epoch).
 *
 * Deadlock.  A spin on another CTA's flag needs that CTA to be running:
 * launch cooperatively (every CTA resident or the launch fails), and order
 * the work so that no writer waits before it writes (stream_k_schedule.h,
 * "stream-K").  DEBUG builds bound the spin and name the tile and the
 * missing partial (report_hang, debug.cuh). */
#ifndef COMMON_FIXUP_CUH
#define COMMON_FIXUP_CUH

#include <stdint.h>
#include "debug.cuh"

/* Raise a flag: every earlier write this thread observed (the barrier made
 * its warpgroup's partials observed) is visible to a thread that acquires
 * the value. */
static __device__ __forceinline__ void flag_store_release_gpu(uint32_t *flag, uint32_t value)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(value) : "memory");
}

static __device__ __forceinline__ uint32_t flag_load_acquire_gpu(const uint32_t *flag)
{
    uint32_t v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
    return v;
}

#ifdef COURSE_DEBUG
/* "tile T writer W" into buf (cap >= 32): the hang report's waiter name. */
static __device__ void fixup_wait_name(char *buf, int tile, int writer)
{
    const char *parts[2] = {"tile ", " writer "};
    const int nums[2] = {tile, writer};
    int n = 0;
    for (int p = 0; p < 2; ++p) {
        for (const char *c = parts[p]; *c; ++c) buf[n++] = *c;
        char d[12];
        int k = 0, v = nums[p] < 0 ? 0 : nums[p];
        do { d[k++] = (char)('0' + v % 10); v /= 10; } while (v && k < 10);
        while (k) buf[n++] = d[--k];
    }
    buf[n] = '\0';
}
#endif

/* Spin until *flag == epoch.  `tile` and `writer` only name the wait in a
 * DEBUG build's hang report: "tile T waits for the partial of writer W". */
static __device__ __forceinline__ void flag_wait_acquire_gpu(const uint32_t *flag, uint32_t epoch,
                                                             int tile, int writer)
{
#ifdef COURSE_DEBUG
    const uint64_t t0 = trace_now();
    while (flag_load_acquire_gpu(flag) != epoch)
        if (trace_now() - t0 > HANG_TIMEOUT_NS) {
            /* one line per warp: where lanes wait on many writers at once (step 10), the lowest
             * lane speaks for the others, whose waits report_hang's table still records */
            const unsigned active = __activemask();
            if ((active & (0u - active)) == (1u << (threadIdx.x % 32)))
                printf("HANG: stream-K fixup: block %d: tile %d never got the partial of writer %d "
                       "(its flag holds %u, this launch is epoch %u)\n",
                       (int)blockIdx.x, tile, writer, flag_load_acquire_gpu(flag), epoch);
            char name[32];
            fixup_wait_name(name, tile, writer);
            report_hang("stream-K partial", name, tile, (uint32_t)writer);
        }
#else
    (void)tile;
    (void)writer;
    while (flag_load_acquire_gpu(flag) != epoch) { }
#endif
}

/* Partials travel in the accumulators' register layout: thread t of the
 * warpgroup stores its registers 4 at a time, chunk j at
 * slot + (j * threads + t) * 16 bytes, so a warp's 32 stores are 512
 * contiguous bytes and the owner's thread t reads back exactly its own
 * registers' positions.  .cg: cached in L2 only, where the other SM's
 * stores are; the owner's L1 never holds a line of the workspace. */
static __device__ __forceinline__ void partial_store(float4 *slot, int chunk, int threads, int t,
                                                     float a, float b, float c, float d)
{
    __stcg(slot + (size_t)chunk * threads + t, make_float4(a, b, c, d));
}

static __device__ __forceinline__ float4 partial_load(const float4 *slot, int chunk, int threads,
                                                      int t)
{
    return __ldcg(slot + (size_t)chunk * threads + t);
}

/* A warpgroup's n accumulators (n a multiple of 4, a compile-time constant
 * after inlining, so acc stays in registers) to a workspace slot, and back
 * onto another warpgroup's accumulators: thread t's values in the same
 * order, so the owner adds exactly what the writer held. */
static __device__ __forceinline__ void partial_store_all(float4 *slot, const float *acc, int n,
                                                         int threads, int t)
{
#pragma unroll
    for (int i = 0; i < n; i += 4)
        partial_store(slot, i / 4, threads, t, acc[i], acc[i + 1], acc[i + 2], acc[i + 3]);
}

static __device__ __forceinline__ void partial_add_all(float *acc, const float4 *slot, int n,
                                                       int threads, int t)
{
#pragma unroll
    for (int i = 0; i < n; i += 4) {
        const float4 p = partial_load(slot, i / 4, threads, t);
        acc[i] += p.x;
        acc[i + 1] += p.y;
        acc[i + 2] += p.z;
        acc[i + 3] += p.w;
    }
}

#endif
