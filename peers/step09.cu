/* CUTLASS's counterpart of step 09 (stream-K): the cooperative 128x256x64
 * kernel with CUTLASS's StreamKScheduler (its pingpong kernel refuses
 * stream-K).  The CSV's mode column says what CUTLASS's heuristic chose for
 * the shape: stream_k, split_k or data_parallel.  See peer.cuh. */
#include "peer.cuh"

using P = peer_kernel<cute::Shape<cute::_128, cute::_256, cute::_64>, cute::Shape<cute::_1, cute::_1, cute::_1>,
                      cutlass::gemm::KernelTmaWarpSpecializedCooperative,
                      cutlass::epilogue::TmaWarpSpecializedCooperative, cutlass::gemm::StreamKScheduler>;

static void *prepare(const gemm_operands *op)
{
    op->report->impl = "cutlass";
    auto *p = static_cast<peer_plan<P> *>(peer_prepare<P>(op));
    p->reinit = true;
    const auto &sched = p->gemm.params().scheduler;
    op->report->mode = sched.sk_units_ > 0 ? "stream_k"
                     : sched.divmod_splits_.divisor > 1 ? "split_k" : "data_parallel";
    return p;
}

int main(int argc, char **argv)
{
    return peer_main<P>(argc, argv, "09", "cutlass_streamk",
                        "CUTLASS KernelTmaWarpSpecializedCooperative 128x256x64 + StreamKScheduler "
                        "(step 09's counterpart)",
                        "cutlass_128x256x64_streamk", prepare);
}
