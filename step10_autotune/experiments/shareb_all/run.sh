#!/bin/sh
# shareb_all/run.sh: would the pingpong tiles gain from pairs along M that
# share B, as 128x256c does?  At 512 x 4096 x 4096 B is 8x the bytes of A,
# cuBLAS's kernel pairs its CTAs 2 x 1, and ncu reads step 10's 128x128 5%
# more cycles than step 07's unclustered kernel (small_ncu/logs/).
#
#   sh step10_autotune/experiments/shareb_all/run.sh BUILD OUT
#
# Builds BUILD/step10_shareb_all: step 10's kernel.cu with SHARE_B 1 for every
# configuration (each CTA loads its whole A box and half of B's, multicasts
# the half; the pair lies along M), then checks it at odd shapes (dp and sk,
# --exact where K <= 256) and alternates it with BUILD/step10_autotune (this
# tree's build), the same configuration forced, 3 rounds.  PREBUILT=1 skips
# nvcc.  Exits 3 without a GPU after building.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
mkdir -p "$OUT" "$BUILD"
SRC=$BUILD/kernel_shareb_all.cu
sed -e 's|^#define SHARE_B (TILE_WGS == 2) .*$|#define SHARE_B 1|' step10_autotune/kernel.cu > "$SRC"
grep -q '^#define SHARE_B 1$' "$SRC" || { echo "shareb_all: kernel.cu changed; the patch no longer applies"; exit 1; }
if [ "${PREBUILT:-0}" != 1 ]; then
  OBJS="$BUILD/common/args.o $BUILD/common/csv.o $BUILD/common/tma.o $BUILD/common/tune_cache.o"
  # shellcheck disable=SC2086  # OBJS is a list of words
  make -s $OBJS BUILD="$BUILD" 2>/dev/null
  nvcc -O3 -std=c++17 -Icommon -Istep10_autotune -DGIT_REV='"shareb_all"' -gencode=arch=compute_90a,code=sm_90a \
       "$SRC" $OBJS -lcublas -lcudart -ldl \
       -o "$BUILD/step10_shareb_all" || exit 1
  make -s step10 BUILD="$BUILD" || exit 1
fi
nvidia-smi > /dev/null 2>&1 || { echo "shareb_all: built $BUILD/step10_shareb_all; no GPU here"; exit 3; }
L=$OUT/shareb_all.txt
for sh in 77x200x136 130x66x8 513x4097x200 1000x1000x1000 1100x4096x4168; do
  m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
  exact=""; [ "$k" -le 256 ] && exact=--exact
  for c in 64x128 128x128 128x192; do for mode in dp sk; do
    timeout 60 "$BUILD/step10_shareb_all" --m $m --n $n --k $k --no-cache --config $c --mode $mode $exact > "$OUT/check.log" 2>&1
    echo "check $sh $c/$mode rc=$? $(grep -h 'check' "$OUT/check.log" | head -1 | sed 's/.*| check/check/')" >> "$L"
  done; done
done
for r in 1 2 3; do
  for sc in 512x4096x4096:128x128 512x4096x14336:128x128 1024x4096x4096:128x128 2048x2048x2048:128x128 \
            4096x4096x4096:128x128 1024x1024x1024:64x128 8192x4096x4096:128x192; do
    sh=${sc%%:*}; c=${sc#*:}
    m=${sh%%x*}; rest=${sh#*x}; n=${rest%%x*}; k=${rest#*x}
    for b in step10_autotune step10_shareb_all; do
      echo "r$r $sh $c $b: $("$BUILD/$b" --m $m --n $n --k $k --no-cache --no-check --config $c --mode dp 2>&1 | grep ratio | sed 's/.*stages=[0-9]*: //' | cut -c1-100)" >> "$L"
    done
  done
done
rm -f "$OUT/check.log"
