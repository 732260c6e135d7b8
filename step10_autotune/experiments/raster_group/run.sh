#!/bin/sh
# raster_group/run.sh: do the shapes where step 10 sits at 0.995-0.998 of cuBLAS (session 16's
# record, 9ed688f) move with the raster group?  The grouped raster (cluster_schedule.h) walks
# a wave's cluster tiles across M in groups of --group tiles (default 8): the group sets how
# many rows of A and columns of B a wave touches, so how much of them the L2 keeps between
# tiles.  Step 10's model picks the tile and the plan, never the group.
#
#   sh step10_autotune/experiments/raster_group/run.sh BUILD OUT
#
# Builds BUILD/step10_autotune from the tree (PREBUILT=1: use the one there), then 3 rotated
# rounds at six shapes of the model's pick with --group 4, 8 (the default) and 16, each
# run interleaved with cuBLAS in its own process (its ratio is the comparison).  Exits 3
# without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
mkdir -p "$OUT" "$BUILD"
. "$(dirname "$0")/../variant.sh"
[ "${PREBUILT:-0}" = 1 ] || make -s step10 BUILD="$BUILD" || exit 1
variant_need_gpu raster_group "$BUILD/step10_autotune"
L=$OUT/raster_group.txt
: > "$L"
variant_rotated_rounds "$L" 3 "$BUILD" \
  "512x14336x4096 1024x14336x4096 2048x2048x2048 2048x4096x4096 1024x4096x14336 4096x14336x4096" \
  "step10_autotune --no-cache --group 8" "step10_autotune --no-cache --group 4" \
  "step10_autotune --no-cache --group 16"
# the median ratio per shape and group, over the rounds
awk '/^r[0-9]/ { sh = $2; g = $6; sub(/:$/, "", g); for (i = 1; i <= NF; i++) if ($i == "ratio") v = $(i + 1);
                 n[sh " " g]++; r[sh " " g, n[sh " " g]] = v }
     END { for (k in n) { c = n[k]; for (i = 1; i <= c; i++) a[i] = r[k, i];
                          for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                          printf "%s: median %.3f over %d (%s", k, a[int((c + 1) / 2)], c, a[1]; for (i = 2; i <= c; i++) printf " %s", a[i]; print ")" } }' \
  "$L" | sort > "$OUT/raster_group_summary.txt"
cat "$OUT/raster_group_summary.txt"
