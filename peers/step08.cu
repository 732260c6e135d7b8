/* CUTLASS's counterpart of step 08 (clusters of 2 CTAs sharing an operand
 * through TMA multicast): step 07's pingpong 128x128x64 with a 2x1 cluster.
 * See peer.cuh. */
#include "peer.cuh"

using P = peer_kernel<cute::Shape<cute::_128, cute::_128, cute::_64>, cute::Shape<cute::_2, cute::_1, cute::_1>,
                      cutlass::gemm::KernelTmaWarpSpecializedPingpong,
                      cutlass::epilogue::TmaWarpSpecialized, void>;

static void *prepare(const gemm_operands *op)
{
    op->report->impl = "cutlass";
    op->report->cluster = 2;
    return peer_prepare<P>(op);
}

int main(int argc, char **argv)
{
    return peer_main<P>(argc, argv, "08", "cutlass_pingpong_cluster2x1",
                        "CUTLASS KernelTmaWarpSpecializedPingpong 128x128x64, cluster 2x1 (step 08's counterpart)",
                        "cutlass_128x128x64_pingpong_c2x1", prepare);
}
