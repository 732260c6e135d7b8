/* peer.cuh — CUTLASS's counterpart of a course step, run by the course's own
 * harness (common/gemm.cuh): the same inputs, the same check against cuBLAS
 * (relative Frobenius error < 1e-2, NaN-poisoned output, float64 host
 * reference), the same timing (interleaved with cuBLAS launch by launch) and
 * the same CSV row, with impl = cutlass and step = the course step it mirrors.
 *
 * This folder is the one place the course uses C++ templates: CUTLASS is only
 * measured here, never taught.  Each stepNN.cu instantiates one kernel with
 * CUTLASS 3.x's CollectiveBuilder API, in the course's layout (bf16 A[M][K]
 * and B[N][K], K contiguous: CUTLASS's "TN"; fp32 accumulate; bf16 D[M][N]
 * row-major; alpha 1, beta 0 so C is never read).
 *
 * Built with -DNDEBUG: CUTLASS's device asserts otherwise make ptxas
 * serialize the wgmma instructions (warning C7510), which is not the kernel
 * CUTLASS ships.  `make peers` builds build/peers/cutlass_stepNN. */
#ifndef PEERS_PEER_CUH
#define PEERS_PEER_CUH

#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/util/packed_stride.hpp"

#include "gemm.cuh"

template <class TileShape, class ClusterShape, class KernelSchedule, class EpilogueSchedule,
          class Scheduler>
struct peer_kernel {
    using ElementAB = cutlass::bfloat16_t;
    static constexpr int kAlign = 8;   /* 16 bytes of bf16: TMA's alignment */
    using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
        cutlass::epilogue::collective::EpilogueTileAuto, float, float,
        ElementAB, cutlass::layout::RowMajor, kAlign,
        ElementAB, cutlass::layout::RowMajor, kAlign, EpilogueSchedule>::CollectiveOp;
    using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
        ElementAB, cutlass::layout::RowMajor, kAlign,      /* A[M][K] */
        ElementAB, cutlass::layout::ColumnMajor, kAlign,   /* B[N][K] = column-major KxN */
        float, TileShape, ClusterShape,
        cutlass::gemm::collective::StageCountAutoCarveout<
            static_cast<int>(sizeof(typename CollectiveEpilogue::SharedStorage))>,
        KernelSchedule>::CollectiveOp;
    using Kernel = cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>,
                                                        CollectiveMainloop, CollectiveEpilogue,
                                                        Scheduler>;
    using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
    static constexpr int kStages = CollectiveMainloop::DispatchPolicy::Stages;
};

/* One per rotation set: the adapter holds the kernel's parameters (TMA
 * descriptors of these buffers), built once before anything is timed. */
template <class P>
struct peer_plan {
    typename P::Gemm gemm;
    typename P::Gemm::Arguments args;
    void *workspace = nullptr;
    bool reinit = false;   /* stream-K: its fix-up flags must be zeroed before every launch */
};

template <class P>
static void *peer_prepare(const gemm_operands *op)
{
    using Gemm = typename P::Gemm;
    auto *p = new peer_plan<P>;
    auto sa = cutlass::make_cute_packed_stride(typename Gemm::GemmKernel::StrideA{},
                                               cute::make_shape(op->m, op->k, 1));
    auto sb = cutlass::make_cute_packed_stride(typename Gemm::GemmKernel::StrideB{},
                                               cute::make_shape(op->n, op->k, 1));
    auto sc = cutlass::make_cute_packed_stride(typename Gemm::GemmKernel::StrideC{},
                                               cute::make_shape(op->m, op->n, 1));
    auto sd = cutlass::make_cute_packed_stride(typename Gemm::GemmKernel::StrideD{},
                                               cute::make_shape(op->m, op->n, 1));
    cutlass::KernelHardwareInfo hw;
    hw.device_id = 0;
    CUDA_CHECK(cudaGetDevice(&hw.device_id));
    hw.sm_count = op->num_sms;
    auto *a = reinterpret_cast<const cutlass::bfloat16_t *>(op->a);
    auto *b = reinterpret_cast<const cutlass::bfloat16_t *>(op->b);
    auto *d = reinterpret_cast<cutlass::bfloat16_t *>(op->d);
    p->args = typename Gemm::Arguments{cutlass::gemm::GemmUniversalMode::kGemm,
                                       {op->m, op->n, op->k, 1},
                                       {a, sa, b, sb},
                                       {{1.0f, 0.0f}, d, sc, d, sd},
                                       hw};
    cutlass::Status st = p->gemm.can_implement(p->args);
    if (st != cutlass::Status::kSuccess) {
        /* The course takes any N; CUTLASS's TMA epilogue wants D's rows
         * 16-byte aligned too (measured: N = 1, 129, 4100 refused). */
        fprintf(stderr, "--n: CUTLASS's kernel refuses %dx%dx%d (can_implement: %s): it needs N and K "
                "multiples of 8 (16-byte rows of B and D)\n", op->m, op->n, op->k,
                cutlassGetStatusString(st));
        exit(EXIT_BAD_ARGS);
    }
    size_t ws = Gemm::get_workspace_size(p->args);
    if (ws) CUDA_CHECK(cudaMalloc(&p->workspace, ws));
    st = p->gemm.initialize(p->args, p->workspace, 0);
    if (st != cutlass::Status::kSuccess) {
        fprintf(stderr, "CUTLASS initialize failed: %s\n", cutlassGetStatusString(st));
        exit(EXIT_WRONG);
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    return p;
}

template <class P>
static void peer_release(void *plan)
{
    auto *p = static_cast<peer_plan<P> *>(plan);
    if (p->workspace) CUDA_CHECK(cudaFree(p->workspace));
    delete p;
}

template <class P>
static void peer_launch(const gemm_operands *op, cudaStream_t stream)
{
    auto *p = static_cast<peer_plan<P> *>(op->plan);
    /* initialize() re-zeroes the stream-K flags on `stream` (a memset CUTLASS
     * needs before every launch); the host work is not timed as long as the
     * host keeps ahead of the GPU (harness.cuh). */
    if (p->reinit && p->gemm.initialize(p->args, p->workspace, stream) != cutlass::Status::kSuccess) {
        fprintf(stderr, "CUTLASS initialize failed\n");
        exit(EXIT_WRONG);
    }
    cutlass::Status st = p->gemm.run(stream);
    if (st != cutlass::Status::kSuccess) {
        fprintf(stderr, "CUTLASS run failed: %s\n", cutlassGetStatusString(st));
        exit(EXIT_WRONG);
    }
    CUDA_CHECK_LAUNCH();
}

/* The step descriptor gemm_main runs: stages are CUTLASS's own choice (the
 * most that fit beside the epilogue), so --stages accepts only that value. */
template <class P>
static int peer_main(int argc, char **argv, const char *step, const char *name, const char *summary,
                     const char *variant, void *(*prepare)(const gemm_operands *))
{
    const gemm_step s = {step, name, summary, variant, P::kStages, P::kStages, P::kStages,
                         {9, 0, 1, "CUTLASS's sm90 kernels need an sm_90a (Hopper H100/H200) GPU"},
                         prepare, peer_release<P>, peer_launch<P>, 0, "warpgroup", 0,
                         NULL, NULL, 0, 0 /* plant_bugs: none */, NULL /* menu: one configuration */};
    return gemm_main(argc, argv, &s);
}

#endif
