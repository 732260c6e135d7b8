#!/bin/sh
# deeper_ring/stream.sh BUILD OUT: does 64x64 stream faster with a deeper ring (session 19)?
#
# Where one CTA streams a long K alone (K-heavy shapes with few tiles) or many CTAs read B from DRAM
# (decode shapes), 64x64 waits for its bytes: ~0.1 us a k-tile for 16 KiB, where its tensor cores
# need 0.06 (NOTES.md, "Session 16"), and at 8 x 8192 x 28672 its 128 CTAs pull 2.8 TB/s where
# 64x128/sk_l2 pulls 3.9 ("Session 19").  A ring of 8 slots holds 128 KiB in flight per SM; if the
# wait is latency (Little's law), more slots in flight should feed it faster.  64x64's stages are
# 16 KiB: 13 fit beside the D buffers, but common/smem_layout.h caps every ring at 8 (step 03's
# ceiling).  (deeper_ring/run.sh asked the same of 64x128 at the small squares: a ninth stage gained
# nothing there, where one k-tile's wait is not the bound.)
#
# Builds step 10 with that cap at 16 (BUILD/ring16/: variant.sh's variant_deeper_ring; the tree's cap
# since session 22, so at HEAD the two builds are alike); nothing else changes, so 64x64 takes 13 stages by default and
# the other tiles what they took.  Then the checks at odd shapes (64x64 and 64x128, every plan), and 3
# rotated rounds of 64x64 forced: dp at decode shapes and a small square, cap at K-heavy shapes; each
# the tree at 8 stages beside the build at 8, 10 and 13.
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: stream.sh BUILD OUT}; OUT=${2:?usage: stream.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  variant_deeper_ring "$BUILD" ring16 16
fi
variant_need_gpu deeper_ring "$BUILD/ring16/step10_autotune"
variant_checks "$BUILD/ring16/step10_autotune" "$OUT/checks.txt" 64x64 64x128
echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")"
: > "$OUT/rounds.txt"
for plan in "dp 8x8192x28672 32x8192x8192 128x4096x4096 64x6144x4096 11008x96x4096 512x512x512" \
            "cap 64x64x16384 128x128x32768 256x256x8192 64x4096x14336 512x256x32768"; do
  set -- $plan; mode=$1; shift
  f="--no-cache --config 64x64 --mode $mode"
  variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" "$*" \
    "step10_autotune $f --stages 8" "ring16/step10_autotune $f --stages 8" \
    "ring16/step10_autotune $f --stages 10" "ring16/step10_autotune $f --stages 13"
done
# one line per shape and run: the ratios of its rounds in order
awk '/^r[0-9]/ { run = ""; for (i = 3; i <= NF && $i !~ /:$/; i++) run = run " " $i; run = run " " $i
                 for (j = i; j <= NF; j++) if ($j == "ratio") v = $(j + 1)
                 k = $2 " |" run; r[k] = r[k] " " v } END { for (k in r) print k r[k] }' "$OUT/rounds.txt" |
  sed 's/ --no-cache --config 64x64//' | sort > "$OUT/summary.txt"
cat "$OUT/summary.txt"
# the medians, each build and depth against the tree at 8 (medians.txt)
python3 - "$OUT/summary.txt" <<'PY' | tee "$OUT/medians.txt"
import statistics, sys
rows = {}
for l in open(sys.argv[1]):
    sh, rest = l.split(' | ')
    run, vals = rest.split(': ')
    rows.setdefault(sh, {})[run.strip()] = statistics.median(float(v) for v in vals.split())
for sh, d in sorted(rows.items()):
    t = d[[k for k in d if k.startswith('step10')][0]]
    print('%-16s tree at 8: %.3f | ring16 at ' % (sh, t) + ' | '.join(
        '%s: %.3f (%+.1f%%)' % (k.split('--stages ')[1], d[k], 100 * (d[k] / t - 1))
        for k in sorted(d, key=lambda k: int(k.split('--stages ')[1])) if k.startswith('ring16')))
PY
