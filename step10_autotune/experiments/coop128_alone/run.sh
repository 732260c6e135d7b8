#!/bin/sh
# coop128_alone/run.sh BUILD OUT: does a cooperative 128 x 128 tile without a cluster (both consumer
# warpgroups on one tile, 64 rows each, as CUTLASS's step 05 peer) win the shapes where each CTA runs one
# 128 x 128 tile (M = 512: one of the pingpong pair's warpgroups idle), on the H200?  In session 9 it needed
# the cluster size per configuration (over the diff budget then); since sessions 15 and 23 the cluster is a
# template parameter, so it is one menu line: MENU_CONFIG("128x128c", 1, 128, 2, 1, ...).
#
# Builds BUILD/coop128_alone/step10_autotune (its model constant a placeholder: only --tune and --config
# are used) beside the tree's BUILD/step10_autotune (REFERENCE=1 builds it; PREBUILT=1: both built where the
# tree was).  Then checks (both plans at odd shapes), --tune at the shapes below (one process each), and
# 3 rotated rounds of the tree's pick against 128x128c/dp forced.  GPU; exits 3 without one.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT"
. "$HERE/../variant.sh"
[ "${PREBUILT:-0}" = 1 ] || variant_patch_py "$BUILD" coop128_alone <<'PY'
edit('    MENU_CONFIG("128x256c", 1, 256, 2, 2, CHOOSER_KT_US_128x256c),',
     '    MENU_CONFIG("128x128c", 1, 128, 2, 1, 0.30),   /* experiment: coop128_alone */\n'
     '    MENU_CONFIG("128x256c", 1, 256, 2, 2, CHOOSER_KT_US_128x256c),')
PY
variant_need_gpu coop128_alone "$BUILD/coop128_alone/step10_autotune"
V=$BUILD/coop128_alone/step10_autotune
variant_checks "$V" "$OUT/checks.txt" 128x128c
echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")"
variant_tune "$V" "$OUT/tune.txt" $(grep -v '^#' "$HERE/shapes.txt" | awk '{ print $1 }')
grep -h "^== \|128x128c/\|winner" "$OUT/tune.txt" | cut -c1-110
variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" "512x4096x4096 512x4096x14336 1024x4096x4096 384x4096x4096" \
  "step10_autotune --no-cache" "coop128_alone/step10_autotune --config 128x128c --mode dp --no-cache"
variant_times_summary "$OUT/rounds.txt" | tee "$OUT/rounds_times.txt"
variant_ratios_summary "$OUT/rounds.txt" | tee "$OUT/rounds_ratios.txt"
