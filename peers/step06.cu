/* CUTLASS's counterpart of step 06 (persistent, two consumer warpgroups on
 * one 128x256 tile): KernelTmaWarpSpecializedCooperative 128x256x64.
 * See peer.cuh. */
#include "peer.cuh"

using P = peer_kernel<cute::Shape<cute::_128, cute::_256, cute::_64>, cute::Shape<cute::_1, cute::_1, cute::_1>,
                      cutlass::gemm::KernelTmaWarpSpecializedCooperative,
                      cutlass::epilogue::TmaWarpSpecializedCooperative, void>;

static void *prepare(const gemm_operands *op)
{
    op->report->impl = "cutlass";
    return peer_prepare<P>(op);
}

int main(int argc, char **argv)
{
    return peer_main<P>(argc, argv, "06", "cutlass_cooperative",
                        "CUTLASS KernelTmaWarpSpecializedCooperative 128x256x64 (step 06's counterpart)",
                        "cutlass_128x256x64_cooperative", prepare);
}
