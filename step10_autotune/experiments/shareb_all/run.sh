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
. "$(dirname "$0")/../variant.sh"
REFERENCE=1 variant_build shareb_all "$SRC" "$BUILD/step10_shareb_all"
variant_need_gpu shareb_all "$BUILD/step10_shareb_all"
L=$OUT/shareb_all.txt
variant_checks "$BUILD/step10_shareb_all" "$L" 64x128 128x128 128x192
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
