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
# BUILD holds step10_autotune (the tree) and, for ab, padding_box's base/ and pairs/.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT [PART...]}; OUT=${2:?usage: run.sh BUILD OUT [PART...]}; shift 2
[ $# -gt 0 ] || set -- n_edge m_edge ab
HERE=$(dirname "$0")
mkdir -p "$OUT"
. "$HERE/../variant.sh"
variant_need_gpu edge_box "$BUILD/step10_autotune"
summary() {   # LOG: "shape run: times of the rounds"
  awk '/^r[0-9]/ { t = ""; for (i = 1; i <= NF; i++) if ($i == "ms" && t == "") t = $(i - 1)
                   c = $0; sub(/^r[0-9]+ [^ ]+ /, "", c); sub(/ --no-cache/, "", c); sub(/:.*/, "", c)
                   k = $2 " | " c; v[k] = v[k] " " t } END { for (k in v) print k ":" v[k] }' "$1" | sort -t'|' -k2,2 -k1,1n
}
for part in "$@"; do echo "== $part $(date +%T)"; case $part in
n_edge)
  variant_rotated_rounds "$OUT/n_edge.txt" 2 "$BUILD" "8192x136x4096 8192x160x4096 8192x192x4096 8192x224x4096 8192x248x4096 8192x256x4096" \
    "step10_autotune --no-cache --config 64x128 --mode dp" "step10_autotune --no-cache --config 128x128 --mode dp"
  summary "$OUT/n_edge.txt" | tee "$OUT/n_edge_summary.txt" ;;
m_edge)
  variant_rotated_rounds "$OUT/m_edge.txt" 2 "$BUILD" "2184x4096x4096 2208x4096x4096 2240x4096x4096 2272x4096x4096 2304x4096x4096" \
    "step10_autotune --no-cache --config 128x256c --mode dp"
  summary "$OUT/m_edge.txt" | tee "$OUT/m_edge_summary.txt" ;;
ab)
  variant_rotated_rounds "$OUT/ab.txt" 4 "$BUILD" "1024x1024x1024 512x4096x4096 4096x4096x4096" \
    "base/step10_autotune --no-cache" "pairs/step10_autotune --no-cache"
  awk '/^r[0-9]/ { r = ""; for (i = 1; i <= NF; i++) if ($i == "ratio") r = $(i + 1); b = $3; sub(/\/.*/, "", b)
                   v[$2 " " b] = v[$2 " " b] " " r } END { for (k in v) print k ":" v[k] }' "$OUT/ab.txt" | sort | tee "$OUT/ab_summary.txt" ;;
*) echo "run.sh: unknown part $part"; exit 2 ;;
esac; done
echo "== done $(date +%T)"
