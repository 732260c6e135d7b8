/* repeat_check.cu — is step 09's output bitwise identical from run to run?
 *
 * The fixup adds partials in a fixed (k) order, so it must be; a reduction in
 * arrival order (atomics) would not be.  This program builds step 09's
 * kernel.cu with its main renamed, launches the GEMM R times on the same
 * inputs (random, the harness's generator) and compares every launch's D
 * with the first, byte for byte.  It also reports the stream-K plan.
 *
 *   nvcc -O3 -std=c++17 -Icommon -gencode=arch=compute_90a,code=sm_90a \
 *        step09_stream_k/experiments/repeat_check.cu build/common/{args,csv,tma}.o \
 *        -lcublas -lcudart -ldl -o build/step09_repeat_check
 *   build/step09_repeat_check M N K MODE(0 auto, 1 dp, 2 sk) RUNS
 * Exit 0: all identical; 1: a run differed (the first differing element is
 * printed). */
#define main step09_main
#include "../kernel.cu"
#undef main

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: %s M N K MODE RUNS\n", argv[0]);
        return 2;
    }
    const int M = atoi(argv[1]), N = atoi(argv[2]), K = atoi(argv[3]), mode = atoi(argv[4]);
    const int runs = atoi(argv[5]);
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    const size_t na = (size_t)M * K, nb = (size_t)N * K, nd = (size_t)M * N;
    __nv_bfloat16 *h = (__nv_bfloat16 *)malloc(sizeof(__nv_bfloat16) * (na + nb));
    uint64_t seed = 1234;
    gemm_fill(h, na + nb, &seed, 0);
    __nv_bfloat16 *a, *d;
    CUDA_CHECK(cudaMalloc((void **)&a, sizeof(__nv_bfloat16) * (na + nb)));
    CUDA_CHECK(cudaMalloc((void **)&d, sizeof(__nv_bfloat16) * nd));
    CUDA_CHECK(cudaMemcpy(a, h, sizeof(__nv_bfloat16) * (na + nb), cudaMemcpyHostToDevice));
    gemm_operands op;
    memset(&op, 0, sizeof op);
    op.m = M; op.n = N; op.k = K;
    op.a = a; op.b = a + na; op.d = d;
    op.stages = DEFAULT_STAGES; op.num_sms = prop.multiProcessorCount;
    op.smem_optin = (int)prop.sharedMemPerBlockOptin; op.group = GEMM_DEFAULT_GROUP;
    op.trace = trace_disabled(); op.mode = mode;
    gemm_report report = {"course", 1, ""};
    op.report = &report;
    op.launch = &LAUNCH;
    op.plan = stream_k_prepare(&op);
    /* the harness's part: one zeroed workspace, a launch number per launch */
    op.workspace_bytes = stream_k_workspace_bytes(&op);
    if (op.workspace_bytes) {
        CUDA_CHECK(cudaMalloc(&op.workspace, op.workspace_bytes));
        CUDA_CHECK(cudaMemset(op.workspace, 0, op.workspace_bytes));
    }
    unsigned short *first = (unsigned short *)malloc(sizeof(unsigned short) * nd);
    unsigned short *got = (unsigned short *)malloc(sizeof(unsigned short) * nd);
    int bad = 0;
    for (int r = 0; r < runs && !bad; ++r) {
        CUDA_CHECK(cudaMemset(d, 0xFF, sizeof(__nv_bfloat16) * nd));   /* NaN poison */
        op.epoch = (unsigned)r + 1;
        stream_k_launch(&op, 0);
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaMemcpy(r ? got : first, d, sizeof(unsigned short) * nd, cudaMemcpyDeviceToHost));
        if (r == 0) continue;
        for (size_t i = 0; i < nd; ++i)
            if (got[i] != first[i]) {
                printf("run %d differs from run 0 at row %zu col %zu: 0x%04x vs 0x%04x\n", r,
                       i / (size_t)N, i % (size_t)N, got[i], first[i]);
                bad = 1;
                break;
            }
    }
    size_t nan = 0;
    for (size_t i = 0; i < nd; ++i) nan += (first[i] & 0x7F80) == 0x7F80;
    printf("repeat_check %dx%dx%d mode %d: %d runs %s; %zu NaN/Inf in D\n", M, N, K, mode, runs,
           bad ? "DIFFER" : "bitwise identical", nan);
    gemm_cluster_release(op.plan);   /* the plan owns a walk table */
    if (op.workspace) CUDA_CHECK(cudaFree(op.workspace));
    return bad || nan ? 1 : 0;
}
