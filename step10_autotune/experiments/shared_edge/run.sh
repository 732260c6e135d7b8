#!/bin/sh
# shared_edge/run.sh BUILD OUT [PART...]: does the shared box's part past the edge cost a pair as its own box's did?
#
# Session 24 cut a CTA's own box at the matrix's edge (edge_box/: B in a pingpong pair's last tile column, A in
# the cooperative pair's last tile row) and let a padding CTA load none (padding_box/).  The shared box was left
# whole: in a pingpong pair's last tile row each rank still loaded its half of A, BM/2 rows, though the rows past
# M are zero fill, and where M % BM <= BM/2 rank 1's half lay wholly past M (as a padding CTA's box did).  The
# cooperative pair's B in its last tile column the same.  Only where M fitted in rank 0's half (one tile row) was
# A cut, since session 20.  Since session 25 (config_prepare's map_shared_edge) the rank whose half the edge cuts
# loads the edge's rows rounded up to 8 and a rank past it none, wherever the last row (column) is partial.
# BUILD holds step10_autotune (the tree) and old/step10_autotune (ece1780: the shared box whole).  Parts:
#   m_small  64x128/dp and 128x128/dp forced, pairs along N, N = 8192, K = 4096, at M with 2-3 tile rows, the last
#            one 8 rows (rank 0 cut, rank 1 none), half (rank 0 whole, rank 1 none) or whole; old and tree, 2 rotated rounds
#   m_mid    the same at M = 1024-1152 (9 rows of 128, 17-18 of 64), N = K = 4096
#   m_by_n   why did 200 and 300 x 4096 x 4096 not gain (picks, 7b77c04)?  The same forced pairs at the picks' M
#            (64x128 at 192, 200, 256; 128x128 at 256, 300, 384) with N = 4096 and 8192, K = 4096, old and tree
#   ncu      old and tree, 128x128/dp forced at 300 x 4096 x 4096 and 160 x 8192 x 4096: duration, L2 and DRAM bytes,
#            tensor pipe
#   n_coop   128x256c/dp forced (the pair along M shares B) at M = K = 4096, N = 4104, 4224, 4280, 4352
#   picks    the model's pick, old and tree, 3 rotated rounds, at shapes with a partial last tile row
#            (pingpong) or column (cooperative) drawn before the run; 4000 x 4096 x 4096 (no shared edge) a control
#   level    old and tree, the model's pick, 4 rotated rounds, at 512^3, 1024^3 and 4096^3: every box whole, the
#            pairs' first copies the same PTX (64x64's first copy now without the edge tests)
#   picks2   old and tree, the model's pick, 2 rotated rounds, at tune_shapes.txt
#   tune     --tune at tune_shapes.txt (drawn before its run): the model's pick against tune's best, one
#            process per shape (variant_tune), with the edges cut and the model counting every box whole
#   checks   the tree, every configuration in dp and sk, at shapes with the shared box cut at every split
# PREBUILT binaries only (no build here).  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT [PART...]}; OUT=${2:?usage: run.sh BUILD OUT [PART...]}; shift 2
[ $# -gt 0 ] || set -- checks m_small m_mid n_coop picks level
HERE=$(dirname "$0")
mkdir -p "$OUT"
. "$HERE/../variant.sh"
variant_need_gpu shared_edge "$BUILD/step10_autotune"
for part in "$@"; do echo "== $part $(date +%T)"; case $part in
m_small)
  variant_rotated_rounds "$OUT/m_small.txt" 2 "$BUILD" "136x8192x4096 160x8192x4096 192x8192x4096 256x8192x4096" \
    "old/step10_autotune --no-cache --config 64x128 --mode dp" "step10_autotune --no-cache --config 64x128 --mode dp" \
    "old/step10_autotune --no-cache --config 128x128 --mode dp" "step10_autotune --no-cache --config 128x128 --mode dp"
  variant_times_summary "$OUT/m_small.txt" | tee "$OUT/m_small_summary.txt" ;;
m_mid)
  variant_rotated_rounds "$OUT/m_mid.txt" 2 "$BUILD" "1024x4096x4096 1032x4096x4096 1056x4096x4096 1072x4096x4096 1088x4096x4096 1120x4096x4096 1152x4096x4096" \
    "old/step10_autotune --no-cache --config 64x128 --mode dp" "step10_autotune --no-cache --config 64x128 --mode dp" \
    "old/step10_autotune --no-cache --config 128x128 --mode dp" "step10_autotune --no-cache --config 128x128 --mode dp"
  variant_times_summary "$OUT/m_mid.txt" | tee "$OUT/m_mid_summary.txt" ;;
m_by_n)
  variant_rotated_rounds "$OUT/m_by_n.txt" 2 "$BUILD" "192x4096x4096 200x4096x4096 256x4096x4096 192x8192x4096 200x8192x4096 256x8192x4096" \
    "old/step10_autotune --no-cache --config 64x128 --mode dp" "step10_autotune --no-cache --config 64x128 --mode dp"
  variant_rotated_rounds "$OUT/m_by_n.txt" 2 "$BUILD" "256x4096x4096 300x4096x4096 384x4096x4096 256x8192x4096 300x8192x4096 384x8192x4096" \
    "old/step10_autotune --no-cache --config 128x128 --mode dp" "step10_autotune --no-cache --config 128x128 --mode dp"
  variant_times_summary "$OUT/m_by_n.txt" | tee "$OUT/m_by_n_summary.txt" ;;
n_coop)
  variant_rotated_rounds "$OUT/n_coop.txt" 2 "$BUILD" "4096x4104x4096 4096x4224x4096 4096x4280x4096 4096x4352x4096" \
    "old/step10_autotune --no-cache --config 128x256c --mode dp" "step10_autotune --no-cache --config 128x256c --mode dp"
  variant_times_summary "$OUT/n_coop.txt" | tee "$OUT/n_coop_summary.txt" ;;
picks)
  variant_rotated_rounds "$OUT/picks.txt" 3 "$BUILD" \
    "136x4096x4096 200x4096x4096 300x4096x4096 520x4096x4096 600x8192x2048 999x2048x4096 1032x4096x4096 1100x1600x2048 1500x1500x1500 2100x7168x4096 3001x4096x2048 3000x3000x3000 4000x3000x4168 4000x4096x4096" \
    "old/step10_autotune --no-cache" "step10_autotune --no-cache"
  variant_ratios_summary "$OUT/picks.txt" | tee "$OUT/picks_summary.txt" ;;
level)
  variant_rotated_rounds "$OUT/level.txt" 4 "$BUILD" "512x512x512 1024x1024x1024 4096x4096x4096" \
    "old/step10_autotune --no-cache" "step10_autotune --no-cache"
  variant_ratios_summary "$OUT/level.txt" | tee "$OUT/level_summary.txt" ;;
picks2)
  variant_rotated_rounds "$OUT/picks2.txt" 2 "$BUILD" "$(grep -v '^#' "$HERE/tune_shapes.txt" | tr '\n' ' ')" \
    "old/step10_autotune --no-cache" "step10_autotune --no-cache"
  variant_ratios_summary "$OUT/picks2.txt" | tee "$OUT/picks2_summary.txt" ;;
tune)
  for sh in $(grep -v '^#' "$HERE/tune_shapes.txt"); do variant_tune "$BUILD/step10_autotune" "$OUT/tune.txt" "$sh"; done
  grep -h "^==\|^tune: [0-9]\|configuration:" "$OUT/tune.txt" | cut -c1-120 ;;
checks)
  variant_checks "$BUILD/step10_autotune" "$OUT/checks.txt" 64x64 64x128 128x128 128x192 128x256c
  variant_check_grid "$BUILD/step10_autotune" "$OUT/checks.txt" \
    "4224x4352x136 640x1001x520 1032x1000x520 1090x640x136 1150x4104x264 130x8192x72 300x300x1000 33x4096x520 65x300x64 2000x4104x264 1000x4280x136 2100x200x520" \
    "dp sk" 64x64 64x128 128x128 128x192 128x256c
  echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")" ;;
ncu)
  command -v ncu > /dev/null 2>&1 || { echo "no ncu"; continue; }
  M=gpu__time_duration.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,lts__t_sectors_op_read.sum,lts__t_sector_op_read_hit_rate.pct
  for sh in "300 4096 4096" "160 8192 4096"; do for b in old/step10_autotune step10_autotune; do
    set -- $sh
    echo "== $b ${1}x${2}x${3} 128x128/dp"
    timeout 120 ncu --metrics $M --kernel-name-base function --kernel-name regex:pingpong --launch-skip 3 --launch-count 1 \
      "$BUILD/$b" --m "$1" --n "$2" --k "$3" --no-check --no-cache --config 128x128 --mode dp --iters 3 --warmup 1 2>&1 |
      grep -E "^  [a-zA-Z_]|  (gpu__|sm__|lts__|dram__)"
  done; done > "$OUT/ncu.txt"; cut -c1-140 "$OUT/ncu.txt" ;;
*) echo "run.sh: unknown part $part"; exit 2 ;;
esac; done
echo "== done $(date +%T)"
