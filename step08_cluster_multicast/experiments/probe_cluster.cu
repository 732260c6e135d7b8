/* probe_cluster.cu — facts step 08 rests on, measured on the device.
 *
 *   1. placement: %smid of every CTA of a 384-thread kernel with ~220 KB of
 *      dynamic shared memory (one CTA per SM), launched plain and as
 *      clusters of 1, 2, 4, 8 (and 16, non-portable), grid = what
 *      cudaOccupancyMaxActiveClusters allows; start time of each CTA.
 *      The cluster launches of 8 and 16 also reveal which SMs share a GPC
 *      (a cluster never spans GPCs).
 *   2. L2 side of each SM: latency of an L2 hit (ld.global.cg, one thread,
 *      SMs one after the other) for 96 addresses; an H100's L2 has two
 *      partitions and an SM reaches the far one through a fabric, so each
 *      address is "near" for one set of SMs and "far" for the rest.
 *   3. remote mbarrier arrive: default semantics vs .release.cluster, as a
 *      stream of arrives, with a global store before each, and as a
 *      round trip between the two CTAs of a cluster.
 *
 * Build: nvcc -O3 -std=c++17 -Icommon -gencode=arch=compute_90a,code=sm_90a \
 *          step08_cluster_multicast/experiments/probe_cluster.cu -o build/probe_cluster
 * Run:   build/probe_cluster > probe_cluster.log   (plain text, one section per fact)
 * Exit codes (the course's): 0 done; 1 a CUDA call failed; 2 an argument was
 * given (it takes none); 3 no device of compute capability 9.0 (the code is
 * sm_90a only, and clusters need 9.0). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "cluster.cuh"
#include "mbarrier.cuh"

#define CK(x)                                                                            \
    do {                                                                                 \
        cudaError_t e_ = (x);                                                            \
        if (e_ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

#define THREADS 384
#define SMEM (220 * 1024)

static __device__ __forceinline__ uint64_t now_ns(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* ---- 1. placement ------------------------------------------------------------ */
typedef struct {
    int smid, rank, cluster;
    unsigned long long t0, t1;
} place_rec;

__global__ void __launch_bounds__(THREADS, 1) placement_kernel(place_rec *out, uint64_t hold_ns)
{
    extern __shared__ unsigned char smem[];
    if (threadIdx.x == 0) {
        const uint64_t t0 = now_ns();
        smem[0] = 1;   /* touch */
        place_rec r;
        r.smid = (int)sm_id();
        r.rank = (int)cluster_ctarank();
        r.cluster = (int)cluster_id_x();
        r.t0 = t0;
        while (now_ns() - t0 < hold_ns) { }   /* stay resident: all CTAs overlap */
        r.t1 = now_ns();
        out[blockIdx.x] = r;
    }
}

static int g_policy_lb = 0;   /* 1: cudaClusterSchedulingPolicyLoadBalancing */

static cudaLaunchConfig_t config(int grid, int cluster, cudaLaunchAttribute *attr)
{
    cudaLaunchConfig_t c;
    memset(&c, 0, sizeof c);
    c.gridDim = dim3((unsigned)grid);
    c.blockDim = dim3(THREADS);
    c.dynamicSmemBytes = SMEM;
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = (unsigned)cluster;
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    c.attrs = attr;
    c.numAttrs = 1;
    if (g_policy_lb) {
        attr[1].id = cudaLaunchAttributeClusterSchedulingPolicyPreference;
        attr[1].val.clusterSchedulingPolicyPreference = cudaClusterSchedulingPolicyLoadBalancing;
        c.numAttrs = 2;
    }
    return c;
}

static int max_clusters(int cluster)
{
    cudaLaunchAttribute a[2];
    cudaLaunchConfig_t c = config(132 * 8, cluster, a);
    int n = -1;
    cudaError_t e = cudaOccupancyMaxActiveClusters(&n, (void *)placement_kernel, &c);
    if (e != cudaSuccess) {
        printf("# cudaOccupancyMaxActiveClusters(cluster %d): %s\n", cluster, cudaGetErrorString(e));
        (void)cudaGetLastError();
        return -1;
    }
    return n;
}

/* mode 0: plain <<<>>>; otherwise cluster launch of that size. */
static void placement(int mode, int grid, int sms, int *gpc_of_sm)
{
    place_rec *d, *h = (place_rec *)calloc((size_t)grid, sizeof *h);
    CK(cudaMalloc(&d, (size_t)grid * sizeof *d));
    for (int rep = 0; rep < 2; ++rep) {   /* twice: is the placement repeatable? */
        CK(cudaMemset(d, 0xff, (size_t)grid * sizeof *d));
        if (mode == 0) {
            placement_kernel<<<grid, THREADS, SMEM>>>(d, 200000);
        } else {
            cudaLaunchAttribute a[2];
            cudaLaunchConfig_t c = config(grid, mode, a);
            CK(cudaLaunchKernelEx(&c, placement_kernel, d, (uint64_t)200000));
        }
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(h, d, (size_t)grid * sizeof *h, cudaMemcpyDeviceToHost));
        unsigned long long t_min = ~0ull, t1_min = ~0ull;
        for (int b = 0; b < grid; ++b) {
            if (h[b].t0 < t_min) t_min = h[b].t0;
            if (h[b].t1 < t1_min) t1_min = h[b].t1;
        }
        printf("placement %s%d%s rep %d grid %d\n", mode ? "cluster" : "plain", mode, g_policy_lb ? "lb" : "",
               rep, grid);
        printf("  smid by cta:");
        for (int b = 0; b < grid; ++b) printf(" %d", h[b].smid);
        printf("\n  rank by cta:");
        for (int b = 0; b < grid; ++b) printf(" %d", h[b].rank);
        printf("\n  start us by cta:");
        int late = 0;
        for (int b = 0; b < grid; ++b) {
            printf(" %.1f", (h[b].t0 - t_min) * 1e-3);
            if (h[b].t0 >= t1_min) ++late;   /* started after some CTA had finished */
        }
        printf("\n  ctas that started after the first one finished (not co-resident): %d\n", late);
        int used[1024] = {0}, dup = 0;
        for (int b = 0; b < grid; ++b)
            if (h[b].smid >= 0 && h[b].smid < 1024 && used[h[b].smid]++) ++dup;
        printf("  distinct SMs %d of %d (duplicates %d)\n", grid - dup, sms, dup);
        /* GPC discovery: CTAs of one cluster share a GPC (union-find over SMs). */
        if (gpc_of_sm && mode >= 2)
            for (int b = 0; b < grid; ++b) {
                const int first = (b / mode) * mode;
                int x = h[b].smid, y = h[first].smid;
                while (gpc_of_sm[x] != x) x = gpc_of_sm[x];
                while (gpc_of_sm[y] != y) y = gpc_of_sm[y];
                if (x != y) gpc_of_sm[x < y ? y : x] = x < y ? x : y;
            }
    }
    CK(cudaFree(d));
    free(h);
}

/* ---- 2. L2 near / far --------------------------------------------------------- */
#define L2_LINES 96
#define L2_STRIDE_WORDS (17 * 32)   /* 2176 bytes: mixes the address bits that pick a slice */
#define CHASE 32

static __device__ __forceinline__ uint32_t ld_cg(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__global__ void l2_latency_kernel(const uint32_t *buf, int *ticket, int *smid_of, uint32_t *cyc)
{
    if (threadIdx.x != 0) return;
    /* one CTA at a time, so no SM competes with another for the same line */
    while (atomicAdd(ticket, 0) != (int)blockIdx.x) { }
    smid_of[blockIdx.x] = (int)sm_id();
    for (int j = 0; j < L2_LINES; ++j) {
        uint32_t idx = (uint32_t)(j * L2_STRIDE_WORDS);
        idx = ld_cg(buf + idx);   /* warm: the line is in L2 (near copy too) */
        idx = ld_cg(buf + idx);
        const long long c0 = clock64();
        for (int i = 0; i < CHASE; ++i) idx = ld_cg(buf + idx);   /* dependent: latency */
        const long long c1 = clock64();
        cyc[blockIdx.x * L2_LINES + j] = (uint32_t)((c1 - c0) / CHASE) + (idx == 0xffffffffu);
    }
    __threadfence();
    atomicAdd(ticket, 1);
}

static void l2_sides(int sms)
{
    const size_t words = (size_t)L2_LINES * L2_STRIDE_WORDS + 32;
    uint32_t *h = (uint32_t *)calloc(words, 4), *d;
    for (int j = 0; j < L2_LINES; ++j) h[(size_t)j * L2_STRIDE_WORDS] = (uint32_t)(j * L2_STRIDE_WORDS);
    CK(cudaMalloc(&d, words * 4));
    CK(cudaMemcpy(d, h, words * 4, cudaMemcpyHostToDevice));
    int *ticket, *smid_of;
    uint32_t *cyc;
    CK(cudaMalloc(&ticket, 4));
    CK(cudaMalloc(&smid_of, sms * 4));
    CK(cudaMalloc(&cyc, (size_t)sms * L2_LINES * 4));
    CK(cudaMemset(ticket, 0, 4));
    l2_latency_kernel<<<sms, 32>>>(d, ticket, smid_of, cyc);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    int *hs = (int *)malloc(sms * 4);
    uint32_t *hc = (uint32_t *)malloc((size_t)sms * L2_LINES * 4);
    CK(cudaMemcpy(hs, smid_of, sms * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hc, cyc, (size_t)sms * L2_LINES * 4, cudaMemcpyDeviceToHost));
    printf("l2 latency (cycles per dependent ld.global.cg hit), one row per SM, %d addresses %d bytes apart\n",
           L2_LINES, L2_STRIDE_WORDS * 4);
    for (int b = 0; b < sms; ++b) {
        printf("  sm %3d:", hs[b]);
        for (int j = 0; j < L2_LINES; ++j) printf(" %u", hc[b * L2_LINES + j]);
        printf("\n");
    }
    CK(cudaFree(d));
    CK(cudaFree(ticket));
    CK(cudaFree(smid_of));
    CK(cudaFree(cyc));
    free(h);
    free(hs);
    free(hc);
}

/* ---- 3. remote arrive: default vs .release.cluster -------------------------- */
#define ARRIVES 2048
enum { FORM_LOCAL = 0, FORM_DEFAULT = 1, FORM_RELEASE_CLUSTER = 2 };

static __device__ __forceinline__ void arrive_form(uint64_t *bar, uint32_t rank, int form)
{
    if (form == FORM_LOCAL) mbar_arrive(bar);
    else if (form == FORM_DEFAULT) mbar_arrive_cluster(bar, rank);
    else mbar_arrive_release_cluster(bar, rank);
}

/* test 0: rank 0 issues ARRIVES arrives on rank 1's barrier (rank 0's own for
 *         FORM_LOCAL); cycles per issue, and ns until the last one landed.
 * test 1: the same with a st.global before each arrive (a consumer whose
 *         earlier stores are still in flight).
 * test 2: round trip: rank 0 arrives on rank 1's bar, waits on its own;
 *         rank 1 the reverse; cycles per round. */
__global__ void __cluster_dims__(2, 1, 1) arrive_kernel(int form, int test, long long *res, int *sink)
{
    __shared__ __align__(8) uint64_t bar[2];
    const uint32_t rank = cluster_ctarank(), peer = rank ^ 1u;
    if (threadIdx.x == 0) {
        mbar_init(&bar[0], test == 2 ? 1 : ARRIVES);
        mbar_init(&bar[1], 1);
        fence_mbarrier_init_cluster();
    }
    __syncthreads();
    cluster_arrive_relaxed();
    cluster_wait();
    if (threadIdx.x == 0) {
        const uint32_t target = form == FORM_LOCAL ? rank : peer;
        if (test < 2) {
            if (rank == 0) {
                const uint64_t t0 = now_ns();
                const long long c0 = clock64();
                for (int i = 0; i < ARRIVES; ++i) {
                    if (test == 1) sink[(blockIdx.x * ARRIVES + i) * 32] = i;
                    arrive_form(&bar[0], target, form);
                }
                const long long c1 = clock64();
                res[0] = (c1 - c0) / ARRIVES;
                if (form == FORM_LOCAL) {
                    while (!mbar_try_wait(&bar[0], 0)) { }
                    res[1] = (long long)(now_ns() - t0);
                    mbar_arrive_cluster(&bar[1], peer);   /* let rank 1 go */
                } else {
                    res[2] = (long long)t0;
                }
            } else {
                if (form == FORM_LOCAL) {
                    while (!mbar_try_wait(&bar[1], 0)) { }
                } else {
                    while (!mbar_try_wait(&bar[0], 0)) { }
                    res[3] = (long long)now_ns();
                }
            }
        } else {
            const int rounds = 1000;
            const long long c0 = clock64();
            uint32_t ph = 0;
            for (int i = 0; i < rounds; ++i) {
                if (rank == 0) {
                    arrive_form(&bar[0], peer, form);
                    while (!mbar_try_wait(&bar[0], ph)) { }
                } else {
                    while (!mbar_try_wait(&bar[0], ph)) { }
                    arrive_form(&bar[0], peer, form);
                }
                ph ^= 1u;
            }
            const long long c1 = clock64();
            if (rank == 0) res[0] = (c1 - c0) / rounds;
        }
    }
    cluster_arrive();   /* nobody leaves while the peer may still arrive on its barrier */
    cluster_wait();
}

static void arrive_bench(void)
{
    long long *d, h[4];
    int *sink;
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMalloc(&sink, (size_t)2 * ARRIVES * 32 * 4));
    static const char *form_name[] = {"local (shared::cta)", "remote, default semantics",
                                      "remote, .release.cluster"};
    static const char *test_name[] = {"stream of arrives", "st.global + arrive",
                                      "round trip (arrive, wait)"};
    printf("remote arrive (clusters of 2, thread 0 of each CTA; median of 5 launches)\n");
    for (int test = 0; test < 3; ++test)
        for (int form = 0; form < 3; ++form) {
            if (test == 2 && form == FORM_LOCAL) continue;
            long long cyc[5], lat[5];
            for (int r = 0; r < 5; ++r) {
                CK(cudaMemset(d, 0, sizeof h));
                arrive_kernel<<<2, 32>>>(form, test, d, sink);
                CK(cudaGetLastError());
                CK(cudaDeviceSynchronize());
                CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
                cyc[r] = h[0];
                lat[r] = form == FORM_LOCAL ? h[1] : h[3] - h[2];
            }
            for (int i = 0; i < 5; ++i)   /* sort both for the median */
                for (int j = i + 1; j < 5; ++j) {
                    if (cyc[j] < cyc[i]) { long long t = cyc[i]; cyc[i] = cyc[j]; cyc[j] = t; }
                    if (lat[j] < lat[i]) { long long t = lat[i]; lat[i] = lat[j]; lat[j] = t; }
                }
            if (test < 2)
                printf("  %-28s %-27s %5lld cycles per arrive issued, all %d landed after %.2f us\n",
                       test_name[test], form_name[form], cyc[2], ARRIVES, lat[2] * 1e-3);
            else
                printf("  %-28s %-27s %5lld cycles per round trip\n", test_name[test], form_name[form],
                       cyc[2]);
        }
    CK(cudaFree(d));
    CK(cudaFree(sink));
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        int help = strcmp(argv[1], "--help") == 0;
        fprintf(help ? stdout : stderr, "usage: %s   (no arguments; the facts go to stdout)\n", argv[0]);
        return help ? 0 : 2;
    }
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        fprintf(stderr, "no CUDA device available (%s): this probe needs a GPU of compute capability 9.0\n",
                e == cudaSuccess ? "device count is 0" : cudaGetErrorString(e));
        return 3;
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    if (p.major != 9 || p.minor != 0) {
        fprintf(stderr, "device 0 (%s) has compute capability %d.%d; this probe is built for sm_90a "
                "(clusters, distributed shared memory) and needs exactly 9.0\n", p.name, p.major, p.minor);
        return 3;
    }
    const int sms = p.multiProcessorCount;
    printf("device %s, %d SMs, L2 %d MB\n", p.name, sms, p.l2CacheSize >> 20);
    CK(cudaFuncSetAttribute(placement_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    CK(cudaFuncSetAttribute(placement_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    int n[17] = {0};
    printf("cudaOccupancyMaxActiveClusters, %d threads, %d bytes dynamic smem:", THREADS, SMEM);
    for (int c = 1; c <= 16; c *= 2) {
        n[c] = max_clusters(c);
        printf("  cluster %d: %d (%d CTAs)", c, n[c], n[c] * c);
    }
    printf("\n");
    int *gpc = (int *)malloc(1024 * sizeof(int));
    for (int i = 0; i < 1024; ++i) gpc[i] = i;
    placement(0, sms, sms, NULL);
    for (int c = 1; c <= 16; c *= 2)
        if (n[c] > 0) placement(c, n[c] * c, sms, gpc);
    printf("gpc (smallest SM id of the union of clusters of 2..16) by sm:");
    for (int s = 0; s < sms; ++s) {
        int x = s;
        while (gpc[x] != x) x = gpc[x];
        printf(" %d", x);
    }
    printf("\n");
    g_policy_lb = 1;   /* the other cluster scheduling policy */
    for (int c = 1; c <= 2; c *= 2)
        if (n[c] > 0) placement(c, n[c] * c, sms, NULL);
    g_policy_lb = 0;
    l2_sides(sms);
    arrive_bench();
    return 0;
}
