#!/bin/sh
# decode/ring_rule.sh OLD NEW OUT: the ring rule (chooser_ring: 64x64 past 8 slots for whole tiles, as
# deep as the busiest CTA's k-tiles, 13 at most) judged end to end: the model's pick of OLD's binary
# (b917ad0: 64x64 at 8 slots) and of NEW's, 3 rotated rounds, one process a run, at the shapes of
# ring_cut_shapes.txt (drawn before any run: 10 whose pick moves, 10 whose 64x64/dp pick now takes more
# than 8 slots) and five of ring_cut.sh's (the decode shapes where 13 slots moved most, 1 x 14336 x 4096
# where the model picks 64x128, and 512^3, whose 8 k-tiles keep 8).  OLD and NEW: folders holding a
# step10_autotune each, paths from the repository's root.  Exits 3 without a GPU.
set -u
OLD=${1:?usage: ring_rule.sh OLD NEW OUT}; NEW=${2:?usage: ring_rule.sh OLD NEW OUT}; OUT=${3:?usage: ring_rule.sh OLD NEW OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT"
. "$HERE/../variant.sh"
variant_need_gpu ring_rule "$NEW/step10_autotune"
shapes=$(grep -v '^#' "$HERE/../ring_cut_shapes.txt" | awk '{ printf "%dx%dx%d ", $1, $2, $3 }')
shapes="$shapes 16x4096x4096 32x4096x14336 64x4096x4096 1x14336x4096 512x512x512"
: > "$OUT/rounds.txt"
variant_rotated_rounds "$OUT/rounds.txt" 3 . "$shapes" "$OLD/step10_autotune --no-cache" "$NEW/step10_autotune --no-cache"
# per shape: each binary's pick, its ring, median time and ratio; then new over old
python3 - "$OUT/rounds.txt" <<'PY' | tee "$OUT/summary.txt"
import re, statistics as st, sys
rows, last = {}, None
for l in open(sys.argv[1]):
    m = re.match(r'r\d+ (\S+) (\S+)/step10_autotune.*?: stages=(\d+): ([\d.]+) ms .*ratio ([\d.]+)', l)
    if m: last = m.groups(); continue
    c = re.match(r'\s+configuration: (\S+), plan (\S+),', l)
    if c and last:
        rows.setdefault(last[0], {}).setdefault(last[1], []).append((float(last[3]) * 1e3, float(last[4]), c.group(1) + '/' + c.group(2) + '@' + last[2]))
        last = None
gain = []
for sh in rows:
    v = rows[sh]; o, n = sorted(v)
    line = sh
    for b in (o, n):
        line += ' | %s %s %.1f us %.3f (%s)' % (b.split('/')[-1], v[b][0][2], st.median(t for t, _, _ in v[b]),
                                               st.median(q for _, q, _ in v[b]), ' '.join('%.3f' % q for _, q, _ in v[b]))
    r = st.median(q for _, q, _ in v[n]) / st.median(q for _, q, _ in v[o]); gain.append(r)
    print(line + ' | new/old %.3f' % r)
print('new/old over %d shapes: median %.3f, min %.3f, max %.3f' % (len(gain), st.median(gain), min(gain), max(gain)))
PY
