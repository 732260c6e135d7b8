/* CUTLASS's counterpart of step 05 (TMA + WGMMA, warp-specialized, one tile
 * per CTA): KernelTmaWarpSpecialized, 128x128x64 (its one consumer warpgroup
 * holds the whole accumulator, so 128x256 would not fit its registers).
 * See peer.cuh. */
#include "peer.cuh"

using P = peer_kernel<cute::Shape<cute::_128, cute::_128, cute::_64>, cute::Shape<cute::_1, cute::_1, cute::_1>,
                      cutlass::gemm::KernelTmaWarpSpecialized,
                      cutlass::epilogue::TmaWarpSpecialized, void>;

static void *prepare(const gemm_operands *op)
{
    op->report->impl = "cutlass";
    return peer_prepare<P>(op);
}

int main(int argc, char **argv)
{
    return peer_main<P>(argc, argv, "05", "cutlass_tma_warpspecialized",
                        "CUTLASS KernelTmaWarpSpecialized 128x128x64 (step 05's counterpart)",
                        "cutlass_128x128x64", prepare);
}
