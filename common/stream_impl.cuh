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

/* ---- stream_main, phase by phase --------------------------------------------
 * open (flags, device), allocate (x, y and the copy's target), check, time
 * (interleaved with a D2D copy), report (the summary line), trace, record
 * (the CSV row), release, in that order, handing each other one stream_run.
 * A phase that refuses or fails returns its exit code and stream_main
 * returns it at once: the process ends, and with it everything still
 * allocated. */
typedef struct {
    const stream_step *step;
    args_options o;
    device_info di;
    int64_t n;                  /* elements of x and y */
    size_t bytes;               /* of each */
    float *hx, *hy;             /* host: the inputs, and y for the check */
    float *x, *y, *ycopy;       /* device: y = f(x), and the copy's target */
    stream_thunk_ctx sc;        /* the step's launch: its operands */
    int64_t checked;            /* check: elements whose f was recomputed */
    float ms, ms_copy;          /* time: medians of the step and the copy */
    double clock, gbps, copy_gbps;
} stream_run;

/* The flags and the device (sm_90: every streaming step waits on mbarriers). */
static int stream_open(stream_run *r, int argc, char **argv, const stream_step *step)
{
    args_limits lim = {WORKLOAD_STREAM, step->min_stages, step->max_stages, step->default_stages,
                       COURSE_DEBUG_BUILD, 0, 0, step->plant_bugs};
    memset(r, 0, sizeof *r);
    r->step = step;
    parse_or_exit(argc, argv, &lim, &r->o, step->summary);

    device_need need = {9, 0, 0, "the course builds for sm_90 (Hopper): mbarrier try_wait.parity"};
    return device_setup(r->o.device, need, &r->di);
}

/* Phase: allocate.  Refuses (exit 2) an n whose buffers do not fit before
 * allocating anything. */
static int stream_alloc(stream_run *r)
{
    const int64_t n = r->n = r->o.n_elems;
    const size_t bytes = r->bytes = (size_t)n * sizeof(float);
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (3.0 * (double)bytes > 0.9 * (double)free_b) {
        fprintf(stderr, "--n-elems: %lld elements need %.2f GiB for x, y and the copy's target; "
                "the device has %.2f GiB free\n", (long long)n, 3.0 * bytes / (1 << 30), free_b / (double)(1 << 30));
        return EXIT_BAD_ARGS;
    }

    r->hx = (float *)malloc(bytes);
    r->hy = (float *)malloc(bytes);
    if (!r->hx || !r->hy) {
        fprintf(stderr, "--n-elems: cannot allocate %.2f GiB of host memory\n", 2.0 * bytes / (1 << 30));
        return EXIT_BAD_ARGS;
    }
    uint64_t seed = r->o.seed;
    for (int64_t i = 0; i < n; ++i) r->hx[i] = rng_float(&seed);

    CUDA_CHECK(cudaMalloc((void **)&r->x, bytes));
    CUDA_CHECK(cudaMalloc((void **)&r->y, bytes));
    CUDA_CHECK(cudaMalloc((void **)&r->ycopy, bytes));
    CUDA_CHECK(cudaMemcpy(r->x, r->hx, bytes, cudaMemcpyHostToDevice));

    stream_operands *op = &r->sc.op;
    r->sc.step = r->step;
    op->x = r->x; op->y = r->y; op->n = n; op->work = r->o.work; op->stages = r->o.stages;
    op->grid = r->di.num_sms; op->trace = trace_disabled(); op->plant_bug = r->o.plant_bug;
    return EXIT_OK;
}

/* Phase: check.  Poison y (0xFF bytes = NaN), run once, compare. */
static int stream_check_run(stream_run *r)
{
    r->checked = 0;
    if (r->o.no_check) return EXIT_OK;
    CUDA_CHECK(cudaMemset(r->y, 0xFF, r->bytes));
    r->step->launch(&r->sc.op, 0);
    CUDA_CHECK_LAUNCH();
    sync_or_die(&r->di, "step kernel");
    CUDA_CHECK(cudaMemcpy(r->hy, r->y, r->bytes, cudaMemcpyDeviceToHost));
    return stream_check(r->hx, r->hy, r->n, r->o.work, &r->checked);
}

/* Phase: time, interleaved with a D2D copy of the same bytes. */
static void stream_time(stream_run *r)
{
    copy_thunk_ctx cc = {r->x, r->ycopy, r->bytes};
    time_interleaved(stream_thunk, &r->sc, copy_thunk, &cc, r->o.warmup, r->o.iters, &r->ms, &r->ms_copy);
    r->clock = sm_clock_mhz(&r->di);
    sync_or_die(&r->di, "timed launches");
    const double moved = 2.0 * (double)r->bytes;          /* x read + y written */
    r->gbps = moved / (r->ms * 1e-3) / 1e9;
    r->copy_gbps = moved / (r->ms_copy * 1e-3) / 1e9;
}

/* Phase: report, the summary line (and how much of y the check recomputed). */
static void stream_print(const stream_run *r)
{
    const args_options *o = &r->o;
    const long long n = (long long)r->n;
    printf("step%s %s: n=%lld work=%d stages=%d: %.4f ms %.1f GB/s | d2d copy %.4f ms %.1f GB/s | "
           "ratio %.3f | SM clock %.0f MHz | %s\n",
           r->step->step, r->step->name, n, o->work, o->stages, r->ms, r->gbps, r->ms_copy, r->copy_gbps,
           r->gbps / r->copy_gbps, r->clock,
           o->no_check ? "check skipped (--no-check)" : "check ok");
    if (!o->no_check && r->checked < r->n)
        printf("  (f recomputed for %lld of %lld elements: every element of the first and last two "
               "chunks and a stride elsewhere; all %lld scanned for unwritten NaN)\n",
               (long long)r->checked, n, n);
}

/* Phase: trace, one extra traced launch (never timed; --trace only). */
static int stream_trace(stream_run *r)
{
    if (!r->o.trace) return EXIT_OK;
    trace_host th;
    memset(&th, 0, sizeof th);
    trace_alloc(&th, STREAM_THREADS / 32, STREAM_TRACE_CAP, r->di.num_sms);
    r->sc.op.trace = th.ctx;
    r->step->launch(&r->sc.op, 0);
    CUDA_CHECK_LAUNCH();
    sync_or_die(&r->di, "traced launch");
    const int rc = trace_write(&th, r->o.trace, "warp", r->step->step);
    trace_free(&th);
    return rc;
}

/* Phase: record, the CSV row (--csv only). */
static int stream_record(const stream_run *r)
{
    const args_options *o = &r->o;
    if (!o->csv) return EXIT_OK;
    csv_row row;
    row_store st;
    memset(&row, 0, sizeof row);
    row.step = r->step->step;
    row.variant = o->variant ? o->variant : "default";
    row.m = row.n = row.k = -1;
    row.n_elems = r->n; row.work = o->work; row.stages = o->stages;
    row.ms_median = r->ms; row.tflops = NAN; row.gbps = r->gbps;
    row.ref_name = "d2d_copy"; row.ref_value = r->copy_gbps; row.ratio_to_ref = r->gbps / r->copy_gbps;
    row.rel_err = o->no_check ? NAN : 0.0;
    row.impl = "course"; row.repeat = o->repeat; row.chooser = "default";   /* group, cluster, mode: do not apply */
    row_fill_env(&row, &r->di, &st, r->clock);
    return row_write(o->csv, &row);
}

/* Phase: release. */
static void stream_release(stream_run *r)
{
    CUDA_CHECK(cudaFree(r->x));
    CUDA_CHECK(cudaFree(r->y));
    CUDA_CHECK(cudaFree(r->ycopy));
    free(r->hx);
    free(r->hy);
}

static int stream_main(int argc, char **argv, const stream_step *step)
{
    stream_run r;
    int rc = stream_open(&r, argc, argv, step);
    if (!rc) rc = stream_alloc(&r);
    if (!rc) rc = stream_check_run(&r);
    if (rc) return rc;
    stream_time(&r);
    stream_print(&r);
    rc = stream_trace(&r);
    if (!rc) rc = stream_record(&r);
    if (rc) return rc;
    stream_release(&r);
    return EXIT_OK;
}

#endif
