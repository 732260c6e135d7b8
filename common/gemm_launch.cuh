/* gemm_launch.cuh — the host glue every TMA/WGMMA step shares (steps 05+).
 *
 * A step's kernel takes ONE parameter, the step's own kernel_params struct
 * (tensor maps included), as const __grid_constant__.  The step describes
 * its kernel once, in a gemm_launch_desc with designated initializers:
 *
 *   static const gemm_launch_desc LAUNCH = {
 *       .step = STEP_ID,
 *       .kernel = (const void *)pingpong_kernel,
 *       .kernel_traced = (const void *)pingpong_kernel_traced,
 *       .threads = THREADS,
 *       .smem = SMEM_CONFIG,            // smem_layout.h: the one layout
 *       .min_stages = MIN_STAGES,
 *       .cluster = 1,                   // CTAs per cluster (x); 0 or 1: none
 *   };
 *   gemm_step: .launch_desc = &LAUNCH; the harness passes it on as op->launch.
 *
 * and writes two short host functions that fill its kernel_params from these
 * pieces:
 *   prepare (once per input set, before timing):
 *     gemm_plan_alloc(bytes, STEP_ID)       128-byte aligned heap plan (tensor maps)
 *     gemm_encode_ab(&P->map_a, &P->map_b, op, a_rows, bn, bk)
 *                                           A's and B's maps (exit 2/3 on failure)
 *     gemm_encode_d(&P->map_d, op, rows, cols)
 *                                           D's map for a TMA-store epilogue, if N allows
 *     gemm_persistent_sched(op, bm, bn)     the grouped raster, direction by shape
 *     gemm_persistent_grid(&LAUNCH, op, tiles)
 *                                           min(tiles, resident CTAs): #SMs, or
 *                                           cudaOccupancyMaxActiveClusters x
 *                                           cluster when clustered
 *   launch (every launch): stamp the per-launch fields (trace, plant_bug),
 *     gemm_launch(&LAUNCH, op, grid, &P, stream);
 *       - the first call checks --stages against the device's opt-in limit
 *         (exit 2 if fewer stages would fit, 3 if none) and opts both kernels
 *         in to the largest ring that fits, so the timed loop pays nothing;
 *       - picks the traced kernel when the harness asked for a trace
 *         (TRACE_ON(op->trace)), else the timed one: both take the same struct;
 *       - asks for smem_layout_of(.smem, op->stages).total bytes;
 *       - cluster <= 1 and no cooperative flag: cudaLaunchKernel, exactly what
 *         <<<grid, threads, smem, stream>>> compiles to (plain stays plain);
 *         otherwise cudaLaunchKernelExC with cudaLaunchAttributeClusterDimension
 *         {cluster, 1, 1} (grid rounded by the caller to a multiple of it)
 *         and/or cudaLaunchAttributeCooperative, from gemm_launch_config
 *         (the one place a configuration with attributes is built).
 *   release: gemm_plan_free (or the step's own, when its plan owns device memory).
 *
 * What the harness provides for stream-K and other cross-CTA protocols
 * (gemm_operands, filled by gemm_main):
 *   op->workspace, op->workspace_bytes
 *       device memory of step->workspace_bytes(op) bytes, allocated and zeroed
 *       ONCE per run (not per launch), shared by every rotation set and
 *       launch.  A kernel that needs it clean per launch must not rely on a
 *       memset between launches: use the epoch.
 *   op->epoch
 *       1, 2, 3 ... : the harness increments it before every launch of the
 *       step (checked, timed and traced alike).  Flags written as "epoch of
 *       the launch that set me" need no reset: a flag from an earlier launch
 *       simply holds a smaller number (0 = never written).
 *
 * C style on purpose: one struct, plain functions, no templates.  The kernel
 * pointer is `const void *`, the type cudaLaunchKernel takes. */
#ifndef COMMON_GEMM_LAUNCH_CUH
#define COMMON_GEMM_LAUNCH_CUH

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda.h>
#include <cuda_runtime.h>

#include "smem_layout.h"
#include "persistent_schedule.h"
#include "tma.h"

struct gemm_launch_desc {
    const char *step;            /* STEP_ID, for messages */
    const void *kernel;          /* the timed kernel */
    const void *kernel_traced;   /* the same parameters, with trace code */
    int threads;                 /* per CTA */
    smem_config smem;            /* the step's shared-memory layout (stages at run time) */
    int min_stages;              /* the smallest ring the protocol works with */
    int cluster;                 /* CTAs per cluster along x; 0 or 1: no cluster */
    int cooperative;             /* 1: launch with cudaLaunchAttributeCooperative */
};

/* The largest --stages this device holds (at most `cap`), from the layout. */
static int gemm_stages_that_fit(const gemm_launch_desc *l, int smem_optin, int cap)
{
    return smem_layout_stages_that_fit(l->smem, smem_optin, cap);
}

/* Heap memory for a step's plan, 128-byte aligned (the driver wants a
 * 64-byte aligned CUtensorMap), zeroed. */
static void *gemm_plan_alloc(size_t bytes, const char *step)
{
    const size_t rounded = (bytes + 127) & ~(size_t)127;   /* aligned_alloc wants a multiple */
    void *p = aligned_alloc(128, rounded);
    if (!p) {
        fprintf(stderr, "step%s: out of host memory\n", step);
        exit(EXIT_WRONG);
    }
    memset(p, 0, rounded);
    return p;
}

static void gemm_plan_free(void *plan)
{
    free(plan);
}

/* Encode a 2-D bf16 tensor map or exit: 2 when the shape cannot be described
 * (tma.c says why), 3 when the driver entry point is missing. */
static void tma_encode_or_exit(CUtensorMap *map, const tma_2d_desc *d, const char *step,
                               const char *what)
{
    char msg[320];   /* room for tma.c's longest message; longer ones are cut, never overrun */
    const int rc = tma_encode_2d_bf16(map, d, msg, sizeof msg);
    if (rc == TMA_OK) return;
    fprintf(stderr, "step%s: cannot describe %s to TMA: %s\n", step, what, msg);
    exit(rc == TMA_ERR_DRIVER ? EXIT_NO_DEVICE : EXIT_BAD_ARGS);
}

/* Once per process: the stage check (gemm.cuh's gemm_require_stages, with
 * this layout's sizes) and the dynamic-smem opt-in (above 48 KiB a kernel
 * must opt in), for the largest ring this device holds. */
static void gemm_launch_setup(const gemm_launch_desc *l, const gemm_operands *op)
{
    const int fit = gemm_stages_that_fit(l, op->smem_optin, SMEM_LAYOUT_MAX_STAGES);
    gemm_require_stages(l->step, op->stages, op->smem_optin, l->min_stages, fit,
                        smem_layout_of(l->smem, op->stages).total,
                        smem_layout_of(l->smem, l->min_stages).total);
    const int bytes = (int)smem_layout_of(l->smem, fit).total;
    CUDA_CHECK(cudaFuncSetAttribute(l->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    CUDA_CHECK(cudaFuncSetAttribute(l->kernel_traced, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    bytes));
}

/* The launch configuration of every launch that needs attributes: the
 * clustered or cooperative GEMM (gemm_launch), the occupancy query of a
 * clustered grid (gemm_persistent_grid) and cluster_walk_table's probe
 * (cluster_launch.cuh) ask the same question, so they describe it the same
 * way.  cluster > 1 adds cudaLaunchAttributeClusterDimension {cluster, 1, 1}
 * (the grid must be a multiple of it), cooperative adds
 * cudaLaunchAttributeCooperative, in that order.  The attributes live in the
 * caller's `attrs`, which must outlive the launch. */
static cudaLaunchConfig_t gemm_launch_config(cudaLaunchAttribute attrs[2], int grid, int threads,
                                             size_t smem, int cluster, int cooperative,
                                             cudaStream_t stream)
{
    cudaLaunchConfig_t cfg = {};   /* every field zero: no attributes, stream 0 */
    unsigned n = 0;
    cfg.gridDim = dim3((unsigned)grid, 1, 1);
    cfg.blockDim = dim3((unsigned)threads, 1, 1);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = stream;
    if (cluster > 1) {
        attrs[n].id = cudaLaunchAttributeClusterDimension;
        attrs[n].val.clusterDim.x = (unsigned)cluster;
        attrs[n].val.clusterDim.y = 1;
        attrs[n].val.clusterDim.z = 1;
        ++n;
    }
    if (cooperative) {
        attrs[n].id = cudaLaunchAttributeCooperative;
        attrs[n].val.cooperative = 1;
        ++n;
    }
    cfg.attrs = attrs;
    cfg.numAttrs = n;
    return cfg;
}

/* CTAs of a persistent grid: one per resident slot, or fewer when there are
 * fewer tiles.  Unclustered: one CTA per SM (the steps use all of an SM's
 * shared memory).  Clustered: the clusters that can be co-resident
 * (cudaOccupancyMaxActiveClusters at the largest ring) times the cluster
 * size, and the tile count rounded up to whole clusters. */
static int gemm_persistent_grid(const gemm_launch_desc *l, const gemm_operands *op, int tiles)
{
    const int cluster = l->cluster > 1 ? l->cluster : 1;
    if (cluster == 1) return tiles < op->num_sms ? tiles : op->num_sms;
    gemm_launch_setup(l, op);   /* the query needs the opt-in already made */
    cudaLaunchAttribute attr[2];
    const cudaLaunchConfig_t cfg =
        gemm_launch_config(attr, op->num_sms / cluster * cluster, l->threads,
                           smem_layout_of(l->smem, op->stages).total, cluster, 0, 0);
    int clusters = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, l->kernel, &cfg));
    if (clusters < 1) {
        fprintf(stderr, "step%s: no cluster of %d CTAs fits on this device\n", l->step, cluster);
        exit(EXIT_NO_DEVICE);
    }
    const int whole = (tiles + cluster - 1) / cluster * cluster;
    return whole < clusters * cluster ? whole : clusters * cluster;
}

/* The A and B maps every TMA step uses.  A[M][K]: boxes of bk k x a_rows
 * rows (bm, or a cluster CTA's share of it: step 08); B[N][K]: bk k x bn
 * rows; both SWIZZLE_128B, the layout wgmma_desc_k_major_sw128 describes. */
static void gemm_encode_ab(CUtensorMap *a, CUtensorMap *b, const gemm_operands *op, int a_rows,
                           int bn, int bk)
{
    const char *step = op->launch->step;
    const tma_2d_desc da = tma_2d_bf16_row_major(op->a, (uint64_t)op->m, (uint64_t)op->k, a_rows,
                                                 bk, TMA_SWIZZLE_128B);
    const tma_2d_desc db = tma_2d_bf16_row_major(op->b, (uint64_t)op->n, (uint64_t)op->k, bn, bk,
                                                 TMA_SWIZZLE_128B);
    tma_encode_or_exit(a, &da, step, "A");
    tma_encode_or_exit(b, &db, step, "B");
}

/* D's map for the TMA-store epilogue (steps 06+): rows x cols boxes in the
 * same 128B swizzle the epilogue writes.  A tensor map needs 16-byte row
 * strides, N % 8 == 0; otherwise the epilogue stores from registers, the map
 * stays unused (zeros) and this returns 0. */
static int gemm_encode_d(CUtensorMap *d, const gemm_operands *op, int rows, int cols)
{
    if (op->n % 8 != 0) return 0;
    const tma_2d_desc dd = tma_2d_bf16_row_major(op->d, (uint64_t)op->m, (uint64_t)op->n, rows,
                                                 cols, TMA_SWIZZLE_128B);
    tma_encode_or_exit(d, &dd, op->launch->step, "D");
    return 1;
}

/* The persistent steps' raster (persistent_schedule.h) over bm x bn tiles,
 * its direction picked from the tiles whose loads run at the same time: one
 * per CTA (step 07's two warpgroups take their tiles' k-tiles one after the
 * other, so still one per SM). */
static tile_sched gemm_persistent_sched(const gemm_operands *op, int bm, int bn)
{
    const int tiles_m = (op->m + bm - 1) / bm, tiles_n = (op->n + bn - 1) / bn;
    const int along_n = tile_sched_pick_along_n(tiles_m, tiles_n, bm, bn, op->group, op->num_sms);
    return tile_sched_make(op->m, op->n, bm, bn, op->group, along_n);
}

/* Enqueue one launch of the step (see the top of this file): the kernel's
 * one parameter is the step's kernel_params struct at `params`. */
static void gemm_launch(const gemm_launch_desc *l, const gemm_operands *op, int grid,
                        const void *params, cudaStream_t stream)
{
    void *args[] = {(void *)params};
    /* The kernels already set up (their shared-memory opt-in is per kernel): one
     * per step, one per configuration of step 10's menu (whose --tune alternates
     * between them).  Keyed by the kernel, not the descriptor: a step may launch
     * through a copy it rewrites (step 10's `whole`, its kernels not cooperative). */
    static const void *ready[16];
    int known = 0;
    while (known < 16 && ready[known] && ready[known] != l->kernel) ++known;
    if (known == 16 || !ready[known]) {
        gemm_launch_setup(l, op);
        if (known < 16) ready[known] = l->kernel;
    }
    const void *kernel = TRACE_ON(op->trace) ? l->kernel_traced : l->kernel;
    const size_t smem = smem_layout_of(l->smem, op->stages).total;
    if (l->cluster <= 1 && !l->cooperative) {
        CUDA_CHECK(cudaLaunchKernel(kernel, dim3((unsigned)grid), dim3((unsigned)l->threads), args,
                                    smem, stream));
    } else {
        cudaLaunchAttribute attr[2];
        const cudaLaunchConfig_t cfg =
            gemm_launch_config(attr, grid, l->threads, smem, l->cluster, l->cooperative, stream);
        CUDA_CHECK(cudaLaunchKernelExC(&cfg, kernel, args));
    }
    CUDA_CHECK_LAUNCH();
}

#endif
