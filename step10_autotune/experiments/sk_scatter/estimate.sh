#!/bin/sh
# sk_scatter/estimate.sh EXPLAIN SMS L2_BYTES DRAM_GBS TUNE_LOG...: does textbook stream-K's k-tile cost what the
# model charges it (CHOOSER_SK_SCATTER, 1.067 over a whole tile's k-tile, fitted on the H100)?  No GPU.
#
# Session 25's model misses at tune_shapes.txt (shared_edge/) were both dp against sk, off by that factor.
# For every configuration with both a dp and an sk candidate in a `--tune` log (one process per shape, as
# experiments/variant.sh's variant_tune writes them: <bin>_<MxNxK>.log, or its LOG with every shape), this prints the measured times,
# the busiest cluster's k-tiles of each plan from the model (EXPLAIN: experiments/decode/explain.c built
# against the tree's chooser.h, given the device's SM count, L2 bytes and DRAM GB/s), and the measured
# cost of one sk k-tile over one dp k-tile, (t_sk - T0) / kt_sk over (t_dp - T0) / kt_dp, T0 the model's
# fixed cost (CHOOSER_T0_US); beside it the model's sk/dp and the measured sk/dp.
#   nvcc -O2 -Icommon -Istep10_autotune step10_autotune/experiments/decode/explain.c -o build/explain
#   sh step10_autotune/experiments/sk_scatter/estimate.sh build/explain 132 62914560 4814.3 LOGS...
set -u
EXPLAIN=${1:?usage: estimate.sh EXPLAIN SMS L2_BYTES DRAM_GBS TUNE_LOG...}; SMS=$2; L2=$3; BW=$4; shift 4
T0=$(sed -n 's/^#define CHOOSER_T0_US \([0-9.]*\).*/\1/p' step10_autotune/chooser.h)
# a variant_tune LOG ("== MxNxK rc=N" then that shape's tune: lines) is split into one file per shape
TMP=$(mktemp -d) && trap 'rm -rf "$TMP"' EXIT
for f in "$@"; do
  if grep -q '^== [0-9]*x[0-9]*x[0-9]* ' "$f"; then
    awk -v d="$TMP" '/^== [0-9]+x[0-9]+x[0-9]+ / { o = d "/run_" $2 ".log"; next } o { print > o }' "$f"
  else cp "$f" "$TMP/"; fi
done
for f in "$TMP"/*.log; do
  sh=$(basename "$f" .log | sed 's/.*_\([0-9]*x[0-9]*x[0-9]*\)$/\1/')
  ex=$(echo "$sh" | tr x ' ' | "$EXPLAIN" "$SMS" "$L2" "$BW" 2>&1)
  for c in 64x64 64x128 128x128 128x192 128x256c; do
    td=$(grep "^tune: $c/dp " "$f" | awk '{print $3}'); ts=$(grep "^tune: $c/sk " "$f" | awk '{print $3}')
    bd=$(echo "$ex" | awk -v k="$c/dp" '$1 == k {print $6}'); bs=$(echo "$ex" | awk -v k="$c/sk" '$1 == k {print $6}')
    pd=$(echo "$ex" | awk -v k="$c/dp" '$1 == k {print $9}'); ps=$(echo "$ex" | awk -v k="$c/sk" '$1 == k {print $9}')
    [ -n "$td" ] && [ -n "$ts" ] && [ -n "$bd" ] && [ -n "$bs" ] || continue
    awk -v sh="$sh" -v c="$c" -v td="$td" -v ts="$ts" -v bd="$bd" -v bs="$bs" -v pd="$pd" -v ps="$ps" -v t0="$T0" \
      'BEGIN { t0 /= 1000; x = ((ts - t0) / bs) / ((td - t0) / bd)
               printf "%-18s %-9s dp %.4f ms %5d kt  sk %.4f ms %5d kt  sk k-tile / dp k-tile %.3f  model sk/dp %.3f  measured sk/dp %.3f\n",
                      sh, c, td, bd, ts, bs, x, ps / pd, ts / td }'
  done
done > "$TMP/rows.txt"
cat "$TMP/rows.txt"
# per configuration: the shapes, and the median and range of one sk k-tile over one dp k-tile
echo "per configuration (sk k-tile / dp k-tile; the model charges $(sed -n 's/^#define CHOOSER_SK_SCATTER \([0-9.]*\).*/\1/p' step10_autotune/chooser.h) for every one):"
for c in 64x64 64x128 128x128 128x192 128x256c; do
  awk -v c="$c" '$2 == c { print $18 }' "$TMP/rows.txt" | sort -n |
    awk -v c="$c" '{ v[NR] = $1 } END { if (NR) printf "  %-9s %2d shapes  median %.3f  range %.3f-%.3f\n", c, NR, (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR] }'
done
