#!/bin/sh
# decode/ring_cut.sh BUILD OUT: with A's box cut to M, does 64x64 stream faster with a deeper ring?
#
# Since c36827a a 64x64 CTA asks TMA for M's rows of A rounded up to 8, not 64: at M <= 16 a slot
# receives 9-10 KiB, not 16, and its ring of 8 slots holds 72-80 KiB in flight, not 128.  One CTA's
# feed is set by its ring (feed_load.sh, session 21: ~59 GB/s with 4 slots of 16 KiB, 86 with 6, 105
# with 8; a slot's round trip ~1.1-1.3 us).  Session 19's deeper ring (deeper_ring/stream.sh) ran
# before the cut; 13 slots of 16 KiB fit beside the D buffers, and the cut leaves them fewer bytes to
# carry.  Builds step 10 and the same with the ring's cap at 16 (variant_deeper_ring, so 64x64 takes 13
# by default and the other tiles what they took; the tree's cap since 101c629, so at HEAD the two builds
# are alike and the rounds' --stages 8 and 13 carry the question), checks the deep build at odd shapes, then 3 rotated
# rounds at decode shapes (M <= 32, the cut; M = 64, no cut) and 512^3: the model's pick; 64x64 at 8
# slots, its plan the model's and dp; 64x64 at 13, the same two.  PREBUILT=1 skips nvcc.  Exits 3
# without a GPU.
set -u
BUILD=${1:?usage: ring_cut.sh BUILD OUT}; OUT=${2:?usage: ring_cut.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  variant_deeper_ring "$BUILD" ring16 16
fi
variant_need_gpu ring_cut "$BUILD/ring16/step10_autotune"
variant_gpu_info "$BUILD" "$OUT"
variant_checks "$BUILD/ring16/step10_autotune" "$OUT/checks.txt" 64x64
echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")"
: > "$OUT/rounds.txt"
f="--no-cache --config 64x64"
variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" \
  "1x4096x4096 8x6144x4096 16x4096x4096 16x4096x14336 32x4096x14336 32x8192x8192 8x8192x28672 1x14336x4096 64x4096x4096 512x512x512" \
  "step10_autotune --no-cache" "step10_autotune $f --stages 8" "step10_autotune $f --mode dp --stages 8" \
  "ring16/step10_autotune $f --stages 13" "ring16/step10_autotune $f --mode dp --stages 13"
# one line per shape and run: the ratios of its rounds in order, then each run's median time and ratio
python3 - "$OUT/rounds.txt" <<'PY' | tee "$OUT/summary.txt"
import re, statistics as st, sys
rows = {}
for l in open(sys.argv[1]):
    m = re.match(r'r\d+ (\S+) (.*?): stages=(\d+): ([\d.]+) ms .*ratio ([\d.]+)', l)
    if m: rows.setdefault(m.group(1), {}).setdefault(m.group(2), []).append((float(m.group(4)) * 1e3, float(m.group(5)), m.group(3)))
for sh in sorted(rows, key=lambda s: tuple(map(int, s.split('x')))):
    print('== %s' % sh)
    for run, v in rows[sh].items():
        print('  %-66s stages %s  %7.1f us  ratio %.3f  (%s)' % (run, v[0][2], st.median(t for t, _, _ in v),
              st.median(q for _, q, _ in v), ' '.join('%.3f' % q for _, q, _ in v)))
PY
