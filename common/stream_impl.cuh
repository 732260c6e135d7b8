/* stream_impl.cuh — host side of the streaming workload (see stream.cuh). */
#ifndef COMMON_STREAM_IMPL_CUH
#define COMMON_STREAM_IMPL_CUH

#include <stdio.h>
#include <string.h>

/* Uniform in [-1, 1), never exactly 0. */
static float rng_float(uint64_t *s)
{
    float v = (float)((rng_next(s) >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
    return v == 0.0f ? 0.5f : v;
}

typedef struct {
    stream_operands op;
    const stream_step *step;
} stream_thunk_ctx;

static void stream_thunk(void *ctx, int i, cudaStream_t s)
{
    (void)i;
    stream_thunk_ctx *c = (stream_thunk_ctx *)ctx;
    c->step->launch(&c->op, s);
}

typedef struct {
    const float *src;
    float *dst;
    size_t bytes;
} copy_thunk_ctx;

static void copy_thunk(void *ctx, int i, cudaStream_t s)
{
    (void)i;
    copy_thunk_ctx *c = (copy_thunk_ctx *)ctx;
    CUDA_CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, s));
}

/* Host check.  Every element is scanned for the poison (an element the kernel
 * never wrote is NaN); f is recomputed exactly (same fmaf chain, so the
 * results must be bit-identical) for every element when n*work is small, and
 * otherwise for all of the first and last chunks plus a stride over the rest,
 * bounded to ~2^29 FMAs so a check never takes more than a second or two. */
static int stream_check(const float *hx, const float *hy, int64_t n, int work, int64_t *checked)
{
    int64_t bad = 0, first_bad = -1;
    for (int64_t i = 0; i < n; ++i)
        if (isnan(hy[i]) || isinf(hy[i])) {
            if (first_bad < 0) first_bad = i;
            ++bad;
        }
    if (bad) {
        fprintf(stderr, "check FAILED: %lld of %lld elements are NaN/Inf (never written?); first at %lld\n",
                (long long)bad, (long long)n, (long long)first_bad);
        return EXIT_WRONG;
    }
    const int64_t budget = (int64_t)1 << 29;
    int64_t stride = 1;
    if (n * (int64_t)(work + 1) > budget) stride = (n * (int64_t)(work + 1) + budget - 1) / budget;
    const int64_t edge = STREAM_CHUNK * 2;
    *checked = 0;
    for (int64_t i = 0; i < n; i += (i < edge || i >= n - edge) ? 1 : stride) {
        float want = stream_f(hx[i], work);
        ++*checked;
        if (memcmp(&want, &hy[i], sizeof want) != 0) {
            if (bad < 5)
                fprintf(stderr, "check FAILED: y[%lld] = %.9g, expected f(x) = %.9g (x = %.9g, work %d)\n",
                        (long long)i, hy[i], want, hx[i], work);
            ++bad;
        }
    }
    if (bad) {
        fprintf(stderr, "check FAILED: %lld of %lld checked elements differ\n", (long long)bad,
                (long long)*checked);
        return EXIT_WRONG;
    }
    return EXIT_OK;
}

static int stream_main(int argc, char **argv, const stream_step *step)
{
    args_limits lim = {WORKLOAD_STREAM, step->min_stages, step->max_stages, step->default_stages,
                       COURSE_DEBUG_BUILD};
    args_options o;
    parse_or_exit(argc, argv, &lim, &o, step->summary);

    device_need need = {9, 0, 0, "the course builds for sm_90 (Hopper): mbarrier try_wait.parity"};
    device_info di;
    int rc = device_setup(o.device, need, &di);
    if (rc) return rc;

    const int64_t n = o.n_elems;
    const size_t bytes = (size_t)n * sizeof(float);
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (3.0 * (double)bytes > 0.9 * (double)free_b) {
        fprintf(stderr, "--n-elems: %lld elements need %.2f GiB for x, y and the copy's target; "
                "the device has %.2f GiB free\n", (long long)n, 3.0 * bytes / (1 << 30), free_b / (double)(1 << 30));
        return EXIT_BAD_ARGS;
    }

    float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes);
    if (!hx || !hy) {
        fprintf(stderr, "--n-elems: cannot allocate %.2f GiB of host memory\n", 2.0 * bytes / (1 << 30));
        return EXIT_BAD_ARGS;
    }
    uint64_t seed = o.seed;
    for (int64_t i = 0; i < n; ++i) hx[i] = rng_float(&seed);

    float *x = NULL, *y = NULL, *ycopy = NULL;
    CUDA_CHECK(cudaMalloc((void **)&x, bytes));
    CUDA_CHECK(cudaMalloc((void **)&y, bytes));
    CUDA_CHECK(cudaMalloc((void **)&ycopy, bytes));
    CUDA_CHECK(cudaMemcpy(x, hx, bytes, cudaMemcpyHostToDevice));

    stream_thunk_ctx sc;
    memset(&sc, 0, sizeof sc);
    sc.step = step;
    sc.op.x = x; sc.op.y = y; sc.op.n = n; sc.op.work = o.work; sc.op.stages = o.stages;
    sc.op.grid = di.num_sms; sc.op.trace = trace_disabled(); sc.op.plant_bug = o.plant_bug;

    /* 1. correctness: poison y (0xFF bytes = NaN), run once, compare. */
    int64_t checked = 0;
    if (!o.no_check) {
        CUDA_CHECK(cudaMemset(y, 0xFF, bytes));
        step->launch(&sc.op, 0);
        CUDA_CHECK_LAUNCH();
        sync_or_die(&di, "step kernel");
        CUDA_CHECK(cudaMemcpy(hy, y, bytes, cudaMemcpyDeviceToHost));
        rc = stream_check(hx, hy, n, o.work, &checked);
        if (rc) return rc;
    }

    /* 2. timing, interleaved with a D2D copy of the same bytes. */
    copy_thunk_ctx cc = {x, ycopy, bytes};
    float ms = 0, ms_copy = 0;
    time_interleaved(stream_thunk, &sc, copy_thunk, &cc, o.warmup, o.iters, &ms, &ms_copy);
    double clock = sm_clock_mhz(&di);
    sync_or_die(&di, "timed launches");
    const double moved = 2.0 * (double)bytes;             /* x read + y written */
    const double gbps = moved / (ms * 1e-3) / 1e9;
    const double copy_gbps = moved / (ms_copy * 1e-3) / 1e9;

    printf("step%s %s: n=%lld work=%d stages=%d: %.4f ms %.1f GB/s | d2d copy %.4f ms %.1f GB/s | "
           "ratio %.3f | SM clock %.0f MHz | %s\n",
           step->step, step->name, (long long)n, o.work, o.stages, ms, gbps, ms_copy, copy_gbps,
           gbps / copy_gbps, clock,
           o.no_check ? "check skipped (--no-check)" : "check ok");
    if (!o.no_check && checked < n)
        printf("  (f recomputed for %lld of %lld elements: every element of the first and last two "
               "chunks and a stride elsewhere; all %lld scanned for unwritten NaN)\n",
               (long long)checked, (long long)n, (long long)n);

    /* 3. one extra traced launch (never timed). */
    if (o.trace) {
        trace_host th;
        memset(&th, 0, sizeof th);
        trace_alloc(&th, STREAM_THREADS / 32, STREAM_TRACE_CAP, di.num_sms);
        sc.op.trace = th.ctx;
        step->launch(&sc.op, 0);
        CUDA_CHECK_LAUNCH();
        sync_or_die(&di, "traced launch");
        rc = trace_write(&th, o.trace, "warp", step->step);
        trace_free(&th);
        if (rc) return rc;
    }

    if (o.csv) {
        csv_row r;
        row_store st;
        memset(&r, 0, sizeof r);
        r.step = step->step;
        r.variant = o.variant ? o.variant : "default";
        r.m = r.n = r.k = -1;
        r.n_elems = n; r.work = o.work; r.stages = o.stages;
        r.ms_median = ms; r.tflops = NAN; r.gbps = gbps;
        r.ref_name = "d2d_copy"; r.ref_value = copy_gbps; r.ratio_to_ref = gbps / copy_gbps;
        r.rel_err = o.no_check ? NAN : 0.0;
        r.impl = "course"; r.repeat = o.repeat;   /* group, cluster, mode: do not apply */
        row_fill_env(&r, &di, &st, clock);
        rc = row_write(o.csv, &r);
        if (rc) return rc;
    }

    CUDA_CHECK(cudaFree(x));
    CUDA_CHECK(cudaFree(y));
    CUDA_CHECK(cudaFree(ycopy));
    free(hx);
    free(hy);
    return EXIT_OK;
}

#endif
