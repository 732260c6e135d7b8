/* cluster_launch.cuh — the host glue of a persistent GEMM in clusters (step 08).
 *
 * gemm_launch.cuh's persistent plan and launch (steps 06-07), for clusters of
 * l->cluster CTAs side by side along N that share A by TMA multicast:
 *
 *   static const gemm_launch_desc LAUNCH = { ..., .cluster = 2, .bm = BM, ... };
 *   gemm_step: .prepare = gemm_cluster_prepare, .release = gemm_cluster_release,
 *              .launch = gemm_cluster_launch, .launch_desc = &LAUNCH
 *
 * The kernel takes (map_a, map_b, map_d, D, M, N, K, stages,
 * gemm_cluster_params, trace_ctx, plant_bug), as the persistent kernels do
 * with gemm_params.  What differs from gemm_persistent_prepare:
 *   - the A map's box is bm / cluster rows: each CTA loads its share of the
 *     tile's A and multicasts it (the B and D maps are the same);
 *   - the schedule is a cluster_sched (tile_scheduler.h): cluster tiles of
 *     bm x cluster*bn, rastered across the cluster;
 *   - the grid is whole clusters (gemm_persistent_grid with l->cluster), and
 *     each cluster's walk start comes from the placement (cluster_walk_table,
 *     below), in device memory that gemm_cluster_release frees;
 *   - the CSV's cluster column says l->cluster (op->report);
 *   - a traced launch records CTAs 0 and 1: the two CTAs of one cluster.
 * Step 09 (stream-K on clusters) can start from these three functions. */
#ifndef COMMON_CLUSTER_LAUNCH_CUH
#define COMMON_CLUSTER_LAUNCH_CUH

#include <cuda.h>
#include <cuda_runtime.h>

#include "cluster.cuh"
#include "cuda_check.h"
#include "gemm.cuh"
#include "tile_scheduler.h"
#include "tma.h"

/* ---- host: number the clusters to fit the placement ---------------------------
 * A cluster launch puts consecutive clusters on different GPCs (and so on
 * different halves of the L2); a plain launch fills one GPC after another
 * (step08_cluster_multicast/NOTES.md).  The tile scheduler gives consecutive
 * work indices shared panels, so each cluster's walk start should follow
 * the plain launch's order.  cluster_walk_table measures both placements
 * with a probe kernel of the same block size and shared memory (one CTA per
 * SM, as in the GEMM) and returns, in device memory (cudaFree it), the walk
 * start of each of the grid / cluster clusters: the rank of its rank-0 SM
 * in the plain order (cluster_walk_rank, tile_scheduler.h).  Two tiny
 * launches, once per plan.  Any permutation computes the same product, so
 * a placement that changed between the probe and the GEMM would cost speed,
 * never correctness; with more SMs than the probe handles the table is the
 * identity (start = cluster id). */
#define CLUSTER_PROBE_MAX_SMS 1024

static __global__ void cluster_probe_sm_of_cta(int *smid)
{
    if (threadIdx.x == 0) smid[blockIdx.x] = (int)sm_id();
}

static int *cluster_walk_table(int threads, size_t smem, int cluster, int grid, int num_sms)
{
    static int plain[CLUSTER_PROBE_MAX_SMS], clustered[CLUSTER_PROBE_MAX_SMS];
    static int pos[CLUSTER_PROBE_MAX_SMS], keys[CLUSTER_PROBE_MAX_SMS], start[CLUSTER_PROBE_MAX_SMS];
    const int clusters = grid / cluster;
    int *d = NULL;
    CUDA_CHECK(cudaMalloc((void **)&d, 2 * CLUSTER_PROBE_MAX_SMS * sizeof(int)));
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
    CUDA_CHECK(cudaMemcpy(d, start, clusters * sizeof(int), cudaMemcpyHostToDevice));
    return d;
}

/* What the kernel needs to know about the tile walk. */
typedef struct {
    cluster_sched sched;     /* cluster tiles; rank r of a cluster takes tile r */
    const int *walk_start;   /* device memory: each cluster's first work index */
    int use_tma_store;       /* 1: N % 8 == 0 (16-byte D rows), 0: masked global stores */
} gemm_cluster_params;

/* What prepare builds once per buffer set: three tensor maps and the walk. */
typedef struct {
    CUtensorMap a, b, d;
    gemm_cluster_params params;
    int grid;
} gemm_cluster_plan;

static void *gemm_cluster_prepare(const gemm_operands *op)
{
    const gemm_launch_desc *l = op->launch;
    const int cluster = l->cluster > 1 ? l->cluster : 1;
    gemm_cluster_plan *p = (gemm_cluster_plan *)gemm_plan_alloc(sizeof *p, l->step);
    /* A's boxes are this CTA's share of the tile's rows (bm / cluster: 64
     * rows = 8 whole swizzle atoms for the course's 128), multicast to both. */
    gemm_encode_ab(&p->a, &p->b, op, l->bm / cluster);
    p->params.use_tma_store = gemm_encode_d(&p->d, op);
    p->params.sched = cluster_sched_make(op->m, op->n, l->bm, l->bn, cluster, 1, op->group,
                                         op->num_sms / cluster);
    p->grid = gemm_persistent_grid(l, op, p->params.sched.sched.num_tiles * cluster);
    p->params.walk_start = cluster_walk_table(l->threads, smem_layout_of(l->smem, op->stages).total,
                                              cluster, p->grid, op->num_sms);
    op->report->cluster = cluster;
    return p;
}

static void gemm_cluster_release(void *plan)
{
    CUDA_CHECK(cudaFree((void *)((gemm_cluster_plan *)plan)->params.walk_start));
    gemm_plan_free(plan);
}

static void gemm_cluster_launch(const gemm_operands *op, cudaStream_t stream)
{
    gemm_cluster_plan *p = (gemm_cluster_plan *)op->plan;
    trace_ctx tr = op->trace;
    tr.cta_b = 1;   /* a timeline shows the two CTAs of cluster 0 */
    void *args[] = {&p->a, &p->b, &p->d, (void *)&op->d, (void *)&op->m, (void *)&op->n,
                    (void *)&op->k, (void *)&op->stages, &p->params, (void *)&tr,
                    (void *)&op->plant_bug};
    gemm_launch(op->launch, op, p->grid, args, stream);
}

#endif
