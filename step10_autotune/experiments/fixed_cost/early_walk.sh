#!/bin/sh
# fixed_cost/early_walk.sh BUILD OUT: the producer reads its first unit's parameters during the
# start-up cluster barrier instead of after it.
#
# The start-up barrier (cluster_sync_after_init) is an arrive and a wait.  In the tree, the producer
# reads the kernel parameters its first unit needs only after the wait: the plan, the walk
# start, the scheduler.  ncu's source view puts 4-13 immediate-constant stall samples on each of
# those first reads (logs/param_layout/src_1024_imc.txt): each is a miss, and they come one after
# another.  Between the arrive and the wait nothing depends on the partner, so the misses could
# overlap the barrier's round trip.  Is that part of the ~0.5 us a launch that 1024^3 trails
# cuBLAS by (logs/small_squares/)?
#
# Two builds against the tree's:
#   early:      the producer's warp computes its first unit (walk_start, walk_unit) between
#               cluster_arrive_relaxed and cluster_wait, and thread 0 prefetches the tensor maps
#               there.  The prefetch of map A names its address through the unit (a test the
#               compiler cannot decide), so ptxas cannot sink the reads past the wait; an empty
#               asm would not hold them (it leaves no instruction for ptxas to respect).
#   earlywarm:  early, plus an L2 prefetch of the first k-tile's two boxes (l2_warm.sh's warm1,
#               which did its reads before the arrive: the whole cluster waited for them).
# Then the fixed-cost fit and 3 rotated rounds at five shapes (cupti_fit.sh's fixed_cost_ab),
# and the checks at odd shapes.  PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: early_walk.sh BUILD OUT}; OUT=${2:?usage: early_walk.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  for v in early earlywarm; do
    variant_patch_py "$BUILD" "$v" "$v" <<'PY'
sync = '    cluster_sync_after_init();\n'
decl = 'template <int WG_M_BLOCKS, int BN, int TILE_WGS, int CLUSTER_SIZE>\nstatic __device__ __forceinline__ void barriers_init('
if s.count(sync) != 1 or s.count(decl) != 1:
    sys.exit("early_walk: kernel.cu changed; the patch no longer applies")
warm = ''
if sys.argv[3] == 'earlywarm':
    s = s.replace(decl, '''/* experiment (fixed_cost/early_walk.sh): one box into L2, no shared memory, no barrier */
static __device__ __forceinline__ void tma_prefetch_l2(const CUtensorMap *map, int x, int y)
{
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" ::"l"((uint64_t)map), "r"(x), "r"(y)
                 : "memory");
}

''' + decl)
    warm = '''            const int ra = SHARE_B ? 0 : (int)rank, rb = SHARE_B ? (int)rank : 0;
            tma_prefetch_l2(&P->map_a, u.k_begin * BK, u.tile_m * BM + ra * A_HALF_ROWS);
            tma_prefetch_l2(&P->map_b, u.k_begin * BK, u.tile_n * BN + rb * B_HALF_ROWS);
'''
s = s.replace(sync, '''    cluster_arrive_relaxed();
    if (wg == 0 && threadIdx.x / 32 == 0) {   /* experiment: the producer's first unit, read while the partner arrives */
        work_walk w = walk_start(P);
        work_unit u = {};
        const int valid = walk_valid(P, &w);
        if (valid) u = walk_unit(P, &w);
        if (threadIdx.x == 0) {
            /* never map_b: the test only makes the prefetch wait for the unit's reads */
            tma_prefetch_map((u.tile_m ^ u.tile_n ^ u.k_begin ^ u.k_end) == -12345 ? &P->map_b : &P->map_a);
            tma_prefetch_map(&P->map_b);
            if (valid) {
''' + warm + '''            }
        }
    }
    cluster_wait();
''')
PY
  done
fi
variant_need_gpu early_walk "$BUILD/earlywarm/step10_autotune"
: > "$OUT/checks.txt"
for v in early earlywarm; do
  echo "== $v" >> "$OUT/checks.txt"
  variant_checks "$BUILD/$v/step10_autotune" "$OUT/checks.txt" 64x128 128x128 128x192 128x256c
done
fixed_cost_ab "$OUT" "$BUILD" "512x512x512 1024x1024x1024 512x4096x4096 2048x2048x2048 4096x4096x4096" early earlywarm
