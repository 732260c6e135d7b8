/* gemm_impl.cuh — host side of the GEMM harness (see gemm.cuh). */
#ifndef COMMON_GEMM_IMPL_CUH
#define COMMON_GEMM_IMPL_CUH

#include <stdio.h>
#include <string.h>

#include "rotation.h"

/* ---- L2 flush --------------------------------------------------------------
 * Reads a buffer of twice the L2's size, so every line an earlier launch left
 * there (its inputs; its dirty outputs, written back now, outside any timed
 * span) is evicted.  Reads, not a memset: a memset would leave the L2 full of
 * dirty lines that the next, timed, launch would pay to write back. */
static __global__ void l2_flush_kernel(const int4 *__restrict__ buf, size_t n, int *sink)
{
    int acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        const int4 v = buf[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x7fffffff) *sink = acc;   /* never true on the zeroed buffer: keeps the loads */
}

typedef struct {
    int4 *buf;
    size_t n;          /* int4 elements */
    int *sink;
    int blocks;
} l2_flush_ctx;

static void l2_flush_alloc(l2_flush_ctx *f, const device_info *di)
{
    const size_t bytes = 2 * (size_t)di->prop.l2CacheSize;
    f->n = bytes / sizeof(int4);
    f->blocks = 4 * di->num_sms;
    CUDA_CHECK(cudaMalloc((void **)&f->buf, bytes + sizeof(int4)));
    CUDA_CHECK(cudaMemset(f->buf, 0, bytes + sizeof(int4)));
    f->sink = (int *)(f->buf + f->n);
}

static void l2_flush_thunk(void *ctx, int i, cudaStream_t s)
{
    (void)i;
    const l2_flush_ctx *f = (const l2_flush_ctx *)ctx;
    l2_flush_kernel<<<f->blocks, 512, 0, s>>>(f->buf, f->n, f->sink);
}

static void l2_flush_free(l2_flush_ctx *f)
{
    if (f->buf) CUDA_CHECK(cudaFree(f->buf));
    memset(f, 0, sizeof *f);
}

/* Random inputs: uniform in [-1, 1) rounded to bf16, never exactly 0 (so
 * a dropped element always changes the result); exact mode: {-1, 0, 1}. */
static void gemm_fill(__nv_bfloat16 *h, size_t count, uint64_t *seed, int exact)
{
    for (size_t i = 0; i < count; ++i) {
        uint64_t r = rng_next(seed);
        float v;
        if (exact) {
            v = (float)(int)(r % 3) - 1.0f;
        } else {
            v = (float)((r >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
            if (__bfloat162float(__float2bfloat16(v)) == 0.0f) v = 0.25f;
        }
        h[i] = __float2bfloat16(v);
    }
}

typedef struct {
    const gemm_step *step;
    gemm_operands *ops;       /* one per rotation set */
    int nsets;
} gemm_step_thunk_ctx;

/* Every launch of the step goes through here: it numbers the launch
 * (op->epoch, see gemm.cuh) before enqueueing it. */
static void gemm_launch_step(const gemm_step *step, gemm_operands *op, cudaStream_t s)
{
    static unsigned launches = 0;
    op->epoch = ++launches;
    step->launch(op, s);
}

/* Timed launch i of the step reads set rotation_set(0, i): the even sets
 * (rotation.h says why). */
static void gemm_step_thunk(void *ctx, int i, cudaStream_t s)
{
    gemm_step_thunk_ctx *c = (gemm_step_thunk_ctx *)ctx;
    gemm_launch_step(c->step, &c->ops[rotation_set(0, i, c->nsets)], s);
}

typedef struct {
    cublasHandle_t h;
    const __nv_bfloat16 **a, **b;
    __nv_bfloat16 *d;
    int m, n, k, nsets;
    int side;                 /* 1: the reference (odd sets); 0: cuBLAS in the step's place (--ref-vs-ref) */
} cublas_thunk_ctx;

/* D = A·Bᵀ, all row-major, is Dᵀ = B·Aᵀ in column-major: cuBLAS "TN" with
 * (m, n, k) = (N, M, K), B first with op T, A second with op N. */
static void cublas_gemm(cublasHandle_t h, const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                        __nv_bfloat16 *d, int m, int n, int k, cudaStream_t s)
{
    const float alpha = 1.0f, beta = 0.0f;
    CUBLAS_CHECK(cublasSetStream(h, s));
    CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_16BF, k, a,
                              CUDA_R_16BF, k, &beta, d, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT));
}

static void cublas_thunk(void *ctx, int i, cudaStream_t s)
{
    cublas_thunk_ctx *c = (cublas_thunk_ctx *)ctx;
    const int set = rotation_set(c->side, i, c->nsets);
    cublas_gemm(c->h, c->a[set], c->b[set], c->d, c->m, c->n, c->k, s);
}

/* Without --iters: a short interleaved run (which also warms up) measures
 * both sides, then enough launches that the faster side runs
 * GEMM_AUTO_ITERS_MS in total. */
static int gemm_auto_iters(launch_thunk a, void *actx, launch_thunk b, void *bctx,
                           launch_thunk between, void *between_ctx, int warmup)
{
    float ta = 0, tb = 0;
    time_interleaved_between(a, actx, b, bctx, between, between_ctx, warmup, 5, &ta, &tb);
    const double t = ta < tb ? ta : tb;
    double n = t > 0 ? ceil(GEMM_AUTO_ITERS_MS / t) : GEMM_MAX_ITERS;
    if (n < GEMM_MIN_ITERS) n = GEMM_MIN_ITERS;
    if (n > GEMM_MAX_ITERS) n = GEMM_MAX_ITERS;
    return (int)n;
}

/* Relative Frobenius error of got vs want (both bf16, M×N), NaN/Inf counted. */
static double gemm_rel_err(const __nv_bfloat16 *got, const __nv_bfloat16 *want, size_t count,
                           size_t *nonfinite, size_t *first_nonfinite)
{
    double num = 0, den = 0;
    *nonfinite = 0;
    *first_nonfinite = (size_t)-1;
    for (size_t i = 0; i < count; ++i) {
        double g = __bfloat162float(got[i]), w = __bfloat162float(want[i]);
        if (isnan(g) || isinf(g)) {
            if (!*nonfinite) *first_nonfinite = i;
            ++*nonfinite;
            continue;
        }
        num += (g - w) * (g - w);
        den += w * w;
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* float64 host reference on all elements (small problems) or on a sample of
 * elements (large ones); returns the relative Frobenius error over them. */
static double gemm_host_check(const __nv_bfloat16 *ha, const __nv_bfloat16 *hb,
                              const __nv_bfloat16 *hd, int m, int n, int k, uint64_t seed,
                              size_t *checked)
{
    const double full_limit = (double)(1 << 27);
    const int full = (double)m * n * k <= full_limit;
    const size_t samples = full ? (size_t)m * n : 8192;
    double num = 0, den = 0;
    float *arow = (float *)malloc(sizeof(float) * (size_t)k);
    *checked = 0;
    for (size_t s = 0; s < samples; ++s) {
        size_t i, j;
        if (full) { i = s / (size_t)n; j = s % (size_t)n; }
        else {
            /* corners first (edge tiles), then random elements */
            if (s < 4) { i = (s & 1) ? (size_t)m - 1 : 0; j = (s & 2) ? (size_t)n - 1 : 0; }
            else { i = rng_next(&seed) % (size_t)m; j = rng_next(&seed) % (size_t)n; }
        }
        if (!full || j == 0)   /* full: one row of A per i; sampled: every element */
            for (int kk = 0; kk < k; ++kk) arow[kk] = __bfloat162float(ha[i * (size_t)k + kk]);
        double acc = 0;
        const __nv_bfloat16 *brow = hb + j * (size_t)k;
        for (int kk = 0; kk < k; ++kk) acc += (double)arow[kk] * (double)__bfloat162float(brow[kk]);
        double g = __bfloat162float(hd[i * (size_t)n + j]);
        num += (g - acc) * (g - acc);
        den += acc * acc;
        ++*checked;
    }
    free(arow);
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

static int gemm_main(int argc, char **argv, const gemm_step *step)
{
    args_limits lim = {WORKLOAD_GEMM, step->min_stages, step->max_stages, step->default_stages,
                       COURSE_DEBUG_BUILD, step->has_group, step->has_mode};
    args_options o;
    parse_or_exit(argc, argv, &lim, &o, step->summary);

    device_info di;
    int rc = device_setup(o.device, step->need, &di);
    if (rc) return rc;

    const int M = o.m, N = o.n, K = o.k;
    const size_t na = (size_t)M * K, nb = (size_t)N * K, nd = (size_t)M * N;
    const size_t bytes_ab = sizeof(__nv_bfloat16) * (na + nb);
    const size_t bytes_d = sizeof(__nv_bfloat16) * nd;

    /* Rotation sets (rotation.h): the step's and cuBLAS's own, enough that
     * no launch finds its A and B in L2, as many as fit; otherwise an L2
     * flush before every timed launch (its buffer, 2 x L2, comes first). */
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const double budget = 0.85 * (double)free_b - 2.0 * (double)bytes_d - 64.0 * (1 << 20) -
                          2.0 * di.prop.l2CacheSize;
    if ((double)bytes_ab > budget) {
        fprintf(stderr, "--m/--n/--k: %dx%dx%d needs %.2f GiB (A, B, D and cuBLAS's D); the device has "
                "%.2f GiB free\n", M, N, K, (bytes_ab + 2.0 * bytes_d) / (double)(1 << 30),
                free_b / (double)(1 << 30));
        return EXIT_BAD_ARGS;
    }
    const rotation_plan rot = rotation_plan_make((double)bytes_ab, (double)di.prop.l2CacheSize, budget);
    const int nsets = rot.nsets;

    /* Inputs: set 0 from the seed; other sets are copies at other addresses
     * (the cache does not care what the bytes are). */
    __nv_bfloat16 *ha = (__nv_bfloat16 *)malloc(sizeof(__nv_bfloat16) * na);
    __nv_bfloat16 *hb = (__nv_bfloat16 *)malloc(sizeof(__nv_bfloat16) * nb);
    __nv_bfloat16 *hd = (__nv_bfloat16 *)malloc(bytes_d);
    __nv_bfloat16 *hr = (__nv_bfloat16 *)malloc(bytes_d);
    if (!ha || !hb || !hd || !hr) {
        fprintf(stderr, "--m/--n/--k: cannot allocate host memory for %dx%dx%d\n", M, N, K);
        return EXIT_BAD_ARGS;
    }
    uint64_t seed = o.seed;
    gemm_fill(ha, na, &seed, o.exact);
    gemm_fill(hb, nb, &seed, o.exact);

    const __nv_bfloat16 **da = (const __nv_bfloat16 **)calloc((size_t)nsets, sizeof *da);
    const __nv_bfloat16 **db = (const __nv_bfloat16 **)calloc((size_t)nsets, sizeof *db);
    __nv_bfloat16 *d = NULL, *dref = NULL;
    for (int s = 0; s < nsets; ++s) {
        __nv_bfloat16 *p = NULL;
        CUDA_CHECK(cudaMalloc((void **)&p, bytes_ab));
        if (s == 0) {
            CUDA_CHECK(cudaMemcpy(p, ha, sizeof(__nv_bfloat16) * na, cudaMemcpyHostToDevice));
            CUDA_CHECK(cudaMemcpy(p + na, hb, sizeof(__nv_bfloat16) * nb, cudaMemcpyHostToDevice));
        } else {
            CUDA_CHECK(cudaMemcpy(p, da[0], bytes_ab, cudaMemcpyDeviceToDevice));
        }
        da[s] = p;
        db[s] = p + na;   /* na*2 bytes = M*K*2, a multiple of 16 since K % 8 == 0 */
    }
    CUDA_CHECK(cudaMalloc((void **)&d, bytes_d));
    CUDA_CHECK(cudaMalloc((void **)&dref, bytes_d));

    gemm_operands *ops = (gemm_operands *)calloc((size_t)nsets, sizeof *ops);
    gemm_report report = {"course", 1, ""};
    for (int s = 0; s < nsets; ++s) {
        ops[s].report = &report;
        ops[s].m = M; ops[s].n = N; ops[s].k = K;
        ops[s].a = da[s]; ops[s].b = db[s]; ops[s].d = d;
        ops[s].stages = o.stages; ops[s].num_sms = di.num_sms;
        ops[s].smem_optin = (int)di.prop.sharedMemPerBlockOptin; ops[s].group = o.group;
        ops[s].trace = trace_disabled(); ops[s].plant_bug = o.plant_bug;
        ops[s].launch = step->launch_desc;
        ops[s].mode = o.mode;
        ops[s].plan = step->prepare ? step->prepare(&ops[s]) : NULL;
    }
    /* One workspace for the whole run, zeroed once (gemm.cuh). */
    void *workspace = NULL;
    const size_t workspace_bytes = step->workspace_bytes ? step->workspace_bytes(&ops[0]) : 0;
    if (workspace_bytes) {
        CUDA_CHECK(cudaMalloc(&workspace, workspace_bytes));
        CUDA_CHECK(cudaMemset(workspace, 0, workspace_bytes));
    }
    for (int s = 0; s < nsets; ++s) {
        ops[s].workspace = workspace;
        ops[s].workspace_bytes = workspace_bytes;
    }

    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));

    /* 1. correctness on set 0 */
    double err_ref = NAN, err_host = NAN;
    size_t host_checked = 0;
    if (!o.no_check) {
        CUDA_CHECK(cudaMemset(d, 0xFF, bytes_d));      /* poison: 0xFFFF is a bf16 NaN */
        CUDA_CHECK(cudaMemset(dref, 0xFF, bytes_d));
        gemm_launch_step(step, &ops[0], 0);
        CUDA_CHECK_LAUNCH();
        sync_or_die(&di, "step kernel");
        cublas_gemm(handle, da[0], db[0], dref, M, N, K, 0);
        sync_or_die(&di, "cuBLAS");
        CUDA_CHECK(cudaMemcpy(hd, d, bytes_d, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(hr, dref, bytes_d, cudaMemcpyDeviceToHost));

        size_t nonfinite = 0, first = 0;
        err_ref = gemm_rel_err(hd, hr, nd, &nonfinite, &first);
        if (nonfinite) {
            fprintf(stderr, "check FAILED: %zu of %zu outputs are NaN/Inf (never written, or overflow); "
                    "first at row %zu col %zu\n", nonfinite, nd, first / (size_t)N, first % (size_t)N);
            return EXIT_WRONG;
        }
        if (o.exact) {
            size_t diff = 0, first_diff = 0;
            for (size_t i = 0; i < nd; ++i)
                if (memcmp(&hd[i], &hr[i], sizeof hd[i]) != 0) { if (!diff) first_diff = i; ++diff; }
            if (diff) {
                fprintf(stderr, "check FAILED (exact mode): %zu of %zu outputs differ from cuBLAS; first at "
                        "row %zu col %zu: got %g, cuBLAS %g\n", diff, nd, first_diff / (size_t)N,
                        first_diff % (size_t)N, (double)__bfloat162float(hd[first_diff]),
                        (double)__bfloat162float(hr[first_diff]));
                return EXIT_WRONG;
            }
        }
        if (!(err_ref < 1e-2)) {
            fprintf(stderr, "check FAILED: relative Frobenius error vs cuBLAS %.3e (limit 1e-2)\n", err_ref);
            return EXIT_WRONG;
        }
        err_host = gemm_host_check(ha, hb, hd, M, N, K, o.seed ^ 0x5eedull, &host_checked);
        if (!(err_host < 1e-2)) {
            fprintf(stderr, "check FAILED: relative error vs the float64 host reference %.3e over %zu "
                    "elements (limit 1e-2)\n", err_host, host_checked);
            return EXIT_WRONG;
        }
    }

    /* 2. timing, interleaved with cuBLAS; --ref-vs-ref puts cuBLAS in the
     * step's place (its sets, its output buffer): the A/A test. */
    gemm_step_thunk_ctx sc = {step, ops, nsets};
    cublas_thunk_ctx cc = {handle, da, db, dref, M, N, K, nsets, 1};
    cublas_thunk_ctx aa = {handle, da, db, d, M, N, K, nsets, 0};
    launch_thunk first = o.ref_vs_ref ? cublas_thunk : gemm_step_thunk;
    void *first_ctx = o.ref_vs_ref ? (void *)&aa : (void *)&sc;
    l2_flush_ctx flush;
    memset(&flush, 0, sizeof flush);
    if (rot.flush) l2_flush_alloc(&flush, &di);
    launch_thunk between = rot.flush ? l2_flush_thunk : NULL;
    const int iters = o.iters ? o.iters
                              : gemm_auto_iters(first, first_ctx, cublas_thunk, &cc, between, &flush, o.warmup);
    float ms = 0, ms_ref = 0;
    time_interleaved_between(first, first_ctx, cublas_thunk, &cc, between, &flush, o.iters ? o.warmup : 2,
                             iters, &ms, &ms_ref);
    l2_flush_free(&flush);
    double clock = sm_clock_mhz(&di);
    sync_or_die(&di, "timed launches");
    const double flops = 2.0 * M * (double)N * K;
    const double tflops = flops / (ms * 1e-3) / 1e12;
    const double ref_tflops = flops / (ms_ref * 1e-3) / 1e12;
    const double gbps = (bytes_ab + (double)bytes_d) / (ms * 1e-3) / 1e9;

    printf("step%s %s: %dx%dx%d stages=%d: %.4f ms %.1f TFLOP/s | cuBLAS %.4f ms %.1f TFLOP/s | ratio %.3f | "
           "SM clock %.0f MHz | ",
           step->step, o.ref_vs_ref ? "A/A (cuBLAS in the step's place)" : step->name, M, N, K, o.stages,
           ms, tflops, ms_ref, ref_tflops, tflops / ref_tflops, clock);
    if (o.no_check) printf("check skipped (--no-check)\n");
    else printf("check ok%s: rel err %.2e vs cuBLAS, %.2e vs float64 on %zu elements\n",
                o.exact ? " (exact, bit for bit)" : "", err_ref, err_host, host_checked);
    printf("  timing: %d launches each, interleaved; %d input sets (the step's even, cuBLAS's odd)%s\n",
           iters, nsets, rot.flush ? ", L2 flushed before every launch" : "");

    /* 3. one traced launch, never timed */
    if (o.trace) {
        trace_host th;
        memset(&th, 0, sizeof th);
        /* CTA 0 and the last CTA of the first wave: they run side by side. */
        trace_alloc(&th, step->trace_units, 4096, -di.num_sms);
        ops[0].trace = th.ctx;
        gemm_launch_step(step, &ops[0], 0);
        CUDA_CHECK_LAUNCH();
        sync_or_die(&di, "traced launch");
        ops[0].trace = trace_disabled();
        rc = trace_write(&th, o.trace, step->trace_unit_kind, step->step);
        trace_free(&th);
        if (rc) return rc;
    }

    if (o.csv) {
        csv_row r;
        row_store st;
        char variant[96];
        memset(&r, 0, sizeof r);
        snprintf(variant, sizeof variant, "%s%s", o.variant ? o.variant : step->variant,
                 o.exact ? "+exact" : "");
        r.step = step->step;
        r.variant = variant;
        r.m = M; r.n = N; r.k = K;
        r.n_elems = -1; r.work = -1; r.stages = o.stages;
        r.ms_median = ms; r.tflops = tflops; r.gbps = gbps;
        r.ref_name = "cublas"; r.ref_value = ref_tflops; r.ratio_to_ref = tflops / ref_tflops;
        r.rel_err = err_ref;
        r.impl = o.ref_vs_ref ? "aa" : report.impl;
        r.cluster = report.cluster; r.mode = report.mode;
        r.harness = "fair";
        r.group = step->has_group ? o.group : 0;   /* 0: empty, no tile scheduler */
        r.repeat = o.repeat;
        row_fill_env(&r, &di, &st, clock);
        rc = row_write(o.csv, &r);
        if (rc) return rc;
    }

    for (int s = 0; s < nsets; ++s) {
        if (step->release && ops[s].plan) step->release(ops[s].plan);
        CUDA_CHECK(cudaFree((void *)da[s]));
    }
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dref));
    if (workspace) CUDA_CHECK(cudaFree(workspace));
    CUBLAS_CHECK(cublasDestroy(handle));
    free(ops); free(da); free(db); free(ha); free(hb); free(hd); free(hr);
    return EXIT_OK;
}

#endif
