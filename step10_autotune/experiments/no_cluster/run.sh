#!/bin/sh
# no_cluster/run.sh: does the cluster of two cost step 10 the M = 512 shapes?
# At 512 x 4096 x 4096 step 07 (pingpong, no cluster) reads 0.98 of cuBLAS and
# step 08 (the same tile in clusters of two sharing A) 0.95; step 10 reads 0.95
# and CUTLASS's step 05 peer (no cluster) 0.97 (README.md's table).
#
#   sh step10_autotune/experiments/no_cluster/run.sh BUILD OUT
#
# Builds BUILD/step10_nocluster: step 10's kernel.cu with CLUSTER_SIZE 1 (every
# configuration launched in clusters of one: each CTA loads its whole A and B
# boxes, the "multicast" goes to itself, and the release to a partner is left
# out), then alternates it with BUILD/step10_autotune (the tree's build), the
# same configuration and plan forced, 3 rounds, and checks it at odd shapes.
# PREBUILT=1 skips nvcc (the binaries were built from this tree).  Exits 3
# without a GPU after building.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
mkdir -p "$OUT" "$BUILD"
SRC=$BUILD/kernel_nocluster.cu
sed -e 's/^#define CLUSTER_SIZE 2$/#define CLUSTER_SIZE 1/' \
    -e 's/^    if (remote) mbar_arrive_cluster(&empty\[slot\], peer);$/    if (remote \&\& CLUSTER_SIZE > 1) mbar_arrive_cluster(\&empty[slot], peer);/' \
    step10_autotune/kernel.cu > "$SRC"
grep -q '^#define CLUSTER_SIZE 1$' "$SRC" && grep -q 'if (remote && CLUSTER_SIZE > 1) mbar_arrive_cluster' "$SRC" ||
  { echo "no_cluster: kernel.cu changed; the patch no longer applies"; exit 1; }
if [ "${PREBUILT:-0}" != 1 ]; then
  OBJS="$BUILD/common/args.o $BUILD/common/csv.o $BUILD/common/tma.o $BUILD/common/tune_cache.o"
  # shellcheck disable=SC2086  # OBJS is a list of words
  make -s $OBJS BUILD="$BUILD" 2>/dev/null
  nvcc -O3 -std=c++17 -Icommon -Istep10_autotune -DGIT_REV='"no_cluster"' -gencode=arch=compute_90a,code=sm_90a \
       "$SRC" $OBJS -lcublas -lcudart -ldl \
       -o "$BUILD/step10_nocluster" || exit 1
  make -s step10 BUILD="$BUILD" || exit 1
fi
nvidia-smi > /dev/null 2>&1 || { echo "no_cluster: built $BUILD/step10_nocluster; no GPU here"; exit 3; }
L=$OUT/no_cluster.txt
for sh in 77x200x136 130x66x8 513x4097x200 1000x1000x1000 1100x4096x4168; do
  m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
  exact=""; [ "$k" -le 256 ] && exact=--exact
  for c in 128x128 128x256c; do for mode in dp sk; do
    timeout 60 "$BUILD/step10_nocluster" --m $m --n $n --k $k --no-cache --config $c --mode $mode $exact > "$OUT/check.log" 2>&1
    echo "check $sh $c/$mode rc=$? $(grep -h 'check' "$OUT/check.log" | head -1 | sed 's/.*| check/check/')" >> "$L"
  done; done
done
for r in 1 2 3; do
  for sh in 512x4096x4096 512x4096x14336 512x14336x4096 1024x4096x4096 4096x4096x4096; do
    m=${sh%%x*}; rest=${sh#*x}; n=${rest%%x*}; k=${rest#*x}
    for c in 128x128 128x256c; do for b in step10_autotune step10_nocluster; do
      echo "r$r $sh $c $b: $("$BUILD/$b" --m $m --n $n --k $k --no-cache --no-check --config $c --mode dp 2>&1 | grep ratio | sed 's/.*stages=[0-9]*: //' | cut -c1-100)" >> "$L"
    done; done
  done
done
