#!/bin/sh
# fixed_cost/cluster_arrive.sh BUILD OUT: does the start-up cluster barrier cost the fixed time
# stamps.sh finds before the first load?  Until session 10 steps 08-10 started with a
# cluster barrier whose arrive had the default .release semantics, which ptxas compiles to
# MEMBAR.ALL.CTA, MEMBAR.ALL.GPU, ERRBAR and CGAERRBAR in front of UCGABAR_ARV in every
# thread.  The barrier init is already released to the cluster by
# fence.mbarrier_init.release.cluster (mbar_fence_init), the pairing the PTX ISA gives for
# barrier.cluster.arrive.relaxed, so the tree now arrives relaxed (cluster_sync_after_init).
# Builds step 10 with the release arrive back (BUILD/release/step10_autotune), then on the
# GPU, the tree's build (relaxed) against it:
#   - run.sh's fixed-cost fit (CUPTI, 512 x 4096 x K, K = 64 ... 4096) for both builds;
#   - the two builds alternated, 3 rounds, the order swapped each round, the model's pick at
#     eight shapes (OUT/rounds.txt);
#   - the tree's build checked at odd shapes, every configuration and plan (OUT/checks.txt).
# The log in logs/relaxed/ came from this script's first form, with the patch the other
# way (the tree then had the release arrive; "relaxed/" was the patched build).
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: cluster_arrive.sh BUILD OUT}; OUT=${2:?usage: cluster_arrive.sh BUILD OUT}
HERE=$(dirname "$0"); GAP=$HERE/../launch_gap
mkdir -p "$OUT" "$BUILD/release"
. "$HERE/../variant.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  sed 's/^    cluster_sync_after_init();$/    cluster_arrive();   \/* experiment: the release arrive of before session 10 *\/\n    cluster_wait();/' \
      step10_autotune/kernel.cu > "$BUILD/release/kernel.cu"
  grep -q '^    cluster_arrive();   /\* experiment' "$BUILD/release/kernel.cu" ||
    { echo "cluster_arrive: kernel.cu changed; the patch no longer applies"; exit 1; }
  variant_build release "$BUILD/release/kernel.cu" "$BUILD/release/step10_autotune"
fi
variant_need_gpu cluster_arrive "$BUILD/release/step10_autotune"
CUDA=$(dirname "$(dirname "$(command -v nvcc)")")
cc -O2 -shared -fPIC -I"$CUDA/include" "$GAP/kernel_times.c" -L"$CUDA/lib64" -lcupti -o "$OUT/kernel_times.so" || exit 1
R=$OUT/runs.txt; : > "$R"
for k in 64 256 1024 4096; do
  for b in step10_autotune release/step10_autotune; do
    CUDA_INJECTION64_PATH="$OUT/kernel_times.so" KERNEL_TIMES_OUT="$OUT/k.csv" \
      "$BUILD/$b" --m 512 --n 4096 --k $k --no-check --no-cache --config 128x128 --mode dp > "$OUT/one.log" 2>&1
    awk -F, -f "$GAP/launch_gap.awk" "$OUT/k.csv" |
      awk -v b="$b" -v k=$k '$1 == "step" || $1 == "cublas" { printf "%s %s %d %s\n", b, $1, k, $3 }' >> "$R"
  done
done
rm -f "$OUT/k.csv" "$OUT/one.log"
awk '{ key = $1 " " $2; x = $3 / 64; n[key]++; sx[key] += x; sy[key] += $4; sxx[key] += x * x; sxy[key] += x * $4 }
     END { for (key in n) { b = (n[key] * sxy[key] - sx[key] * sy[key]) / (n[key] * sxx[key] - sx[key] * sx[key])
                            a = (sy[key] - b * sx[key]) / n[key]
                            printf "%-34s a = %6.2f us  b = %6.4f us per k-tile  (%d K)\n", key, a, b, n[key] } }' "$R" |
  sort | tee "$OUT/fit.txt"
L=$OUT/rounds.txt; : > "$L"
for r in 1 2 3; do
  A=step10_autotune; B=release/step10_autotune; [ $((r % 2)) -eq 0 ] && { A=release/step10_autotune; B=step10_autotune; }
  echo "== round $r" >> "$L"
  variant_rounds "$L" 1 "$BUILD" "512x512x512 1024x1024x1024 512x4096x4096 512x4096x14336 1024x4096x4096 2048x2048x2048 4096x4096x4096 1024x1024x14336" \
    "$A --no-cache" "$B --no-cache"
done
variant_checks "$BUILD/step10_autotune" "$OUT/checks.txt" 64x128 128x128 128x192 128x256c
grep -c "check ok" "$OUT/checks.txt" | sed 's/^/checks ok: /'
