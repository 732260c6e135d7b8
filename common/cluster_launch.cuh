/* cluster_launch.cuh — the host glue a persistent GEMM in clusters adds to
 * gemm_launch.cuh's (steps 08-09): the walk start of each cluster, numbered
 * to fit where the hardware places clusters.
 *
 * A clustered step's prepare (see step08_cluster_multicast/kernel.cu) fills
 * its kernel_params with gemm_launch.cuh's pieces, plus:
 *   - an A box of bm / cluster rows: each CTA loads its share of the tile's
 *     A and multicasts it (the B and D maps are the same);
 *   - a cluster_sched (cluster_schedule.h): cluster tiles of
 *     bm x cluster*bn, rastered across the cluster;
 *   - the grid in whole clusters (gemm_persistent_grid with l->cluster);
 *   - P->walk_start = cluster_walk_table(&LAUNCH, op, grid): device memory
 *     that the step's release frees (step 10 keeps the starts in its
 *     kernel_params instead: cluster_walk_params);
 *   - op->report->cluster = the cluster size (the CSV's cluster column). */
#ifndef COMMON_CLUSTER_LAUNCH_CUH
#define COMMON_CLUSTER_LAUNCH_CUH

#include <cuda.h>
#include <cuda_runtime.h>

#include "cluster.cuh"
#include "cuda_check.h"
#include "gemm.cuh"
#include "cluster_schedule.h"
#include "gemm_launch.cuh"
#include "tma.h"

/* ---- host: number the clusters to fit the placement ---------------------------
 * A cluster launch puts consecutive clusters on different GPCs (and so on
 * different halves of the L2); a plain launch fills one GPC after another
 * (step08_cluster_multicast/NOTES.md).  The tile scheduler gives consecutive
 * work indices shared panels, so each cluster's walk start should follow
 * the plain launch's order.  cluster_walk_starts measures both placements
 * with a probe kernel of the same block size and shared memory (one CTA per
 * SM, as in the GEMM) and fills start[], on the host, with the walk start
 * of each of the grid / cluster clusters: the rank of its rank-0 SM in the
 * plain order (cluster_walk_rank, cluster_schedule.h); cluster_walk_table
 * returns the same in device memory (cudaFree it).  Two tiny
 * launches, once per plan.  Any permutation computes the same product, so
 * a placement that changed between the probe and the GEMM would cost speed,
 * never correctness; with more SMs than the probe handles the table is the
 * identity (start = cluster id). */
#define CLUSTER_PROBE_MAX_SMS 1024

static __global__ void cluster_probe_sm_of_cta(int *smid)
{
    if (threadIdx.x == 0) smid[blockIdx.x] = (int)sm_id();
}

static void cluster_walk_starts(const gemm_launch_desc *l, const gemm_operands *op, int grid,
                                int *start)
{
    const int threads = l->threads, cluster = l->cluster > 1 ? l->cluster : 1, num_sms = op->num_sms;
    const size_t smem = smem_layout_of(l->smem, op->stages).total;
    static int plain[CLUSTER_PROBE_MAX_SMS], clustered[CLUSTER_PROBE_MAX_SMS];
    static int pos[CLUSTER_PROBE_MAX_SMS], keys[CLUSTER_PROBE_MAX_SMS];
    const int clusters = grid / cluster;
    int *d = NULL;
    CUDA_CHECK(cudaMalloc((void **)&d, 2 * CLUSTER_PROBE_MAX_SMS * sizeof(int)));
    /* -1 (no SM) wherever the probes write nothing: the copies back read
     * initialized memory, and a missing entry reads as "not placed". */
    CUDA_CHECK(cudaMemset(d, 0xff, 2 * CLUSTER_PROBE_MAX_SMS * sizeof(int)));
    for (int c = 0; c < clusters; ++c) keys[c] = c;
    if (num_sms <= CLUSTER_PROBE_MAX_SMS && grid <= num_sms) {
        CUDA_CHECK(cudaFuncSetAttribute((const void *)cluster_probe_sm_of_cta,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        cluster_probe_sm_of_cta<<<num_sms, threads, smem>>>(d);   /* the plain order */
        CUDA_CHECK_LAUNCH();
        cudaLaunchAttribute attr[2];   /* the GEMM's own configuration (gemm_launch.cuh) */
        const cudaLaunchConfig_t cfg = gemm_launch_config(attr, grid, threads, smem, cluster, 0, 0);
        CUDA_CHECK(cudaLaunchKernelEx(&cfg, cluster_probe_sm_of_cta, d + CLUSTER_PROBE_MAX_SMS));
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(plain, d, num_sms * sizeof(int), cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(clustered, d + CLUSTER_PROBE_MAX_SMS, grid * sizeof(int),
                              cudaMemcpyDeviceToHost));
        for (int s = 0; s < CLUSTER_PROBE_MAX_SMS; ++s) pos[s] = CLUSTER_PROBE_MAX_SMS;
        for (int b = 0; b < num_sms; ++b)
            if (plain[b] >= 0 && plain[b] < CLUSTER_PROBE_MAX_SMS) pos[plain[b]] = b;
        for (int c = 0; c < clusters; ++c) {
            const int sm = clustered[c * cluster];
            keys[c] = sm >= 0 && sm < CLUSTER_PROBE_MAX_SMS ? pos[sm] : CLUSTER_PROBE_MAX_SMS + c;
        }
    }
    for (int c = 0; c < clusters; ++c) start[c] = cluster_walk_rank(keys, clusters, c);
    CUDA_CHECK(cudaFree(d));
}

/* The same walk starts in device memory (steps 08, 09), which the step's
 * release frees. */
static int *cluster_walk_table(const gemm_launch_desc *l, const gemm_operands *op, int grid)
{
    static int start[CLUSTER_PROBE_MAX_SMS];
    const size_t bytes = (size_t)(grid / (l->cluster > 1 ? l->cluster : 1)) * sizeof(int);
    int *d = NULL;
    cluster_walk_starts(l, op, grid, start);
    CUDA_CHECK(cudaMalloc((void **)&d, bytes));
    CUDA_CHECK(cudaMemcpy(d, start, bytes, cudaMemcpyHostToDevice));
    return d;
}

/* The same walk starts into an array of the step's kernel_params (step 10: no
 * global load at the walk's start), `cap` entries.  A grid beyond the probe's
 * reach or the array exits 3: no GPU has that many SMs yet. */
static void cluster_walk_params(const gemm_launch_desc *l, const gemm_operands *op, int grid, uint16_t *out,
                                int cap)
{
    static int start[CLUSTER_PROBE_MAX_SMS];
    const int clusters = grid / (l->cluster > 1 ? l->cluster : 1);
    if (grid > CLUSTER_PROBE_MAX_SMS || clusters > cap) {
        fprintf(stderr, "step %s: a grid of %d CTAs is more than the walk table holds (%d clusters)\n", l->step,
                grid, cap);
        exit(EXIT_NO_DEVICE);
    }
    cluster_walk_starts(l, op, grid, start);
    for (int c = 0; c < clusters; ++c) out[c] = (uint16_t)start[c];
}

#endif
