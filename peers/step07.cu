/* CUTLASS's counterpart of step 07 (pingpong: two consumer warpgroups, a
 * 128x128 tile each, alternating MMA and epilogue):
 * KernelTmaWarpSpecializedPingpong 128x128x64.  See peer.cuh. */
#include "peer.cuh"

using P = peer_kernel<cute::Shape<cute::_128, cute::_128, cute::_64>, cute::Shape<cute::_1, cute::_1, cute::_1>,
                      cutlass::gemm::KernelTmaWarpSpecializedPingpong,
                      cutlass::epilogue::TmaWarpSpecialized, void>;

static void *prepare(const gemm_operands *op)
{
    op->report->impl = "cutlass";
    return peer_prepare<P>(op);
}

int main(int argc, char **argv)
{
    return peer_main<P>(argc, argv, "07", "cutlass_pingpong",
                        "CUTLASS KernelTmaWarpSpecializedPingpong 128x128x64 (step 07's counterpart)",
                        "cutlass_128x128x64_pingpong", prepare);
}
