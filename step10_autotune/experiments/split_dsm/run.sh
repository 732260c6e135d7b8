#!/bin/sh
# split_dsm/run.sh BUILD OUT: does a split-K through distributed shared memory close
# 512^3 or 1024^3?  Under split, a cluster's two CTAs take ONE tile, half its k-tiles
# each (no multicast), and add their halves through each other's shared memory
# (st.async into the partner's ring, counted on an mbarrier): twice the CTAs, half the
# k-tiles per CTA, no global-memory fixup.  split.patch is the whole implementation
# (kernel.cu, chooser.h, --mode split in common/args.c, the wrappers in common/, the
# CPU and GPU tests); this script applies it to a copy of 878e970's tree under BUILD and
# builds step 10 there, then on a GPU: forced --mode split checks against cuBLAS (each pingpong
# configuration; odd edges, 2, 3 and 65 k-tiles, masked stores, --exact), 3 rounds of
# that tree's 64x128/dp against split at 512^3, 768^3 and 1024^3, and traced launches.
#   sh step10_autotune/experiments/split_dsm/run.sh build/x $OUT      (exit 3 without a GPU)
# PREBUILT=1: BUILD/split_dsm/step10_autotune and BUILD/step10_autotune came with BUILD.
# The answer (logs/, NOTES.md "Session 12"): no.  +2.5% at 512^3, 11-13% behind at 768^3 and 1024^3.
B=${1:?usage: run.sh BUILD OUT}
O=${2:?usage: run.sh BUILD OUT}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$O" "$B" || exit 1
absb=$(cd "$B" && pwd)
# split.patch was written against 878e970's tree (session 12); later trees moved the lines it
# edits (the lean kernel, 64x64), so both builds come from that tree, patched and not.
base=878e970
if [ "${PREBUILT:-0}" != 1 ]; then
    src=$absb/split_dsm_src ref=$absb/split_dsm_ref
    rm -rf "$src" "$ref" && mkdir -p "$src" "$ref" || exit 1
    git -C "$(git -C "$here" rev-parse --show-toplevel)" archive "$base" Makefile common step10_autotune tests | tar -x -C "$src" || exit 1
    cp -r "$src"/. "$ref"/ || exit 1
    patch -s -d "$src" -p1 < "$here/split.patch" || { echo "split_dsm: split.patch no longer applies to $base"; exit 1; }
    make -s -C "$src" step10 BUILD="$absb/split_dsm" || exit 1
    make -s -C "$ref" step10 BUILD="$absb" || exit 1
fi
bin=$B/split_dsm/step10_autotune
nvidia-smi > /dev/null 2>&1 || { echo "split_dsm: built $bin; no GPU here"; exit 3; }
for cfg in 64x128 128x128 128x192; do
    for sh in "512 512 512" "77 130 72" "300 500 136" "257 250 200" "640 384 4104" "700 500 1000"; do
        set -- $sh
        out=$(timeout 30 "$bin" --m "$1" --n "$2" --k "$3" --config $cfg --mode split --no-cache --iters 3 --warmup 1 2>&1)
        echo "$cfg $sh rc=$? $(echo "$out" | grep check | sed 's/.*ratio/ratio/')" >> "$O/checks.txt"
    done
done
out=$(timeout 30 "$bin" --m 256 --n 256 --k 256 --exact --config 128x128 --mode split --no-cache 2>&1)
echo "exact rc=$? $(echo "$out" | grep check)" >> "$O/checks.txt"
for r in 1 2 3; do
    for v in "512 512 512 $B/step10_autotune 64x128 dp" "512 512 512 $bin 64x128 split" "512 512 512 $bin 128x128 split" \
             "768 768 768 $B/step10_autotune 64x128 dp" "768 768 768 $bin 128x128 split" \
             "1024 1024 1024 $B/step10_autotune 64x128 dp" "1024 1024 1024 $bin 128x128 split" "1024 1024 1024 $bin 128x192 split"; do
        set -- $v
        echo "r$r $1x$2x$3 $4 $5/$6: $(timeout 30 "$4" --m "$1" --n "$2" --k "$3" --config "$5" --mode "$6" --no-cache --no-check 2>&1 | grep -o 'stages=.*ratio [0-9.]*')" >> "$O/ab.txt"
    done
done
"$bin" --m 512 --n 512 --k 512 --config 64x128 --mode split --no-cache --trace "$O/trace_512_split.csv" > /dev/null
"$bin" --m 512 --n 512 --k 512 --config 64x128 --mode dp --no-cache --trace "$O/trace_512_dp.csv" > /dev/null
"$bin" --m 1024 --n 1024 --k 1024 --config 128x128 --mode split --no-cache --trace "$O/trace_1024_split.csv" > /dev/null
echo "split_dsm: $O/checks.txt, $O/ab.txt, $O/trace_*.csv"
