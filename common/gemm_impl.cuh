/* gemm_impl.cuh — host side of the GEMM harness (see gemm.cuh). */
#ifndef COMMON_GEMM_IMPL_CUH
#define COMMON_GEMM_IMPL_CUH

#include <stdio.h>
#include <string.h>

#include "rotation.h"
#include "tune_cache.h"

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

/* The launch at position t of the run reads set rotation_set(t)
 * (rotation.h says why). */
static void gemm_step_thunk(void *ctx, int i, cudaStream_t s)
{
    gemm_step_thunk_ctx *c = (gemm_step_thunk_ctx *)ctx;
    gemm_launch_step(c->step, &c->ops[rotation_set(i, c->nsets)], s);
}

typedef struct {
    cublasHandle_t h;
    const __nv_bfloat16 **a, **b;
    __nv_bfloat16 **d;        /* each set's D: a launch writes the D of the set it reads */
    int m, n, k, nsets;
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
    const int set = rotation_set(i, c->nsets);
    cublas_gemm(c->h, c->a[set], c->b[set], c->d[set], c->m, c->n, c->k, s);
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

/* ---- gemm_main, phase by phase ---------------------------------------------
 * open (flags, device), allocate (gemm_alloc: sizes and rotation sets,
 * inputs, plans, workspace), check (correctness on set 0), time (interleaved with cuBLAS), report (the
 * summary line), trace (one traced launch), record (the CSV row), release.
 * The phases run in that order and hand each other one gemm_run.  A phase
 * that refuses or fails returns its exit code and gemm_main returns it at
 * once: the process ends, and with it everything still allocated. */
typedef struct {
    const gemm_step *step;
    args_options o;
    device_info di;
    size_t na, nb, nd;                /* elements of A, B and D */
    size_t bytes_ab, bytes_d;         /* one set's A and B, and its D */
    size_t d_offset;                  /* D's place in a set's allocation: bytes_ab rounded to 256 */
    rotation_plan rot;                /* rotation.h: how many sets; flush or not */
    __nv_bfloat16 *ha, *hb;           /* host: set 0's A and B */
    __nv_bfloat16 *hd, *hr;           /* host: the step's and cuBLAS's D, for the check */
    const __nv_bfloat16 **da, **db;   /* device: each set's A and B (one allocation per set: A, B, D) */
    __nv_bfloat16 **dd;               /* device: each set's D, written by whichever side reads the set */
    __nv_bfloat16 *d, *dref;          /* device: the step's D in the check (set 0's), cuBLAS's */
    gemm_operands *ops;               /* one per rotation set */
    gemm_report report;               /* every ops[s].report points here */
    void *workspace;
    size_t workspace_bytes;
    cublasHandle_t handle;
    double err_ref, err_host;         /* check: NAN when skipped (--no-check) */
    size_t host_checked;
    int iters;                        /* time: launches per side, --iters or auto */
    float ms, ms_ref;                 /* medians of the step (or A/A's cuBLAS) and cuBLAS */
    double clock, tflops, ref_tflops, gbps;
    char tune_cache[512];             /* step 10: where --tune stores its winners */
} gemm_run;

/* The flags and the device: everything the sizes depend on. */
static int gemm_open(gemm_run *r, int argc, char **argv, const gemm_step *step)
{
    args_limits lim = {WORKLOAD_GEMM, step->min_stages, step->max_stages, step->default_stages,
                       COURSE_DEBUG_BUILD, step->has_group, step->has_mode, step->plant_bugs,
                       step->menu != NULL};
    memset(r, 0, sizeof *r);
    r->step = step;
    parse_or_exit(argc, argv, &lim, &r->o, step->summary);
    /* Step 10's tuning cache: next to the binary (build/), never committed. */
    const char *slash = strrchr(argv[0], '/');
    snprintf(r->tune_cache, sizeof r->tune_cache, "%.*stune_cache.txt",
             slash ? (int)(slash - argv[0] + 1) : 0, argv[0]);
    return device_setup(r->o.device, step->need, &r->di);
}

/* Sizes, and how many input sets the device's free memory holds; a shape
 * whose one set does not fit is refused here, before anything is allocated. */
static int gemm_alloc_plan(gemm_run *r)
{
    const int M = r->o.m, N = r->o.n, K = r->o.k;
    r->na = (size_t)M * K;
    r->nb = (size_t)N * K;
    r->nd = (size_t)M * N;
    const size_t bytes_ab = r->bytes_ab = sizeof(__nv_bfloat16) * (r->na + r->nb);
    const size_t bytes_d = r->bytes_d = sizeof(__nv_bfloat16) * r->nd;

    /* Rotation sets (rotation.h): each an A, a B and a D, taken in launch
     * order by both sides, enough that no launch finds its A and B in L2, as
     * many as fit; otherwise an L2 flush before every timed launch (its
     * buffer, 2 x L2, comes first).  D rotates with A and B, so the step and
     * cuBLAS write the same buffers too: nothing in the data tells the two
     * sides apart. */
    r->d_offset = (bytes_ab + 255) / 256 * 256;
    const size_t bytes_set = r->d_offset + bytes_d;
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const double budget = 0.85 * (double)free_b - (double)bytes_d - 64.0 * (1 << 20) -
                          2.0 * r->di.prop.l2CacheSize;
    if ((double)bytes_set > budget) {
        fprintf(stderr, "--m/--n/--k: %dx%dx%d needs %.2f GiB (A, B, D and cuBLAS's D); the device has "
                "%.2f GiB free\n", M, N, K, (bytes_ab + 2.0 * bytes_d) / (double)(1 << 30),
                free_b / (double)(1 << 30));
        return EXIT_BAD_ARGS;
    }
    r->rot = rotation_plan_make((double)bytes_set, (double)r->di.prop.l2CacheSize, budget);
    return EXIT_OK;
}

/* Inputs: set 0 from the seed; other sets are copies at other addresses
 * (the cache does not care what the bytes are). */
static int gemm_alloc_host(gemm_run *r)
{
    r->ha = (__nv_bfloat16 *)malloc(sizeof(__nv_bfloat16) * r->na);
    r->hb = (__nv_bfloat16 *)malloc(sizeof(__nv_bfloat16) * r->nb);
    r->hd = (__nv_bfloat16 *)malloc(r->bytes_d);
    r->hr = (__nv_bfloat16 *)malloc(r->bytes_d);
    if (!r->ha || !r->hb || !r->hd || !r->hr) {
        fprintf(stderr, "--m/--n/--k: cannot allocate host memory for %dx%dx%d\n", r->o.m, r->o.n,
                r->o.k);
        return EXIT_BAD_ARGS;
    }
    uint64_t seed = r->o.seed;
    gemm_fill(r->ha, r->na, &seed, r->o.exact);
    gemm_fill(r->hb, r->nb, &seed, r->o.exact);
    return EXIT_OK;
}

static void gemm_alloc_device(gemm_run *r)
{
    const int nsets = r->rot.nsets;
    const size_t na = r->na, nb = r->nb, bytes_ab = r->bytes_ab;
    r->da = (const __nv_bfloat16 **)calloc((size_t)nsets, sizeof *r->da);
    r->db = (const __nv_bfloat16 **)calloc((size_t)nsets, sizeof *r->db);
    r->dd = (__nv_bfloat16 **)calloc((size_t)nsets, sizeof *r->dd);
    for (int s = 0; s < nsets; ++s) {
        __nv_bfloat16 *p = NULL;
        CUDA_CHECK(cudaMalloc((void **)&p, r->d_offset + r->bytes_d));
        if (s == 0) {
            CUDA_CHECK(cudaMemcpy(p, r->ha, sizeof(__nv_bfloat16) * na, cudaMemcpyHostToDevice));
            CUDA_CHECK(cudaMemcpy(p + na, r->hb, sizeof(__nv_bfloat16) * nb, cudaMemcpyHostToDevice));
        } else {
            CUDA_CHECK(cudaMemcpy(p, r->da[0], bytes_ab, cudaMemcpyDeviceToDevice));
        }
        r->da[s] = p;
        r->db[s] = p + na;   /* na*2 bytes = M*K*2, a multiple of 16 since K % 8 == 0 */
        r->dd[s] = (__nv_bfloat16 *)((char *)p + r->d_offset);   /* 256-byte aligned */
    }
    r->d = r->dd[0];
    CUDA_CHECK(cudaMalloc((void **)&r->dref, r->bytes_d));
}

/* ---- a step with a menu (step 10): --config, --explain, the tuning cache ------
 * Before the first plan: --config's name becomes its index on the menu (a
 * name not on it: exit 2), --explain prints the model's reasons, and the
 * tuning cache (tune_cache.h) may name the candidate to run: not with
 * --no-cache, nor when --config or --mode forces the choice.  --tune
 * (below) stores its winner there. */
static int gemm_menu_config(const gemm_run *r)
{
    const gemm_menu *menu = r->step->menu;
    if (!r->o.config) return -1;
    for (int c = 0; c < menu->configs; ++c)
        if (strcmp(r->o.config, menu->config_name(c)) == 0) return c;
    fprintf(stderr, "--config: '%s' is not on the menu (", r->o.config);
    for (int c = 0; c < menu->configs; ++c) fprintf(stderr, "%s%s", c ? ", " : "", menu->config_name(c));
    fprintf(stderr, ")\n");
    exit(EXIT_BAD_ARGS);
}

/* The cache's key for this run: GPU, SMs, CUDA runtime, menu, build, shape. */
static void gemm_tune_key(const gemm_run *r, char *key, size_t len)
{
    const gemm_menu *menu = r->step->menu;
    const char *names[16];   /* gemm_launch knows 16 configurations at most */
    int n = 0, rt = 0;
    for (; n < menu->configs && n < 16; ++n) names[n] = menu->config_name(n);
    CUDA_CHECK(cudaRuntimeGetVersion(&rt));
    char cuda[16];
    snprintf(cuda, sizeof cuda, "%d", rt);
    tune_cache_key(key, len, r->di.prop.name, r->di.num_sms, cuda, tune_cache_menu_hash(names, n), GIT_REV,
                   r->o.m, r->o.n, r->o.k);
}

/* The cached candidate for this shape, or -1 (a refused line says why). */
static int gemm_tune_cached(const gemm_run *r)
{
    const gemm_menu *menu = r->step->menu;
    char key[768], cand[128], msg[256] = "";
    gemm_tune_key(r, key, sizeof key);
    const int rc = tune_cache_lookup(r->tune_cache, key, cand, sizeof cand, msg, sizeof msg);
    if (msg[0]) fprintf(stderr, "tuning cache: refused: %s\n", msg);
    if (rc != TUNE_CACHE_HIT) return -1;
    const int n = menu->candidates(&r->ops[0], 0, NULL, 0);
    for (int i = 0; i < n; ++i) {
        char name[64];
        menu->candidates(&r->ops[0], i, name, sizeof name);
        if (strcmp(name, cand) == 0) return i;
    }
    fprintf(stderr, "tuning cache: refused: %s names '%s', not a candidate here; the model decides\n",
            r->tune_cache, cand);
    return -1;
}

/* --tune's winner, into the cache (unless --no-cache). */
static void gemm_tune_store(const gemm_run *r, int winner)
{
    char key[768], name[64], msg[256];
    r->step->menu->candidates(&r->ops[0], winner, name, sizeof name);
    gemm_tune_key(r, key, sizeof key);
    if (r->o.no_cache) printf("tune: winner %s (--no-cache: not stored)\n", name);
    else if (tune_cache_store(r->tune_cache, key, name, msg, sizeof msg) == 0)
        printf("tune: winner %s, stored in %s\n", name, r->tune_cache);
    else fprintf(stderr, "%s\n", msg);
}

/* Who chooses what the plans run, and the CSV's chooser column: forced,
 * the cache or the step's model (--tune, later, overrides it). */
static void gemm_menu_open(gemm_run *r)
{
    const gemm_menu *menu = r->step->menu;
    if (!menu) return;
    const int forced = r->o.config || r->o.mode != GEMM_MODE_AUTO;
    const int config = gemm_menu_config(r);
    for (int s = 0; s < r->rot.nsets; ++s) r->ops[s].config = config;
    if (r->o.explain) menu->explain(&r->ops[0]);
    const int cached = forced || r->o.no_cache ? -1 : gemm_tune_cached(r);
    for (int s = 0; s < r->rot.nsets; ++s) r->ops[s].candidate = cached;
    r->report.chooser = forced ? "forced" : cached >= 0 ? "cache" : "model";
}

/* The step's view of each set (gemm_operands), its plans (step->prepare)
 * and its workspace. */
static void gemm_alloc_operands(gemm_run *r)
{
    const gemm_step *step = r->step;
    const args_options *o = &r->o;
    const int nsets = r->rot.nsets;
    const gemm_report defaults = {"course", 1, "", "", NULL, o->stages};
    r->report = defaults;
    r->ops = (gemm_operands *)calloc((size_t)nsets, sizeof *r->ops);
    for (int s = 0; s < nsets; ++s) {
        gemm_operands *op = &r->ops[s];
        op->report = &r->report;
        op->m = o->m; op->n = o->n; op->k = o->k;
        op->a = r->da[s]; op->b = r->db[s]; op->d = r->dd[s];
        op->stages = o->stages; op->num_sms = r->di.num_sms;
        op->smem_optin = (int)r->di.prop.sharedMemPerBlockOptin; op->group = o->group;
        op->l2_bytes = r->di.prop.l2CacheSize; op->dram_gbs = r->di.dram_gbs;
        op->trace = trace_disabled(); op->plant_bug = o->plant_bug;
        op->launch = step->launch_desc;
        op->mode = o->mode;
        op->config = -1; op->candidate = -1;
    }
    gemm_menu_open(r);
    for (int s = 0; s < nsets; ++s) r->ops[s].plan = step->prepare ? step->prepare(&r->ops[s]) : NULL;
    /* One workspace for the whole run, zeroed once (gemm.cuh). */
    r->workspace_bytes = step->workspace_bytes ? step->workspace_bytes(&r->ops[0]) : 0;
    if (r->workspace_bytes) {
        CUDA_CHECK(cudaMalloc(&r->workspace, r->workspace_bytes));
        CUDA_CHECK(cudaMemset(r->workspace, 0, r->workspace_bytes));
    }
    for (int s = 0; s < nsets; ++s) {
        r->ops[s].workspace = r->workspace;
        r->ops[s].workspace_bytes = r->workspace_bytes;
    }
}

/* Phase: allocate.  Refuses (exit 2) a shape whose inputs do not fit before
 * allocating anything. */
static int gemm_alloc(gemm_run *r)
{
    int rc = gemm_alloc_plan(r);
    if (!rc) rc = gemm_alloc_host(r);
    if (rc) return rc;
    gemm_alloc_device(r);
    gemm_alloc_operands(r);
    CUBLAS_CHECK(cublasCreate(&r->handle));
    return EXIT_OK;
}

/* The checked launches: D and cuBLAS's D poisoned, one launch of each on
 * set 0, both copied back to the host. */
static void gemm_check_launch(gemm_run *r)
{
    const size_t bytes_d = r->bytes_d;
    CUDA_CHECK(cudaMemset(r->d, 0xFF, bytes_d));      /* poison: 0xFFFF is a bf16 NaN */
    CUDA_CHECK(cudaMemset(r->dref, 0xFF, bytes_d));
    gemm_launch_step(r->step, &r->ops[0], 0);
    CUDA_CHECK_LAUNCH();
    sync_or_die(&r->di, "step kernel");
    cublas_gemm(r->handle, r->da[0], r->db[0], r->dref, r->o.m, r->o.n, r->o.k, 0);
    sync_or_die(&r->di, "cuBLAS");
    CUDA_CHECK(cudaMemcpy(r->hd, r->d, bytes_d, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(r->hr, r->dref, bytes_d, cudaMemcpyDeviceToHost));
}

/* Exact mode: every output equal to cuBLAS's, bit for bit. */
static int gemm_check_exact(const gemm_run *r)
{
    const __nv_bfloat16 *hd = r->hd, *hr = r->hr;
    const size_t nd = r->nd, N = (size_t)r->o.n;
    size_t diff = 0, first_diff = 0;
    for (size_t i = 0; i < nd; ++i)
        if (memcmp(&hd[i], &hr[i], sizeof hd[i]) != 0) { if (!diff) first_diff = i; ++diff; }
    if (diff) {
        fprintf(stderr, "check FAILED (exact mode): %zu of %zu outputs differ from cuBLAS; first at "
                "row %zu col %zu: got %g, cuBLAS %g\n", diff, nd, first_diff / N, first_diff % N,
                (double)__bfloat162float(hd[first_diff]), (double)__bfloat162float(hr[first_diff]));
        return EXIT_WRONG;
    }
    return EXIT_OK;
}

/* Phase: check, on set 0 (skipped with --no-check: the errors stay NAN). */
static int gemm_check(gemm_run *r)
{
    r->err_ref = NAN;
    r->err_host = NAN;
    r->host_checked = 0;
    if (r->o.no_check) return EXIT_OK;
    gemm_check_launch(r);
    size_t nonfinite = 0, first = 0;
    r->err_ref = gemm_rel_err(r->hd, r->hr, r->nd, &nonfinite, &first);
    if (nonfinite) {
        fprintf(stderr, "check FAILED: %zu of %zu outputs are NaN/Inf (never written, or overflow); "
                "first at row %zu col %zu\n", nonfinite, r->nd, first / (size_t)r->o.n,
                first % (size_t)r->o.n);
        return EXIT_WRONG;
    }
    if (r->o.exact && gemm_check_exact(r)) return EXIT_WRONG;
    if (!(r->err_ref < 1e-2)) {
        fprintf(stderr, "check FAILED: relative Frobenius error vs cuBLAS %.3e (limit 1e-2)\n", r->err_ref);
        return EXIT_WRONG;
    }
    r->err_host = gemm_host_check(r->ha, r->hb, r->hd, r->o.m, r->o.n, r->o.k, r->o.seed ^ 0x5eedull,
                                  &r->host_checked);
    if (!(r->err_host < 1e-2)) {
        fprintf(stderr, "check FAILED: relative error vs the float64 host reference %.3e over %zu "
                "elements (limit 1e-2)\n", r->err_host, r->host_checked);
        return EXIT_WRONG;
    }
    return EXIT_OK;
}

/* Times a against b interleaved (harness.cuh), with the run's rotation sets
 * and, where they are too few, an L2 flush before every launch; --iters or
 * ~2 ms per side.  Returns the launches per side. */
static int gemm_time_pair(const gemm_run *r, launch_thunk a, void *actx, launch_thunk b, void *bctx,
                          float *ms_a, float *ms_b)
{
    const args_options *o = &r->o;
    l2_flush_ctx flush;
    memset(&flush, 0, sizeof flush);
    if (r->rot.flush) l2_flush_alloc(&flush, &r->di);
    launch_thunk between = r->rot.flush ? l2_flush_thunk : NULL;
    const int iters = o->iters ? o->iters : gemm_auto_iters(a, actx, b, bctx, between, &flush, o->warmup);
    time_interleaved_between(a, actx, b, bctx, between, &flush, o->iters ? o->warmup : 2, iters, ms_a, ms_b);
    l2_flush_free(&flush);
    return iters;
}

/* Phase: time.  Interleaved with cuBLAS; --ref-vs-ref puts cuBLAS in the
 * step's place (the same path through the sets and their D buffers): the
 * A/A test. */
static void gemm_time(gemm_run *r)
{
    const args_options *o = &r->o;
    const int M = o->m, N = o->n, K = o->k, nsets = r->rot.nsets;
    gemm_step_thunk_ctx sc = {r->step, r->ops, nsets};
    cublas_thunk_ctx cc = {r->handle, r->da, r->db, r->dd, M, N, K, nsets};
    launch_thunk first = o->ref_vs_ref ? cublas_thunk : gemm_step_thunk;
    void *first_ctx = o->ref_vs_ref ? (void *)&cc : (void *)&sc;
    r->iters = gemm_time_pair(r, first, first_ctx, cublas_thunk, &cc, &r->ms, &r->ms_ref);
    r->clock = sm_clock_mhz(&r->di);
    sync_or_die(&r->di, "timed launches");
    const double flops = 2.0 * M * (double)N * K;
    r->tflops = flops / (r->ms * 1e-3) / 1e12;
    r->ref_tflops = flops / (r->ms_ref * 1e-3) / 1e12;
    r->gbps = (r->bytes_ab + (double)r->bytes_d) / (r->ms * 1e-3) / 1e9;
}

/* ---- --tune: a step with a menu (step 10) ------------------------------------
 * Every candidate the step lists (configuration x plan) is timed against
 * cuBLAS in turn, each launch interleaved with cuBLAS's as in gemm_time, and
 * ranked by its ratio (cuBLAS's time in the same pairs divides out drift in
 * the clock between candidates).  The best two then go through TUNE_ROUNDS
 * more rounds, again against cuBLAS, the two in alternating order, and the
 * lower median time of its own wins: the run goes on with it (check, time,
 * record) and the tuning cache keeps it.
 * Why its own time there and not the ratio: a candidate can slow cuBLAS
 * beside it.  At 8192x4096x4096 cuBLAS ran 0.3956 ms beside 128x128/sk and
 * 0.3753 ms beside /dp, so /sk ranked first on the ratio (1.031 against
 * 1.024) while its own time was 4.7% longer (0.3837 against 0.3664 ms), and
 * the run that followed read 0.911 (log: step10_autotune/experiments/logs/
 * tune_rounds/bench_a2e7505_tune.log).  Alternated, drift cancels out. */
#define TUNE_ROUNDS 3

static void gemm_replan(const gemm_run *r, gemm_operands *ops, int candidate)
{
    for (int s = 0; s < r->rot.nsets; ++s) {
        if (ops[s].plan && r->step->release) r->step->release(ops[s].plan);
        ops[s].candidate = candidate;
        ops[s].plan = r->step->prepare(&ops[s]);
    }
}

static void gemm_tune_name(const gemm_run *r, int i, char *buf, size_t len)
{
    r->step->menu->candidates(&r->ops[0], i, buf, len);
}

/* One candidate against cuBLAS: its ratio (cuBLAS's time / its time). */
static float gemm_tune_ratio(gemm_run *r, int candidate, float *ms)
{
    const args_options *o = &r->o;
    cublas_thunk_ctx cc = {r->handle, r->da, r->db, r->dd, o->m, o->n, o->k, r->rot.nsets};
    gemm_replan(r, r->ops, candidate);
    gemm_step_thunk_ctx sc = {r->step, r->ops, r->rot.nsets};
    float ms_ref = 0;
    gemm_time_pair(r, gemm_step_thunk, &sc, cublas_thunk, &cc, ms, &ms_ref);
    sync_or_die(&r->di, "tuning launches");
    return ms_ref / *ms;
}

/* The best two, TUNE_ROUNDS more rounds each; returns the one whose median
 * time is lower. */
static int gemm_tune_final(gemm_run *r, int a, int b)
{
    float ta[TUNE_ROUNDS], tb[TUNE_ROUNDS], ra = 0, rb = 0;
    char na[64], nb[64];
    gemm_tune_name(r, a, na, sizeof na);
    gemm_tune_name(r, b, nb, sizeof nb);
    printf("tune: the best two, %d rounds (ms, ratio):", TUNE_ROUNDS);
    for (int i = 0; i < TUNE_ROUNDS; ++i) {
        const int a_first = i % 2 == 0;   /* neither always runs first */
        if (a_first) ra = gemm_tune_ratio(r, a, &ta[i]);
        rb = gemm_tune_ratio(r, b, &tb[i]);
        if (!a_first) ra = gemm_tune_ratio(r, a, &ta[i]);
        printf(" %s %.4f %.3f, %s %.4f %.3f%s", na, ta[i], ra, nb, tb[i], rb, i + 1 < TUNE_ROUNDS ? ";" : "\n");
    }
    const float ma = median_of(ta, TUNE_ROUNDS), mb = median_of(tb, TUNE_ROUNDS);
    printf("tune: head to head, median time: %s %.4f ms, %s %.4f ms\n", na, ma, nb, mb);
    return mb < ma ? b : a;
}

/* Phase: tune (--tune only). */
static void gemm_tune(gemm_run *r)
{
    const gemm_menu *menu = r->step->menu;
    if (!r->o.tune || !menu) return;
    const int n = menu->candidates(&r->ops[0], 0, NULL, 0);
    int best = -1, second = -1;
    float best_ratio = 0, second_ratio = 0;
    for (int i = 0; i < n; ++i) {
        float ms = 0;
        const float ratio = gemm_tune_ratio(r, i, &ms);
        char name[64];
        gemm_tune_name(r, i, name, sizeof name);
        printf("tune: %-16s %.4f ms | cuBLAS %.4f ms | ratio %.3f\n", name, ms, ms * ratio, ratio);
        if (ratio > best_ratio) {
            second = best; second_ratio = best_ratio;
            best = i; best_ratio = ratio;
        } else if (ratio > second_ratio) {
            second = i; second_ratio = ratio;
        }
    }
    const int winner = second >= 0 ? gemm_tune_final(r, best, second) : best;
    gemm_replan(r, r->ops, winner);
    r->report.chooser = "tune";
    gemm_tune_store(r, winner);
}

/* Phase: report, the summary line (and how the timing was taken). */
static void gemm_print(const gemm_run *r)
{
    const args_options *o = &r->o;
    printf("step%s %s: %dx%dx%d stages=%d: %.4f ms %.1f TFLOP/s | cuBLAS %.4f ms %.1f TFLOP/s | ratio %.3f | "
           "SM clock %.0f MHz | ",
           r->step->step, o->ref_vs_ref ? "A/A (cuBLAS in the step's place)" : r->step->name, o->m, o->n,
           o->k, r->report.stages, r->ms, r->tflops, r->ms_ref, r->ref_tflops, r->tflops / r->ref_tflops, r->clock);
    if (o->no_check) printf("check skipped (--no-check)\n");
    else printf("check ok%s: rel err %.2e vs cuBLAS, %.2e vs float64 on %zu elements\n",
                o->exact ? " (exact, bit for bit)" : "", r->err_ref, r->err_host, r->host_checked);
    printf("  timing: %d launches each, interleaved; %d input sets taken in launch order%s\n",
           r->iters, r->rot.nsets, r->rot.flush ? ", L2 flushed before every launch" : "");
    if (r->report.config && r->report.config[0])
        printf("  configuration: %s, plan %s, chosen by %s\n", r->report.config, r->report.mode,
               r->report.chooser ? r->report.chooser : "the step");
}

/* Phase: trace, one traced launch, never timed (--trace only). */
static int gemm_trace(gemm_run *r)
{
    if (!r->o.trace) return EXIT_OK;
    const gemm_step *step = r->step;
    trace_host th;
    memset(&th, 0, sizeof th);
    /* CTA 0 and the last CTA of the first wave: they run side by side. */
    trace_alloc(&th, step->trace_units, 4096, -r->di.num_sms);
    r->ops[0].trace = th.ctx;
    gemm_launch_step(step, &r->ops[0], 0);
    CUDA_CHECK_LAUNCH();
    sync_or_die(&r->di, "traced launch");
    r->ops[0].trace = trace_disabled();
    const int rc = trace_write(&th, r->o.trace, step->trace_unit_kind, step->step);
    trace_free(&th);
    return rc;
}

/* Phase: record, the CSV row (--csv only). */
static int gemm_record(const gemm_run *r)
{
    const args_options *o = &r->o;
    const gemm_step *step = r->step;
    if (!o->csv) return EXIT_OK;
    csv_row row;
    row_store st;
    char variant[96];
    memset(&row, 0, sizeof row);
    snprintf(variant, sizeof variant, "%s%s", o->variant ? o->variant : step->variant,
             o->exact ? "+exact" : "");
    row.step = step->step;
    row.variant = variant;
    row.m = o->m; row.n = o->n; row.k = o->k;
    row.n_elems = -1; row.work = -1; row.stages = r->report.stages;
    row.ms_median = r->ms; row.tflops = r->tflops; row.gbps = r->gbps;
    row.ref_name = "cublas"; row.ref_value = r->ref_tflops; row.ratio_to_ref = r->tflops / r->ref_tflops;
    row.rel_err = r->err_ref;
    row.impl = o->ref_vs_ref ? "aa" : r->report.impl;
    row.cluster = r->report.cluster; row.mode = r->report.mode;
    row.harness = "fair";
    /* Who chose what ran: a forced --mode overrides the step's own choice. */
    row.chooser = r->report.chooser ? r->report.chooser : o->mode == GEMM_MODE_AUTO ? "default" : "forced";
    row.config = r->report.config;
    row.group = step->has_group ? o->group : 0;   /* 0: empty, no tile scheduler */
    row.repeat = o->repeat;
    row_fill_env(&row, &r->di, &st, r->clock);
    return row_write(o->csv, &row);
}

/* Phase: release, in the reverse order of allocation. */
static void gemm_release(gemm_run *r)
{
    for (int s = 0; s < r->rot.nsets; ++s) {
        if (r->step->release && r->ops[s].plan) r->step->release(r->ops[s].plan);
        CUDA_CHECK(cudaFree((void *)r->da[s]));
    }
    CUDA_CHECK(cudaFree(r->dref));
    if (r->workspace) CUDA_CHECK(cudaFree(r->workspace));
    CUBLAS_CHECK(cublasDestroy(r->handle));
    free(r->ops); free(r->da); free(r->db); free(r->dd); free(r->ha); free(r->hb); free(r->hd); free(r->hr);
}

static int gemm_main(int argc, char **argv, const gemm_step *step)
{
    gemm_run r;
    int rc = gemm_open(&r, argc, argv, step);
    if (!rc) rc = gemm_alloc(&r);
    if (rc) return rc;
    gemm_tune(&r);
    rc = gemm_check(&r);
    if (rc) return rc;
    gemm_time(&r);
    gemm_print(&r);
    rc = gemm_trace(&r);
    if (!rc) rc = gemm_record(&r);
    if (rc) return rc;
    gemm_release(&r);
    return EXIT_OK;
}

#endif
