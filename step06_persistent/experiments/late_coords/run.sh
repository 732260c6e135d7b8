#!/bin/sh
# late_coords/run.sh BUILD OUT [OLD08]: does asking for a unit's tile coordinates after the
# consumers' mainloop (the k range before it) close what is left of the refactor's loss in
# steps 06 and 08 (step 06's NOTES, "The cause, bisected"), and does it speed step 10's
# cooperative tile, whose epilogue is exposed as step 06's is?
#
#   sh step06_persistent/experiments/old_kernel_port/variants.sh BUILD/v    # the port (once)
#   sh step06_persistent/experiments/late_coords/run.sh BUILD OUT [OLD08]
#
# Builds BUILD/late/{step06_persistent,step08_cluster_multicast,step10_autotune}: this
# tree's kernel.cu with late_patch.py applied, against this tree's common/ (make builds
# the tree's own binaries into BUILD).  Then, on the GPU, --no-check, each process the
# harness's median against cuBLAS:
#   step 06: the port of 585cb90's kernel (BUILD/v/port), this tree's, the late build,
#            alternated (old_kernel_port/alternate.sh), 4 rounds at the three guard shapes;
#   step 08: OLD08's step 08 (585cb90's, built with its own harness: build/guard_old3)
#            if given, this tree's, the late build, the same way;
#   step 10: this tree's and the late build, 128x256c/dp forced at four shapes and the
#            model's pick at two, 3 rounds (variant_rounds), and every configuration
#            and plan of the late build checked at odd shapes (variant_checks).
# PREBUILT=1 skips nvcc (binaries carried from the machine that built them).  Exits 3
# without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT [OLD08]}; OUT=${2:?usage: run.sh BUILD OUT [OLD08]}; OLD08=${3:-}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD/late"
if [ "${PREBUILT:-0}" != 1 ]; then
    make -s step06 step08 step10 BUILD="$BUILD" || exit 1
    objs="$BUILD/common/args.o $BUILD/common/csv.o $BUILD/common/tma.o $BUILD/common/tune_cache.o"
    for s in step06_persistent:06 step08_cluster_multicast:08 step10_autotune:10; do
        d=${s%%:*}; n=${s#*:}
        python3 "$HERE/late_patch.py" "$d/kernel.cu" "$BUILD/late/kernel$n.cu" "$n" || exit 1
        # shellcheck disable=SC2086  # objs is a list of words
        nvcc -O3 -std=c++17 -lineinfo -Icommon -I"$d" -DGIT_REV="\"late\"" -Xptxas -warn-spills,-warn-lmem-usage \
             -gencode=arch=compute_90a,code=sm_90a "$BUILD/late/kernel$n.cu" $objs -lcublas -lcudart -ldl \
             -o "$BUILD/late/$d" || exit 1
    done
fi
nvidia-smi > /dev/null 2>&1 || { echo "late_coords: built $BUILD/late; no GPU here"; exit 3; }
[ -x "$BUILD/v/port/step06_persistent" ] || { echo "late_coords: no port in $BUILD/v (run old_kernel_port/variants.sh $BUILD/v)"; exit 1; }
GUARD="4096,14336,4096 4096,4096,14336 4096,4096,4096"
ALT=$(dirname "$HERE")/old_kernel_port/alternate.sh
sh "$ALT" "$OUT/step06" step06_persistent "$GUARD" "$BUILD/v/port" "$BUILD" "$BUILD/late" > /dev/null
if [ -n "$OLD08" ]; then
    sh "$ALT" "$OUT/step08" step08_cluster_multicast "$GUARD" "$OLD08" "$BUILD" "$BUILD/late" > /dev/null
else
    sh "$ALT" "$OUT/step08" step08_cluster_multicast "$GUARD" "$BUILD" "$BUILD/late" > /dev/null
fi
. step10_autotune/experiments/variant.sh
L=$OUT/step10.txt; : > "$L"
variant_checks "$BUILD/late/step10_autotune" "$L" 64x128 128x128 128x192 128x256c
F="--no-cache --config 128x256c --mode dp"
for r in $(seq 1 "${ROUNDS10:-3}"); do   # the tree's build first in odd rounds, the late one in even
    echo "== round $r" >> "$L"
    A="step10_autotune $F"; B="late/step10_autotune $F"; C="step10_autotune --no-cache"; D="late/step10_autotune --no-cache"
    [ $((r % 2)) -eq 0 ] && { A="late/step10_autotune $F"; B="step10_autotune $F"; C="late/step10_autotune --no-cache"; D="step10_autotune --no-cache"; }
    variant_rounds "$L" 1 "$BUILD" "4096x4096x4096 4096x4096x14336 8192x4096x4096 2048x4096x14336" "$A" "$B"
    variant_rounds "$L" 1 "$BUILD" "512x4096x4096 1024x1024x14336" "$C" "$D"
done
cat "$OUT/step06/alternate_table.txt" "$OUT/step08/alternate_table.txt"
grep -c "rc=0" "$L" | sed 's/^/step 10 late checks with rc=0: /'
