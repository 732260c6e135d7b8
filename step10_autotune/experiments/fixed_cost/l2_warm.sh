#!/bin/sh
# fixed_cost/l2_warm.sh BUILD OUT: at 1024 x 1024 x K step 10's 64x128/dp trails cuBLAS by the
# same ~0.5 us at every K (small_squares.sh: a cost per launch; its rate per k-tile is
# cuBLAS's), and in its timeline the first producer_load span, two TMA issues, takes ~1 us
# where the later ones take ~0.1 us (logs/small_squares/trace_1024_64x128_dp.csv).  After the
# harness's L2 flush the first boxes come from DRAM, through cold translations.  Does
# warming them help?  Builds step 10 with one more thread at kernel entry (warp 1's lane 0,
# beside thread 0's barrier init) that finds the CTA's first unit and issues
# cp.async.bulk.prefetch.tensor (to L2) for its first k-tile's two boxes (BUILD/warm1/) or
# for as many k-tiles as the ring holds (BUILD/warmring/); then, against the tree's build,
# the fixed-cost fit and 3 rounds alternated (the order rotated) at five shapes.
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: l2_warm.sh BUILD OUT}; OUT=${2:?usage: l2_warm.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  for v in 1 ring; do
    variant_patch_py "$BUILD" "warm$v" "$v" <<'PY'
init = '    barriers_init<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(&sm, P->stages);\n'
decl = 'template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>\nstatic __device__ __forceinline__ void barriers_init('
if s.count(init) != 1 or s.count(decl) != 1:
    sys.exit("l2_warm: kernel.cu changed; the patch no longer applies")
depth = '1' if sys.argv[3] == '1' else 'P->stages'
s = s.replace(decl, '''/* experiment (fixed_cost/l2_warm.sh): one box into L2, no shared memory, no barrier */
static __device__ __forceinline__ void tma_prefetch_l2(const CUtensorMap *map, int x, int y)
{
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" ::"l"((uint64_t)map), "r"(x), "r"(y)
                 : "memory");
}

''' + decl)
s = s.replace(init, '''    if (threadIdx.x == 32) {   /* experiment: warm this CTA's first k-tiles in L2 while thread 0 inits */
        work_walk w = walk_start(P);
        if (walk_valid(P, &w)) {
            const work_unit u = walk_unit(P, &w);
            const int ra = SHARE_B ? 0 : (int)rank, rb = SHARE_B ? (int)rank : 0;
            for (int kt = u.k_begin; kt < u.k_end && kt < u.k_begin + DEPTH; ++kt) {
                tma_prefetch_l2(&P->map_a, kt * BK, u.tile_m * BM + ra * A_HALF_ROWS);
                tma_prefetch_l2(&P->map_b, kt * BK, u.tile_n * BN + rb * B_HALF_ROWS);
            }
        }
    }
'''.replace('DEPTH', depth) + init)
PY
  done
fi
variant_need_gpu l2_warm "$BUILD/warmring/step10_autotune"
variant_checks "$BUILD/warmring/step10_autotune" "$OUT/checks.txt" 64x128 128x256c
fixed_cost_ab "$OUT" "$BUILD" "512x512x512 1024x1024x1024 512x4096x4096 2048x2048x2048 4096x4096x4096" warm1 warmring
