#!/bin/sh
# edge_box/run.sh BUILD OUT [PART...]: does a box that hangs partly past the matrix cost more than a whole one?
#
# Session 24 found a box wholly past N (a pair's padding CTA) slower to fill with zeros than a real box is to
# load (padding_box/).  A tile at the edge asks TMA for a box partly past N (or M): its rows past the edge are
# zero-filled the same way.  If those rows cost more than real ones, a shape whose last tile column holds a few
# real rows takes longer than the shape with that column whole, for less work.  The tree, forced, whole tiles,
# 2 rotated rounds:
#   n_edge   64x128/dp and 128x128/dp (pairs along N, B's box 128 rows) at M = 8192, K = 4096 and N = 136, 160,
#            192, 224, 248 (two tiles across N, the second with 8-120 real rows) and 256 (both whole)
#   m_edge   128x256c/dp (the cooperative pair along M; A's box 128 rows, the CTA's own) at N = 4096, K = 4096
#            and M = 2184, 2208, 2240, 2272 (18 tiles along M, the last with 8-96 real rows) and 2304 (whole)
#   ab       b732815 against the tree (padding_box's base and pairs builds), the model's pick, 4 rotated rounds
#            at 1024^3, 512 x 4096 x 4096 and 4096^3: does the padding skip cost shapes without padding?
# Since 4ebc41d the last tile column's own box stops at the edge (config_prepare's map_edge).  Parts that judge it:
#   cut      old/ (2b8bac7: the box to BN rows) against the tree, pairs forced as in n_edge, 2 rotated rounds
#   picks    old/ against the tree, the model's pick, 2 rotated rounds, at session 23's held-out misses with
#            N % tile != 0 (../pair_alone_heldout_shapes.txt and ../pair_alone_shapes.txt; no pick moved)
#   checks   the tree, every configuration in dp and sk, at shapes with a partial last column and row
# BUILD holds step10_autotune (the tree); for ab, padding_box's base/ and pairs/; for cut and picks, old/
# (2b8bac7's tree: the padding skip without the edge cut; cut forces pairs: at two tiles across N they are
# pairs in both).  PREBUILT binaries only (no build here).  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT [PART...]}; OUT=${2:?usage: run.sh BUILD OUT [PART...]}; shift 2
[ $# -gt 0 ] || set -- n_edge m_edge ab
HERE=$(dirname "$0")
mkdir -p "$OUT"
. "$HERE/../variant.sh"
variant_need_gpu edge_box "$BUILD/step10_autotune"
for part in "$@"; do echo "== $part $(date +%T)"; case $part in
n_edge)
  variant_rotated_rounds "$OUT/n_edge.txt" 2 "$BUILD" "8192x136x4096 8192x160x4096 8192x192x4096 8192x224x4096 8192x248x4096 8192x256x4096" \
    "step10_autotune --no-cache --config 64x128 --mode dp" "step10_autotune --no-cache --config 128x128 --mode dp"
  variant_times_summary "$OUT/n_edge.txt" | tee "$OUT/n_edge_summary.txt" ;;
m_edge)
  variant_rotated_rounds "$OUT/m_edge.txt" 2 "$BUILD" "2184x4096x4096 2208x4096x4096 2240x4096x4096 2272x4096x4096 2304x4096x4096" \
    "step10_autotune --no-cache --config 128x256c --mode dp"
  variant_times_summary "$OUT/m_edge.txt" | tee "$OUT/m_edge_summary.txt" ;;
ab)
  variant_rotated_rounds "$OUT/ab.txt" 4 "$BUILD" "1024x1024x1024 512x4096x4096 4096x4096x4096" \
    "base/step10_autotune --no-cache" "pairs/step10_autotune --no-cache"
  variant_ratios_summary "$OUT/ab.txt" | tee "$OUT/ab_summary.txt" ;;
cut)
  variant_rotated_rounds "$OUT/cut.txt" 2 "$BUILD" "8192x136x4096 8192x160x4096 8192x192x4096 8192x224x4096 8192x256x4096" \
    "old/step10_autotune --no-cache --config 64x128 --mode dp" "step10_autotune --no-cache --config 64x128 --mode dp" \
    "old/step10_autotune --no-cache --config 128x128 --mode dp" "step10_autotune --no-cache --config 128x128 --mode dp"
  variant_times_summary "$OUT/cut.txt" | tee "$OUT/cut_summary.txt" ;;
picks)
  variant_rotated_rounds "$OUT/picks.txt" 2 "$BUILD" \
    "8192x160x5120 4096x192x4096 3000x100x4096 2048x432x4096 8192x408x2048 2048x534x5120 3072x355x1024" \
    "old/step10_autotune --no-cache" "step10_autotune --no-cache"
  variant_ratios_summary "$OUT/picks.txt" | tee "$OUT/picks_summary.txt" ;;
checks)
  variant_checks "$BUILD/step10_autotune" "$OUT/checks.txt" 64x64 64x128 128x128 128x192 128x256c
  variant_check_grid "$BUILD/step10_autotune" "$OUT/checks.txt" \
    "8192x136x1024 300x1000x520 1100x1100x136 4100x200x72 77x640x4096 2000x330x8" "dp sk" 64x64 64x128 128x128 128x192 128x256c
  echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")" ;;
*) echo "run.sh: unknown part $part"; exit 2 ;;
esac; done
echo "== done $(date +%T)"
