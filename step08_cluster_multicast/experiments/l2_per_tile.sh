#!/bin/bash
# l2_per_tile.sh — what does multicasting A do to the traffic between the
# SMs, the two L2 halves and DRAM?  ncu's L2 requests and sectors from the
# SMs, sectors through the L2 fabric (the other half), DRAM bytes read and
# the L2 hit rate of one launch of steps 07 and 08 at 4096^3 and 8192^3
# (ncu holds the clock: compare counts, and times only at that clock).
# NOTES.md divides the counts by the tiles (1024 and 4096).  This is part 4
# of final.sh, which printed l2_per_tile_ncu.log at git d0d448e (README.md).
#
#   make step07 step08
#   OUT=/tmp/out bash step08_cluster_multicast/experiments/l2_per_tile.sh   (GPU, ncu)
#
# Appends to $OUT/l2_per_tile_ncu.log.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=${BUILD:-build}
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M="gpu__time_duration.sum,dram__bytes_read.sum,lts__t_requests_srcunit_tex.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sector_hit_rate.pct"
for b in step07_pingpong step08_cluster_multicast; do
  for s in "4096 4096 4096" "8192 8192 8192"; do set -- $s
    echo "--- $b $s" >> "$OUT/l2_per_tile_ncu.log"
    timeout 120 $NCU --metrics $M -k regex:pingpong_kernel --launch-skip 3 --launch-count 1 \
      $B/$b --m $1 --n $2 --k $3 --iters 3 --warmup 1 --no-check 2>&1 | grep -E "^\s+(gpu__|dram__|lts__)" >> "$OUT/l2_per_tile_ncu.log"
  done
done
cat "$OUT/l2_per_tile_ncu.log"
