#!/bin/sh
# old_kernel_port/port.sh BUILD: step 06's kernel of 585cb90 (before issue 22's work-unit
# refactor) under THIS tree's harness, as BUILD/port/step06_persistent, so that the guard
# can time old and new kernels under one harness (NOTES.md, "The old kernel under this
# harness").  The device code is 585cb90's, unchanged but for two lines: its scheduler
# header's new name (tile_scheduler.h became persistent_schedule.h) and gemm_params, a
# struct 585cb90 kept in common/gemm_launch.cuh; the host half is host_glue.cu.  Then
# tests/sass_compare.sh against OLD_SASS_DIR (default build/guard_old3: the guard's old
# build), which must report the kernels SAME, or the port is not the old kernel.
# No GPU needed.
#
# The scheduler is built as it was before 6c7e529 (SCHED_REV, default 6c7e529^), which made
# tile_sched_coords divide by a multiply and shifts: a copy of common/ with that revision's
# persistent_schedule.h, in OUTD/common, used for this build alone (a quoted #include looks
# in the including file's folder first, so the whole folder is copied).  variants.sh builds
# the other bisection builds against the same copy.
set -u
BUILD=${1:?usage: port.sh BUILD [OLD_SASS_DIR]}; OLD=${2:-build/guard_old3}
HERE=$(dirname "$0")
OUTD=$BUILD/port; mkdir -p "$OUTD"
rm -rf "$OUTD/common" && cp -r common "$OUTD/common" &&
  git show "${SCHED_REV:-6c7e529^}:common/persistent_schedule.h" > "$OUTD/common/persistent_schedule.h" || exit 1
SRC=$OUTD/kernel_585cb90.cu
git show 585cb90:step06_persistent/kernel.cu > "$OUTD/orig.cu" || exit 1
n=$(grep -n '^/\* ---- host: only what differs' "$OUTD/orig.cu" | cut -d: -f1)
[ -n "$n" ] || { echo "port: 585cb90's host section not found"; exit 1; }
head -n $((n - 1)) "$OUTD/orig.cu" | sed 's/#include "tile_scheduler.h"/#include "persistent_schedule.h"/' |
  awk '{print} /^#include "wgmma_desc.h"$/ {
         print "\n/* 585cb90 kept this in common/gemm_launch.cuh (the old kernel takes it by value). */"
         print "typedef struct {\n    tile_sched sched;\n    int use_tma_store;\n} gemm_params;" }' > "$SRC"
cat "$HERE/host_glue.cu" >> "$SRC"
make -s "$BUILD/common/args.o" "$BUILD/common/csv.o" "$BUILD/common/tma.o" "$BUILD/common/tune_cache.o" BUILD="$BUILD" || exit 1
nvcc -O3 -std=c++17 -lineinfo -I"$OUTD/common" -DGIT_REV='"585cb90k"' -Xptxas -warn-spills,-warn-lmem-usage \
     -gencode=arch=compute_90a,code=sm_90a "$SRC" "$BUILD/common/args.o" "$BUILD/common/csv.o" \
     "$BUILD/common/tma.o" "$BUILD/common/tune_cache.o" -lcublas -lcudart -ldl -o "$OUTD/step06_persistent" || exit 1
if [ -x "$OLD/step06_persistent" ]; then
  cmp=$(bash tests/sass_compare.sh "$OLD" "$OUTD" 2>&1 | grep -A8 "== step06_persistent persistent_kernel")
  echo "$cmp" | grep -E "==|stream"
  n=$(echo "$cmp" | grep -c "stream: identical")
  [ "$n" -eq 2 ] || { echo "port: the ported kernels' SASS is not the old build's"; exit 1; }
else
  echo "port: no $OLD/step06_persistent to compare the SASS with"
fi
