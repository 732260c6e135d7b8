/* gemm.cuh — the GEMM half of the harness, used unchanged by steps 04 and up.
 *
 *   D[M×N] = A[M×K] · B[N×K]ᵀ     bf16 in, fp32 accumulate, bf16 out
 *   A, B, D row-major: K contiguous in A and B, N contiguous in D.
 *
 * In cuBLAS's column-major terms this is the "TN" case: D is computed as
 * Dᵀ = B·Aᵀ with op(B) = T, op(A) = N.  A step provides a launch function
 * (and optionally a per-buffer `prepare`, e.g. to build TMA tensor maps before
 * timing starts); gemm_main does the rest:
 *   - refuses bad shapes (exit 2) and devices that cannot run the step (exit 3);
 *   - checks that A, B, D (and the rotation sets) fit in device memory before
 *     allocating anything;
 *   - random inputs from --seed (never zeros), or with --exact inputs in
 *     {-1,0,1} with K <= 256 so every dot product is exact in bf16 and the
 *     result must equal cuBLAS bit for bit;
 *   - poisons D (0xFFFF = bf16 NaN) before each checked run, so an element the
 *     kernel never wrote fails;
 *   - relative Frobenius error against cuBLAS (< 1e-2) and, when M·N·K is
 *     small, against a float64 host reference; any NaN or Inf fails;
 *   - times the step and cuBLAS interleaved (harness.cuh: each round in a
 *     random order, behind a hold so the host is never timed), on sets of A,
 *     B and D taken in launch order, enough of them that no launch finds its
 *     inputs in L2 (or with an L2 flush before every launch where that many
 *     do not fit: rotation.h), ~2 ms of launches per side unless --iters says
 *     otherwise; --ref-vs-ref times cuBLAS against itself the same way (the
 *     A/A test, tests/harness_aa.sh);
 *   - prints a summary line and appends a CSV row. */
#ifndef COMMON_GEMM_CUH
#define COMMON_GEMM_CUH

#include <cuda_bf16.h>
#include <cublas_v2.h>

#include "harness.cuh"

/* What the CSV row records about the configuration a run used, beyond the
 * flags: the harness sets the defaults, a step's prepare may overwrite them
 * (through op->report) with what it actually launched. */
typedef struct {
    const char *impl;         /* "course" (default); "cutlass" for peers/ */
    int cluster;              /* CTAs per cluster, default 1 */
    const char *mode;         /* stream-K mode actually run, default "" (does not apply) */
    const char *config;       /* step 10: the menu configuration that ran; default "" */
    const char *chooser;      /* step 10: who chose it (model, cache, tune, forced); NULL: the
                               * harness says default, or forced when --mode was given */
    int stages;               /* the ring that ran: --stages, or step 10's choice when 0 */
} gemm_report;

typedef struct gemm_operands gemm_operands;   /* below */

/* A step with a menu of configurations (step 10).  The harness checks
 * --config against the menu, prints --explain, reads the tuning cache
 * (tune_cache.h) and, with --tune, times the candidates one by one and
 * stores the winner; it hands the step a candidate through
 * gemm_operands.candidate, or leaves the choice to the step's model. */
typedef struct {
    int configs;                                   /* configurations on the menu */
    const char *(*config_name)(int c);             /* "128x128": what --config names */
    /* how many (configuration, plan) candidates at these operands; with buf,
     * candidate i's name ("128x128/dp") */
    int (*candidates)(const gemm_operands *op, int i, char *buf, size_t len);
    void (*explain)(const gemm_operands *op);      /* --explain: the model's reasons, once per run */
} gemm_menu;

/* A TMA step's launch descriptor (common/gemm_launch.cuh). */
typedef struct gemm_launch_desc gemm_launch_desc;

struct gemm_operands {
    int m, n, k;
    const __nv_bfloat16 *a;   /* [m][k] */
    const __nv_bfloat16 *b;   /* [n][k] */
    __nv_bfloat16 *d;         /* [m][n] */
    int stages;               /* --stages */
    int num_sms;              /* for persistent grids */
    int smem_optin;           /* shared memory one CTA may opt in to, bytes (device attribute) */
    int l2_bytes;             /* L2 size, bytes (device attribute) */
    double dram_gbs;          /* memory bandwidth, GB/s (device_info) */
    int group;                /* --group: tile-scheduler group size (steps 06-09) */
    void *plan;               /* what step->prepare built for these buffers, or NULL */
    trace_ctx trace;          /* tracing off unless --trace (recs == NULL) */
    int plant_bug;            /* DEBUG builds: --plant-bug, else 0 */
    gemm_report *report;      /* one per run, shared by all sets: see gemm_report */
    /* For cross-CTA protocols (stream-K partials and flags; gemm_launch.cuh):
     * step->workspace_bytes(op) bytes of device memory, allocated and zeroed
     * once per run, and the number of this launch (1, 2, 3 ...), which the
     * harness increments before every launch of the step. */
    void *workspace;          /* NULL when the step asks for none */
    size_t workspace_bytes;
    unsigned epoch;
    const gemm_launch_desc *launch;   /* step->launch_desc (steps 05+), or NULL */
    int mode;                 /* --mode: GEMM_MODE_AUTO, _DP or _SK (steps 09, 10) */
    /* Step 10's chooser (a step with a gemm_menu): */
    int config;               /* --config: its index in the menu; -1: none */
    int candidate;            /* -1: the step chooses; i >= 0: run candidate i (--tune's, the cache's) */
};

typedef struct {
    const char *step;         /* "04" */
    const char *name;         /* "cpasync_multistage" */
    const char *summary;      /* one line for --help */
    const char *variant;      /* default CSV variant label, e.g. "128x128x32" */
    int min_stages, max_stages, default_stages;
    device_need need;         /* capability the step's code needs */
    /* Optional: build per-buffer state (tensor maps) before anything is
     * timed; returns a pointer stored in gemm_operands.plan.  May exit(2)
     * with a message if the shape cannot be described. */
    void *(*prepare)(const gemm_operands *op);
    void (*release)(void *plan);
    /* Enqueue one GEMM on `stream`.  Must check its launch (the harness
     * also checks cudaGetLastError after it). */
    void (*launch)(const gemm_operands *op, cudaStream_t stream);
    /* Timeline units per CTA (warps or warpgroups) and their kind. */
    int trace_units;
    const char *trace_unit_kind;
    /* 1: the step has a tile scheduler and takes --group (steps 06-09). */
    int has_group;
    /* Optional: device workspace the step's kernels share across CTAs, in
     * bytes for these operands (0 or NULL: none). */
    size_t (*workspace_bytes)(const gemm_operands *op);
    /* Steps 05+: the kernel and its launch (gemm_launch.cuh); the harness
     * hands it to prepare and launch in gemm_operands.launch.  NULL in step
     * 10: one per configuration, which the step hands on itself. */
    const gemm_launch_desc *launch_desc;
    /* 1: the step has a stream-K schedule and takes --mode (step 09). */
    int has_mode;
    /* Bit b set: the step plants bug b in DEBUG builds (debug.cuh); 0: none. */
    unsigned plant_bugs;
    /* Step 10: its menu (--config, --explain, --tune, --no-cache); NULL: one configuration. */
    const gemm_menu *menu;
} gemm_step;

static int gemm_main(int argc, char **argv, const gemm_step *step);

/* The one stage check of the GEMM steps: step 04 calls it from its launch,
 * steps 05+ through gemm_launch_setup (gemm_launch.cuh).  The --stages range
 * is compiled for the H100/H200's 227 KiB per CTA; the device the step runs
 * on may allow less (cudaDevAttrMaxSharedMemoryPerBlockOptin: smem_optin).
 * `fit` is the most stages it holds; `bytes_stages` and `bytes_min` are the
 * shared memory of the requested ring and of the smallest (min_stages), the
 * two sizes the messages name.  Returns if `stages` fits; otherwise exits 2
 * when a smaller --stages would fit, 3 when none does. */
static void gemm_require_stages(const char *step, int stages, int smem_optin, int min_stages, int fit,
                                size_t bytes_stages, size_t bytes_min)
{
    if (stages <= fit) return;
    if (fit >= min_stages) {
        fprintf(stderr, "--stages: %d stages need %zu bytes of shared memory; this device allows %d "
                "per block: use --stages %d or fewer\n", stages, bytes_stages, smem_optin, fit);
        exit(EXIT_BAD_ARGS);
    }
    fprintf(stderr, "step%s: this device allows %d bytes of shared memory per block; the smallest "
            "ring (%d stages) needs %zu\n", step, smem_optin, min_stages, bytes_min);
    exit(EXIT_NO_DEVICE);
}

#include "gemm_launch.cuh"
#include "gemm_impl.cuh"

#endif
