#!/bin/sh
# fixed_cost/param_layout.sh BUILD OUT: under ncu at 1024^3 step 10's 64x128/dp stalls on the
# immediate-constant cache (imc_miss, a kernel parameter read by an instruction that missed)
# 2.00 cycles per issued instruction against cuBLAS's 0.89 (logs/param_layout/ncu_stalls.log).
# kernel_params is 1,664 bytes: the three tensor maps first (384 bytes), then the scalars, the
# 1 KiB walk-start table in their middle, then stream-K's plan, so the start touches several
# lines of it.  Does packing what the roles read (the scalars, the schedule, the plan) into
# the front of the struct, before the maps and the table, cut the fixed cost?  Builds step 10
# with the fields reordered (BUILD/packed/: nothing else changes), then against the tree's
# build: ncu's stall reasons at 1024^3 and 512^3, the fixed-cost fit and 3 rounds alternated
# (the order rotated) at five shapes, checks at odd shapes.
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: param_layout.sh BUILD OUT}; OUT=${2:?usage: param_layout.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  variant_patch_py "$BUILD" packed <<'PY'
maps = '    CUtensorMap map_a, map_b, map_d;   /* map_d: zeros unless use_tma_store */\n'
walk = '    uint16_t walk_start[CLUSTER_PROBE_MAX_SMS / 2];   /* each cluster\'s first work index: no global load */\n'
end = '} kernel_params;\n'
if s.count(maps) != 1 or s.count(walk) != 1 or s.count(end) != 1:
    sys.exit("param_layout: kernel.cu changed; the patch no longer applies")
s = s.replace(maps, '').replace(walk, '')
s = s.replace(end, '    /* experiment (fixed_cost/param_layout.sh): the large fields last */\n' + maps + walk + end)
PY
fi
variant_need_gpu param_layout "$BUILD/packed/step10_autotune"
variant_checks "$BUILD/packed/step10_autotune" "$OUT/checks.txt" 64x128 128x256c
if command -v ncu > /dev/null 2>&1; then
  m="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,gpu__time_duration.sum,sm__cycles_active.max"
  for s in 1024 512; do
    for b in "$BUILD/step10_autotune pingpong_kernel" "$BUILD/packed/step10_autotune pingpong_kernel" \
             "$BUILD/step10_autotune regex:nvjet|gemm|xmma"; do
      set -- $b
      echo "== ${s}^3 $1 $2" >> "$OUT/ncu_stalls.log"
      timeout 120 ncu --metrics "$m" --kernel-name-base function --kernel-name "$2" --launch-skip 3 --launch-count 1 \
        "$1" --m $s --n $s --k $s --no-check --no-cache --iters 3 --warmup 1 2>&1 |
        grep -E "^  [a-zA-Z_]|  (gpu__|sm__|smsp__)" >> "$OUT/ncu_stalls.log"
    done
  done
fi
fixed_cost_ab "$OUT" "$BUILD" "512x512x512 1024x1024x1024 512x4096x4096 2048x2048x2048 4096x4096x4096" packed
