#!/bin/sh
# fixed_cost/launch_floor.sh BUILD OUT: where does a small launch's time go, stage by stage?
#
# At 1024^3 the model's pick (64x128/dp: one tile per CTA, 128 CTAs) runs ~1.3 us longer than
# cuBLAS's kernel under CUPTI, and sessions 10-13 found no single part of the start path that
# moves it (NOTES.md, "Session 13").  This measures the whole path in pieces instead: the
# tree's kernel cut short at one point, so that each build runs everything up to the cut and
# nothing after it, on the same launch (the same code, registers, shared memory, threads and
# cluster; the cut is a test the compiler cannot decide, so nothing before it is removed):
#   entry:      every thread returns at the kernel's first line: the launch and retirement of
#               the grid alone, at this configuration's resources;
#   entry_c1:   entry in clusters of one (variant.sh's variant_no_cluster): the cluster
#               launch's share of that;
#   barrier:    returns after the barrier init and the start-up cluster barrier;
#   loads:      the consumers wait for every k-tile and release it, but issue no wgmma and
#               store nothing: the launch and the operands through the ring;
#   nostore:    the full mainloop, no epilogue store;
#   nomma:      loads, plus the epilogue (it stores whatever the registers hold);
#   loads_c1:   loads in clusters of one (each CTA loads its whole A box: 192 rows a k-tile);
#   loads_shareb: loads with the pair along M sharing B (shareb_all/run.sh's SHARE_B 1: 64 of
#               A and 64 of B, 128 rows a k-tile, where the tree loads 32 + 128 = 160);
# and two whole GEMMs beside the tree, checked at odd shapes:
#   shareb:     SHARE_B 1 (slower at 1024^3 in shareb_all/logs/: does its data path say why?);
#   direct:     the epilogue's masked stores straight from the registers (the path N % 8 != 0
#               takes) instead of shared memory and TMA stores: does the last tile's store
#               round trip cost less without the staging?
# entry also runs at --stages 2 (64 KiB of shared memory instead of 208): does the size of a
# CTA's shared memory move the launch?  Each build's kernel time and cuBLAS's (the mean of the
# process's launches, and the median; CUPTI: ../launch_gap/kernel_times.c) at 1024^3 and 512^3,
# 3 rounds with the order rotated; the cut builds' results are garbage, so --no-check.  Then
# ncu's launch statistics of cuBLAS's kernel and the tree's at both shapes: the resources each
# launches with.  PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
# logs/launch_floor/ came from 21363a0's tree, before the lean kernel (c477404); at HEAD the
# cuts apply to every kernel of gemm_cta, and the tree's dp launches run the lean one.
set -u
BUILD=${1:?usage: launch_floor.sh BUILD OUT}; OUT=${2:?usage: launch_floor.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
VARIANTS="entry barrier loads nostore nomma loads_shareb shareb direct"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  for v in $VARIANTS; do
    variant_patch_py "$BUILD" "$v" "$v" <<'PY'
never = 'gridDim.x == 77777u'   # true for no launch here, unknown to the compiler
edits = {
    'entry': ('    const smem_config layout = SMEM_CONFIG;\n',
              '    if (!(' + never + ')) return;   /* experiment: launch_floor.sh */\n'
              '    const smem_config layout = SMEM_CONFIG;\n'),
    'barrier': ('    cluster_sync_after_init();\n',
                '    cluster_sync_after_init();\n'
                '    if (!(' + never + ')) return;   /* experiment: launch_floor.sh */\n'),
    'nostore': ('        if (cluster_unit_stores(&P->sched, &u) && !writes)',
                '        if (' + never + ' && cluster_unit_stores(&P->sched, &u) && !writes)'),
    'nomma': ('        consumer_mma_slot<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(cc, acc, kt > u->k_begin);\n',
              '        if (' + never + ') consumer_mma_slot<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(cc, acc, kt > u->k_begin);\n'),
    'shareb': ('#define SHARE_B (TILE_WGS == 2)', '#define SHARE_B 1   /* experiment: launch_floor.sh */ //'),
    'direct': ('    P->use_tma_store = gemm_encode_d(&P->map_d, op, EPI_ROWS, EPI_COLS);\n',
               '    P->use_tma_store = gemm_encode_d(&P->map_d, op, EPI_ROWS, EPI_COLS);\n'
               '    P->use_tma_store = 0;   /* experiment: launch_floor.sh */\n'),
}
combos = {'loads': ['nostore', 'nomma'], 'loads_shareb': ['nostore', 'nomma', 'shareb']}
v = sys.argv[3]
for name in combos.get(v, [v]):
    edit(*edits[name])
PY
  done
  # entry and loads in clusters of one: variant_no_cluster on their copies
  for v in entry loads; do
    mkdir -p "$BUILD/${v}_c1"
    variant_no_cluster launch_floor "$BUILD/$v/kernel.cu" "$BUILD/${v}_c1/kernel.cu"
    variant_build "${v}_c1" "$BUILD/${v}_c1/kernel.cu" "$BUILD/${v}_c1/step10_autotune"
  done
fi
variant_need_gpu launch_floor "$BUILD/loads_c1/step10_autotune"

: > "$OUT/checks.txt"
for v in . shareb direct; do
  echo "== $v" >> "$OUT/checks.txt"
  variant_checks "$BUILD/$v/step10_autotune" "$OUT/checks.txt" 64x128
done

# Each run at both shapes under CUPTI, 3 rounds (cupti_fit.sh's cupti_rounds: OUT/runs.txt, summary.txt).
cupti_rounds "$OUT" "$BUILD" "1024x1024x1024 512x512x512" "--no-cache --no-check --config 64x128 --mode dp" \
  step10_autotune entry/step10_autotune "entry/step10_autotune --stages 2" entry_c1/step10_autotune \
  barrier/step10_autotune loads/step10_autotune loads_c1/step10_autotune loads_shareb/step10_autotune \
  nostore/step10_autotune nomma/step10_autotune shareb/step10_autotune direct/step10_autotune

# The resources each side launches with (ncu's launch statistics, one launch each).
if command -v ncu > /dev/null 2>&1; then
  for sh in 1024x1024x1024 512x512x512; do
    m=${sh%%x*}; rest=${sh#*x}; n=${rest%%x*}; k=${rest#*x}
    for kn in nvjet pingpong; do
      echo "== $sh $kn" >> "$OUT/ncu_launch.txt"
      ncu --kernel-name "regex:$kn" --launch-count 1 --section LaunchStats --section Occupancy \
          "$BUILD/step10_autotune" --m "$m" --n "$n" --k "$k" --no-cache --no-check >> "$OUT/ncu_launch.txt" 2>&1
    done
  done
fi
