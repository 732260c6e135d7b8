#!/bin/sh
# decode/b_cut.sh BUILD OUT BIN...: B's box cut to N for a CTA alone (64x64), as A's is to M (session 22).
# ring_rule.sh found 64x64/dp slower than 64x64/sk_l2 at 4096 x 16 x 5120 and 4096 x 32 x 5120, and the
# shapes with M >> N far below cuBLAS (0.66-0.85): there every k-tile asks TMA for 64 rows of B for 1-32
# columns.  Checks the last BIN (BUILD/BIN/step10_autotune) at odd shapes with N <= 64 (64x64 in every
# plan, bit for bit where K <= 256, and the model's pick), then 3 rotated rounds of the model's pick of
# every BIN at shapes with M >> N.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: b_cut.sh BUILD OUT BIN...}; OUT=${2:?usage: b_cut.sh BUILD OUT BIN...}; shift 2
HERE=$(dirname "$0")
mkdir -p "$OUT"
. "$HERE/../variant.sh"
for b in "$@"; do last=$b; done
variant_need_gpu b_cut "$BUILD/$last/step10_autotune"
variant_check_grid "$BUILD/$last/step10_autotune" "$OUT/checks.txt" \
  "77x20x136 4097x1x200 1000x8x1000 130x64x8 65x57x4168 3001x33x2048 20x20x256" "dp sk cap" 64x64
for sh in 4097x1x200 1000x8x1000 3001x33x2048 8x20x4096 5000x24x8192; do   # the model's pick, checked
  m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
  echo "check $sh model rc=$("$BUILD/$last/step10_autotune" --m "$m" --n "$n" --k "$k" --no-cache > "$OUT/one.txt" 2>&1; echo $?) $(grep -h 'check\|configuration' "$OUT/one.txt" | sed 's/.*| check/check/' | tr '\n' ' ')" >> "$OUT/checks.txt"
done
echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")"
: > "$OUT/rounds.txt"
# one RUN per binary, its flag inside it (a word list would make "--no-cache" a run of its own, and the
# binaries run without it: session 22's call did so, every pick the model's, no cache on the machine)
n=$#; while [ "$n" -gt 0 ]; do set -- "$@" "$1/step10_autotune --no-cache"; shift; n=$((n - 1)); done
variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" \
  "4096x16x5120 4096x32x5120 4096x48x5120 6144x32x14336 14336x8x14336 16384x24x5120 11008x1x1024 14336x4x28672" "$@"
python3 "$HERE/rounds_picks.py" "$OUT/rounds.txt" | tee "$OUT/summary.txt"
