/* harness.cuh — what every step's main needs and no step is about:
 * device selection and capability check, timing, the interleaved A/B
 * measurement against a reference, the CSV row's environment fields, the
 * timeline file.  The two workloads build on it: stream.cuh (steps 01–03)
 * and gemm.cuh (steps 04 and up, and peers/).
 *
 * Why interleave: an H100 under load sits at its power cap and its clock
 * moves (1.98 GHz cold, ~1.3–1.7 GHz hot), so a reference timed before or
 * after a step is measured on a different card.  time_interleaved() runs
 * A B, B A, ... (a random order per round), each launch between its own pair
 * of events, and reports the
 * median of each: the ratio of those medians holds across clock states. */
#ifndef COMMON_HARNESS_CUH
#define COMMON_HARNESS_CUH

#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "args.h"
#include "cuda_check.h"
#include "csv.h"
#include "debug.cuh"
#include "trace.cuh"

#ifndef GIT_REV
#define GIT_REV "unknown"
#endif

/* Exit codes of every step (README.md, "Every program, one contract"). */
enum { EXIT_OK = 0, EXIT_WRONG = 1, EXIT_BAD_ARGS = 2, EXIT_NO_DEVICE = 3 };

typedef struct {
    int dev;
    cudaDeviceProp prop;
    int num_sms;
    char gpu[256];            /* e.g. "NVIDIA H100 80GB HBM3" */
    char cuda_version[64];    /* "runtime 13.0 driver 13.0" */
    double dram_gbs;          /* memory bandwidth, GB/s: memory clock x bus width, double data rate */
    hang_report *hang;        /* DEBUG builds: mapped record of a diagnosed hang */
} device_info;

/* Requirement of a step: minimum compute capability, and for sm_90a code the
 * exact one (arch-specific code runs on 9.0 only). */
typedef struct {
    int major, minor;
    int exact;                /* 1: must be exactly major.minor */
    const char *why;          /* printed when the device does not qualify */
} device_need;

static int device_setup(int dev, device_need need, device_info *out)
{
    int count = 0;
    memset(out, 0, sizeof *out);
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        fprintf(stderr, "no CUDA device available (%s): this step needs a GPU with compute "
                "capability %d.%d%s (%s)\n", e == cudaSuccess ? "device count is 0" : cudaGetErrorString(e),
                need.major, need.minor, need.exact ? "" : " or newer", need.why);
        return EXIT_NO_DEVICE;
    }
    if (dev >= count) {
        fprintf(stderr, "--device: ordinal %d does not exist; this machine has %d device(s) (0..%d)\n",
                dev, count, count - 1);
        return EXIT_BAD_ARGS;
    }
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaGetDeviceProperties(&out->prop, dev));
    const cudaDeviceProp *p = &out->prop;
    int ok = need.exact ? (p->major == need.major && p->minor == need.minor)
                        : (p->major > need.major || (p->major == need.major && p->minor >= need.minor));
    if (!ok) {
        fprintf(stderr, "device %d (%s) has compute capability %d.%d; this step needs %d.%d%s: %s\n",
                dev, p->name, p->major, p->minor, need.major, need.minor,
                need.exact ? " exactly" : " or newer", need.why);
        return EXIT_NO_DEVICE;
    }
    out->dev = dev;
    out->num_sms = p->multiProcessorCount;
    snprintf(out->gpu, sizeof out->gpu, "%s", p->name);
    int mem_khz = 0, bus_bits = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
    out->dram_gbs = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    int rt = 0, drv = 0;
    CUDA_CHECK(cudaRuntimeGetVersion(&rt));
    CUDA_CHECK(cudaDriverGetVersion(&drv));
    snprintf(out->cuda_version, sizeof out->cuda_version, "runtime %d.%d driver %d.%d", rt / 1000,
             (rt % 1000) / 10, drv / 1000, (drv % 1000) / 10);
    out->hang = debug_hang_report_install();
    if (COURSE_DEBUG_BUILD && !out->hang)
        fprintf(stderr, "warning: DEBUG build could not set up the hang report (mapped host memory)\n");
    return EXIT_OK;
}

/* After every launch whose result we read: a fault or trap shows up here.
 * In DEBUG builds a diagnosed hang is printed before we exit. */
static void sync_or_die(const device_info *di, const char *what)
{
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        debug_hang_report_print(di->hang);
        fprintf(stderr, "%s failed: %s (%s)\n", what, cudaGetErrorString(e), cudaGetErrorName(e));
        exit(EXIT_WRONG);
    }
}

/* splitmix64: a seedable, portable generator for the inputs of both workloads. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- SM clock -------------------------------------------------------------
 * The clock the card ran at during the timed loop, read through NVML right
 * after it (dlopen'ed, so nothing to link and no failure where NVML is
 * absent).  Falls back to the peak clock attribute. */
typedef int (*nvml_fn_void)(void);
typedef int (*nvml_fn_bus)(const char *, void **);
typedef int (*nvml_fn_clock)(void *, int, unsigned int *);

static double sm_clock_mhz(const device_info *di)
{
    static void *lib = NULL;
    static nvml_fn_bus by_bus = NULL;
    static nvml_fn_clock clock_info = NULL;
    if (!lib) {
        lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (lib) {
            nvml_fn_void init = (nvml_fn_void)dlsym(lib, "nvmlInit_v2");
            by_bus = (nvml_fn_bus)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
            clock_info = (nvml_fn_clock)dlsym(lib, "nvmlDeviceGetClockInfo");
            if (!init || init() != 0) by_bus = NULL;
        }
    }
    if (by_bus && clock_info) {
        char bus[64];
        void *h = NULL;
        unsigned int mhz = 0;
        if (cudaDeviceGetPCIBusId(bus, sizeof bus, di->dev) == cudaSuccess && by_bus(bus, &h) == 0 &&
            clock_info(h, 1 /* NVML_CLOCK_SM */, &mhz) == 0)
            return (double)mhz;
    }
    int khz = 0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, di->dev) == cudaSuccess) return khz / 1000.0;
    return NAN;
}

/* ---- timing --------------------------------------------------------------- */

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static float median_of(float *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_float);
    return n % 2 ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]);
}

/* A launch to time: fn(ctx, t) enqueues one launch on `stream`; t is its
 * position in the run (0, 1, 2 ..., both sides counted in the order they
 * run: the GEMM harness picks its input set by it, rotation.h). */
typedef void (*launch_thunk)(void *ctx, int i, cudaStream_t stream);

/* ---- holding the GPU while the host enqueues ----------------------------------
 * The timed loop is correct only if the host keeps ahead of the GPU: a launch
 * the GPU has to wait for is timed from its start event, recorded while the
 * GPU was idle, so its time includes the host's delay.  With kernels of
 * ~10 us (512^3) the host's per-launch cost (a cuBLAS call, two event
 * records) is of the same order.  So the loop is enqueued behind a kernel
 * that holds the GPU until the host has enqueued everything (a flag in mapped
 * host memory), or until a time limit passes: if the launch queue fills
 * before the host is done, the host blocks in a launch, never sets the flag,
 * and the hold ends by itself (no deadlock), the GPU then starting on a full
 * queue. */
#define GPU_HOLD_LIMIT_NS 200000000ull   /* 200 ms */

static __global__ void gpu_hold_kernel(const volatile int *release, unsigned long long limit_ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        if (*release) return;
        __nanosleep(1000);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < limit_ns);
}

typedef struct {
    int *host;        /* mapped: the host writes 1 when it has enqueued the loop */
    int *dev;         /* the same word, as the kernel sees it */
} gpu_hold;

static void gpu_hold_start(gpu_hold *h, cudaStream_t s)
{
    CUDA_CHECK(cudaHostAlloc((void **)&h->host, sizeof(int), cudaHostAllocMapped));
    *(volatile int *)h->host = 0;
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&h->dev, h->host, 0));
    gpu_hold_kernel<<<1, 1, 0, s>>>(h->dev, GPU_HOLD_LIMIT_NS);
    CUDA_CHECK_LAUNCH();
}

static void gpu_hold_release(gpu_hold *h)
{
    *(volatile int *)h->host = 1;
}

static void gpu_hold_free(gpu_hold *h)
{
    CUDA_CHECK(cudaFreeHost(h->host));
}

/* One timed launch: `between` (if any) outside the span, then the launch
 * between its own two events. */
static void time_one_launch(launch_thunk fn, void *ctx, int i, launch_thunk between,
                            void *between_ctx, cudaEvent_t start, cudaEvent_t stop, cudaStream_t s)
{
    if (between) between(between_ctx, i, s);
    CUDA_CHECK(cudaEventRecord(start, s));
    fn(ctx, i, s);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(stop, s));
}

/* Times A and B interleaved launch by launch, each between its own events,
 * after `warmup` untimed rounds, each round in a random order (A B or B A,
 * a fixed pseudo-random sequence), so that no pattern of the run (which
 * side goes first, which follows which, which input sets each side gets)
 * sides with one of them.  With ~6 us kernels a fixed pattern showed: cuBLAS
 * timed against itself through the GEMM harness read 0.981 at 512^3 with A B
 * always, 0.98 or 1.02 with A B / B A alternating, depending on how many
 * rounds ran (H100; plots/results/refactor_guard/).  Everything is
 * enqueued behind a hold (above), then released and synchronized once, so
 * host enqueue gaps are not timed.  b may be NULL (time A alone).
 * `between`, when not NULL, is enqueued before every launch of either side,
 * outside its events (the GEMM harness's L2 flush). */
static void time_interleaved_between(launch_thunk a, void *actx, launch_thunk b, void *bctx,
                                     launch_thunk between, void *between_ctx, int warmup, int iters,
                                     float *median_a_ms, float *median_b_ms)
{
    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const int per_round = b ? 2 : 1;
    for (int i = 0; i < warmup; ++i) {
        if (between) between(between_ctx, i, s);
        a(actx, per_round * i, s);
        CUDA_CHECK_LAUNCH();
        if (b) {
            if (between) between(between_ctx, i, s);
            b(bctx, per_round * i + 1, s);
            CUDA_CHECK_LAUNCH();
        }
    }
    int nev = 4 * iters;
    cudaEvent_t *ev = (cudaEvent_t *)malloc(sizeof(cudaEvent_t) * (size_t)nev);
    float *ta = (float *)malloc(sizeof(float) * (size_t)iters);
    float *tb = (float *)malloc(sizeof(float) * (size_t)iters);
    for (int i = 0; i < nev; ++i) CUDA_CHECK(cudaEventCreate(&ev[i]));
    uint64_t order = 0x5eed0bdeull;   /* the same order in every run */
    gpu_hold hold;
    gpu_hold_start(&hold, s);
    for (int i = 0; i < iters; ++i) {
        const int b_first = b && (rng_next(&order) >> 63), t = per_round * (warmup + i);
        if (b_first) time_one_launch(b, bctx, t, between, between_ctx, ev[4 * i + 2], ev[4 * i + 3], s);
        time_one_launch(a, actx, t + b_first, between, between_ctx, ev[4 * i + 0], ev[4 * i + 1], s);
        if (b && !b_first) time_one_launch(b, bctx, t + 1, between, between_ctx, ev[4 * i + 2], ev[4 * i + 3], s);
    }
    gpu_hold_release(&hold);
    CUDA_CHECK(cudaStreamSynchronize(s));
    gpu_hold_free(&hold);
    for (int i = 0; i < iters; ++i) {
        CUDA_CHECK(cudaEventElapsedTime(&ta[i], ev[4 * i + 0], ev[4 * i + 1]));
        if (b) CUDA_CHECK(cudaEventElapsedTime(&tb[i], ev[4 * i + 2], ev[4 * i + 3]));
    }
    *median_a_ms = median_of(ta, iters);
    if (median_b_ms) *median_b_ms = b ? median_of(tb, iters) : NAN;
    for (int i = 0; i < nev; ++i) CUDA_CHECK(cudaEventDestroy(ev[i]));
    free(ev); free(ta); free(tb);
    CUDA_CHECK(cudaStreamDestroy(s));
}

static void time_interleaved(launch_thunk a, void *actx, launch_thunk b, void *bctx, int warmup,
                             int iters, float *median_a_ms, float *median_b_ms)
{
    time_interleaved_between(a, actx, b, bctx, NULL, NULL, warmup, iters, median_a_ms, median_b_ms);
}

/* ---- CSV ------------------------------------------------------------------ */

/* Environment fields every row carries.  Strings live in `store`. */
typedef struct {
    char date[32];
} row_store;

static void row_fill_env(csv_row *r, const device_info *di, row_store *store, double clock_mhz)
{
    csv_now_utc(store->date, sizeof store->date);
    r->gpu = di->gpu;
    r->sm_clock_mhz = clock_mhz;
    r->cuda_version = di->cuda_version;
    r->git_rev = GIT_REV;
    r->date = store->date;
}

static int row_write(const char *path, const csv_row *r)
{
    char msg[512];
    if (csv_append(path, r, msg, sizeof msg) != 0) {
        fprintf(stderr, "%s\n", msg);
        return EXIT_BAD_ARGS;
    }
    return EXIT_OK;
}

/* ---- timelines ------------------------------------------------------------ */

static const char *const trace_phase_names[TP_COUNT] = {
    "producer_acquire", "producer_load", "consumer_wait", "consumer_compute", "consumer_release",
    "epilogue", "fixup"};

typedef struct {
    trace_ctx ctx;            /* what the kernel gets */
    size_t bytes;
} trace_host;

/* grid > 0: CTAs of the launch (trace CTA 0 and the last one).  grid = -W:
 * the caller does not know the grid; trace CTA 0 and the last CTA of the
 * first wave of W CTAs (W = number of SMs: both run side by side). */
static void trace_alloc(trace_host *th, int units, int cap, int grid)
{
    th->ctx.units = units;
    th->ctx.cap = cap;
    th->ctx.cta_a = 0;
    th->ctx.cta_b = grid > 0 ? grid - 1 : grid;
    th->bytes = sizeof(trace_rec) * 2 * (size_t)units * (size_t)cap;
    CUDA_CHECK(cudaMalloc((void **)&th->ctx.recs, th->bytes));
    CUDA_CHECK(cudaMalloc((void **)&th->ctx.counts, sizeof(uint32_t) * 2 * (size_t)units));
    CUDA_CHECK(cudaMemset(th->ctx.counts, 0, sizeof(uint32_t) * 2 * (size_t)units));
}

/* Writes cta,unit,unit_kind,role,phase,t_start_ns,t_end_ns,index with times
 * relative to the earliest record.  unit_kind is "warp" or "warpgroup". */
static int trace_write(const trace_host *th, const char *path, const char *unit_kind,
                       const char *step)
{
    const trace_ctx *t = &th->ctx;
    size_t n = 2 * (size_t)t->units * (size_t)t->cap;
    trace_rec *recs = (trace_rec *)malloc(sizeof(trace_rec) * n);
    uint32_t *counts = (uint32_t *)malloc(sizeof(uint32_t) * 2 * (size_t)t->units);
    CUDA_CHECK(cudaMemcpy(recs, t->recs, sizeof(trace_rec) * n, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(counts, t->counts, sizeof(uint32_t) * 2 * (size_t)t->units,
                          cudaMemcpyDeviceToHost));
    uint64_t t0 = UINT64_MAX;
    for (int w = 0; w < 2 * t->units; ++w)
        for (uint32_t i = 0; i < counts[w] && i < (uint32_t)t->cap; ++i)
            if (recs[(size_t)w * t->cap + i].t_start < t0) t0 = recs[(size_t)w * t->cap + i].t_start;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "--trace %s: cannot open for writing\n", path);
        free(recs); free(counts);
        return EXIT_BAD_ARGS;
    }
    fprintf(f, "# step %s timeline: %%globaltimer ns relative to the first record\n", step);
    fprintf(f, "cta,unit,unit_kind,role,phase,t_start_ns,t_end_ns,index\n");
    size_t written = 0;
    for (int w = 0; w < 2 * t->units; ++w)
        for (uint32_t i = 0; i < counts[w] && i < (uint32_t)t->cap; ++i) {
            const trace_rec *r = &recs[(size_t)w * t->cap + i];
            const char *ph = r->phase >= 0 && r->phase < TP_COUNT ? trace_phase_names[r->phase] : "?";
            const char *role = r->phase <= TP_PRODUCER_LOAD ? "producer"
                             : r->phase == TP_EPILOGUE     ? "epilogue" : "consumer";
            fprintf(f, "%d,%d,%s,%s,%s,%llu,%llu,%d\n", r->cta, r->unit, unit_kind, role, ph,
                    (unsigned long long)(r->t_start - t0), (unsigned long long)(r->t_end - t0), r->index);
            ++written;
        }
    fclose(f);
    printf("timeline: %zu records of 2 CTAs written to %s\n", written, path);
    free(recs); free(counts);
    return EXIT_OK;
}

static void trace_free(trace_host *th)
{
    if (th->ctx.recs) CUDA_CHECK(cudaFree(th->ctx.recs));
    if (th->ctx.counts) CUDA_CHECK(cudaFree(th->ctx.counts));
    memset(th, 0, sizeof *th);
}

/* ---- argument handling shared by both workloads --------------------------- */

/* Parses argv; on --help prints usage and exits 0, on bad input prints the
 * message and exits 2. */
static void parse_or_exit(int argc, char **argv, const args_limits *lim, args_options *o,
                          const char *summary)
{
    char msg[512];
    int rc = args_parse(argc, argv, lim, o, msg, sizeof msg);
    if (rc == ARGS_HELP) {
        args_usage(argv[0], lim, summary);
        exit(EXIT_OK);
    }
    if (rc != ARGS_OK) {
        fprintf(stderr, "%s: %s\n", argv[0], msg);
        exit(EXIT_BAD_ARGS);
    }
}

#endif
