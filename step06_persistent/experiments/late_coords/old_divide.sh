#!/bin/sh
# late_coords/old_divide.sh BUILD OUT [OLD08]: steps 08 and 10 with the scheduler's plain
# division (the persistent_schedule.h of before 6c7e529), as this tree's kernel and with
# late_patch.py, against this tree's builds (the multiply-and-shift division).  Session 10
# found step 06 fastest that way (late with the plain division, NOTES.md); is the same true
# of the pingpong and cooperative kernels after it?
#
#   sh step06_persistent/experiments/old_kernel_port/variants.sh BUILD/v   # the old scheduler's copy
#   sh step06_persistent/experiments/late_coords/run.sh BUILD OUT1          # this tree's and late builds
#   sh step06_persistent/experiments/late_coords/old_divide.sh BUILD OUT [OLD08]
#
# Builds BUILD/olddiv/{new,late}/{step08_cluster_multicast,step10_autotune} against
# BUILD/v/port/common (PREBUILT=1 skips nvcc).  On the GPU: step 08's three builds (and
# OLD08's, if given) alternated with old_kernel_port/alternate.sh, 4 rounds at the guard's
# three shapes; step 10's three builds alternated, 3 rounds, the model's pick at seven bench
# shapes.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: old_divide.sh BUILD OUT [OLD08]}; OUT=${2:?usage: old_divide.sh BUILD OUT [OLD08]}; OLD08=${3:-}
HERE=$(dirname "$0"); ALT=$(dirname "$HERE")/old_kernel_port/alternate.sh
OLDC=$BUILD/v/port/common
mkdir -p "$OUT" "$BUILD/olddiv/new" "$BUILD/olddiv/late"
if [ "${PREBUILT:-0}" != 1 ]; then
    [ -f "$OLDC/persistent_schedule.h" ] || { echo "old_divide: no $OLDC (run old_kernel_port/variants.sh $BUILD/v)"; exit 1; }
    objs="$BUILD/common/args.o $BUILD/common/csv.o $BUILD/common/tma.o $BUILD/common/tune_cache.o"
    for s in step08_cluster_multicast:08 step10_autotune:10; do
        d=${s%%:*}; n=${s#*:}
        python3 "$HERE/late_patch.py" "$d/kernel.cu" "$BUILD/olddiv/late/kernel$n.cu" "$n" || exit 1
        for v in new late; do
            src=$d/kernel.cu; [ $v = late ] && src=$BUILD/olddiv/late/kernel$n.cu
            # shellcheck disable=SC2086  # objs is a list of words
            nvcc -O3 -std=c++17 -lineinfo -I"$OLDC" -I"$d" -DGIT_REV="\"olddiv_$v\"" -gencode=arch=compute_90a,code=sm_90a \
                 "$src" $objs -lcublas -lcudart -ldl -o "$BUILD/olddiv/$v/$d" || exit 1
        done
    done
fi
nvidia-smi > /dev/null 2>&1 || { echo "old_divide: built $BUILD/olddiv; no GPU here"; exit 3; }
GUARD="4096,14336,4096 4096,4096,14336 4096,4096,4096"
# shellcheck disable=SC2086  # OLD08 is one folder or nothing
sh "$ALT" "$OUT/step08" step08_cluster_multicast "$GUARD" $OLD08 "$BUILD" "$BUILD/olddiv/new" "$BUILD/olddiv/late" > /dev/null
ROUNDS=3 FLAGS=--no-cache sh "$ALT" "$OUT/step10" step10_autotune \
    "4096,4096,4096 8192,4096,4096 6144,6144,6144 4096,4096,14336 2048,4096,4096 512,4096,4096 8192,8192,8192" \
    "$BUILD" "$BUILD/olddiv/new" "$BUILD/olddiv/late" > /dev/null
cat "$OUT/step08/alternate_table.txt" "$OUT/step10/alternate_table.txt"
