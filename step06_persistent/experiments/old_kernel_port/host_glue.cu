/* host_glue.cu — the host half of 585cb90's step 06 (before the work-unit refactor),
 * rewritten for this tree's harness, so that the old KERNEL can be timed under the same
 * harness as the new one (issue 22's guard: "both builds under one harness").
 * port.sh appends this file to 585cb90's step06_persistent/kernel.cu cut before its
 * own host section.  The device code is 585cb90's, compiled against this tree's
 * common/ (port.sh checks that its SASS is the guard's old kernel's).  The old kernel
 * takes eleven parameters (three tensor maps, D, M, N, K, stages, gemm_params, the trace
 * context, the planted bug) where the new one takes its kernel_params struct, so the
 * launch below passes them one by one; everything else is common/gemm_launch.cuh's. */
static const gemm_launch_desc LAUNCH = {
    .step = STEP_ID,
    .kernel = (const void *)persistent_kernel,
    .kernel_traced = (const void *)persistent_kernel_traced,
    .threads = THREADS,
    .smem = SMEM_CONFIG,
    .min_stages = MIN_STAGES,
    .cluster = 1,
};

typedef struct {
    CUtensorMap a, b, d;
    gemm_params params;
    int grid;
} old_plan;

static void *step_prepare(const gemm_operands *op)
{
    old_plan *p = (old_plan *)gemm_plan_alloc(sizeof *p, STEP_ID);
    gemm_encode_ab(&p->a, &p->b, op, BM, BN, BK);
    p->params.use_tma_store = gemm_encode_d(&p->d, op, EPI_ROWS, EPI_COLS);
    p->params.sched = gemm_persistent_sched(op, BM, BN);
    p->grid = gemm_persistent_grid(&LAUNCH, op, p->params.sched.num_tiles);
    return p;
}

static void step_launch(const gemm_operands *op, cudaStream_t stream)
{
    old_plan *p = (old_plan *)op->plan;
    static int ready = 0;
    if (!ready) {
        gemm_launch_setup(&LAUNCH, op);   /* the stage check and the shared-memory opt-in */
        ready = 1;
    }
    __nv_bfloat16 *D = op->d;
    int M = op->m, N = op->n, K = op->k, stages = op->stages, bug = op->plant_bug;
    trace_ctx tr = op->trace;
    void *args[] = {&p->a, &p->b, &p->d, &D, &M, &N, &K, &stages, &p->params, &tr, &bug};
    const void *kernel = TRACE_ON(op->trace) ? LAUNCH.kernel_traced : LAUNCH.kernel;
    CUDA_CHECK(cudaLaunchKernel(kernel, dim3((unsigned)p->grid), dim3((unsigned)THREADS), args,
                                smem_layout_of(LAUNCH.smem, op->stages).total, stream));
    CUDA_CHECK_LAUNCH();
}

int main(int argc, char **argv)
{
    char variant[48], summary[200];
    snprintf(variant, sizeof variant, "%dx%dx%d_persistent_585cb90", BM, BN, BK);
    snprintf(summary, sizeof summary, "step 06's kernel of 585cb90 under this tree's harness (%s)", variant);
    const gemm_step step = {
        .step = STEP_ID,
        .name = "persistent",
        .summary = summary,
        .variant = variant,
        .min_stages = MIN_STAGES,
        .max_stages = MAX_STAGES,
        .default_stages = DEFAULT_STAGES,
        .need = {9, 0, 1, "wgmma, setmaxnreg and TMA need an sm_90a (Hopper H100/H200) GPU"},
        .prepare = step_prepare,
        .release = gemm_plan_free,
        .launch = step_launch,
        .trace_units = 1 + CONSUMER_WGS,
        .trace_unit_kind = "warpgroup",
        .has_group = 1,
        .launch_desc = &LAUNCH,
    };
    return gemm_main(argc, argv, &step);
}
