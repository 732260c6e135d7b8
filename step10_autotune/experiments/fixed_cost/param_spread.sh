#!/bin/sh
# fixed_cost/param_spread.sh BUILD OUT: ncu's source view at 1024^3 puts step 10's
# immediate-constant stalls on the first read of each line of the parameters, one after
# another: at entry (c[0x414], c[0x208]) and after the start-up barrier (the plan, the
# schedule, the walk-start table; logs/param_layout/src_1024_imc.txt).  param_warm.sh
# warmed every line from ONE warp, one lane a line (a divergent load, replayed line by
# line, in a warp the producer's setmaxnreg waits for) and was slower.  Here lane 0 of each
# consumer warp (warps 4-11, idle until the first data) loads every eighth 64-byte line of
# kernel_params, one address per load, before the start-up barrier, and uses the sum only
# after it, so the misses could overlap the barrier, in parallel across warps.  Two builds:
# BUILD/spread/ sums the loads as they come (ptxas waits for each before the barrier, so the
# consumers arrive late at it), BUILD/late/ keeps them in five registers and sums them after
# the barrier.  Then, against the tree's build: the fixed-cost fit and 3 rounds alternated
# (the order rotated) at five shapes, checks of `late` at odd shapes.  PREBUILT=1 skips nvcc.
# Exits 3 without a GPU.
set -u
BUILD=${1:?usage: param_spread.sh BUILD OUT}; OUT=${2:?usage: param_spread.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  for v in spread late; do
    variant_patch_py "$BUILD" "$v" "$v" <<'PY'
a = '    barriers_init<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(&sm, P->stages);\n'
b = '    cluster_sync_after_init();\n'
if s.count(a) != 1 or s.count(b) != 1:
    sys.exit("param_spread: kernel.cu changed; the patch no longer applies")
if sys.argv[3] == "spread":
    s = s.replace(a, """    int warm = 0;   /* experiment: lane 0 of warps 4-11, every eighth 64-byte line of the parameters each */
    if (threadIdx.x >= 128 && threadIdx.x % 32 == 0)
        for (int line = (int)threadIdx.x / 32 - 4; line < (int)(sizeof(kernel_params) / 64); line += 8)
            warm += ((const int *)P)[16 * line];
""" + a)
    s = s.replace(b, b + '    if (warm == -2147483647) __nanosleep(1);   /* experiment: a use after the barrier, so ptxas keeps the loads */\n')
else:
    s = s.replace(a, """    int warm_v[5] = {0, 0, 0, 0, 0};   /* experiment: as spread, five loads kept apart until after the barrier */
    if (threadIdx.x >= 128 && threadIdx.x % 32 == 0) {
#pragma unroll
        for (int i = 0; i < 5; ++i) {
            const int line = (int)threadIdx.x / 32 - 4 + 8 * i;
            if (line < (int)(sizeof(kernel_params) / 64)) warm_v[i] = ((const int *)P)[16 * line];
        }
    }
""" + a)
    s = s.replace(b, b + '    if (warm_v[0] + warm_v[1] + warm_v[2] + warm_v[3] + warm_v[4] == -2147483647) __nanosleep(1);   /* experiment */\n')
PY
  done
fi
variant_need_gpu param_spread "$BUILD/late/step10_autotune"
variant_checks "$BUILD/late/step10_autotune" "$OUT/checks.txt" 64x128 128x256c
fixed_cost_ab "$OUT" "$BUILD" "512x512x512 1024x1024x1024 512x4096x4096 2048x2048x2048 4096x4096x4096" spread late
