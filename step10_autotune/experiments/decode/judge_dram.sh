#!/bin/sh
# decode/judge_dram.sh OUT: where the DRAM floor binds, the candidates' predictions tie or nearly tie,
# yet the measured times spread by up to 2x (a 128-row tile's wasted MMAs at M = 64 still cost time under
# the floor).  Would a rule for that class pick better, judged on every sweep the current menu ran?
# fixup_writers/fit_more.c (the model's pick within 3% of the best candidate measured, FIXUP_MORE=2, the
# tree's) compiled against variants of chooser.h (no GPU):
#   tree        the tree's: t = T0 + max(mainloop, DRAM floor + CHOOSER_DRAM_MMA x mainloop), 0.5
#   shareG      CHOOSER_DRAM_MMA = G (share0: the floor alone, e8e4254's model less its exact-tie rule)
#   old_dram    c50bfa9's chooser.h: the floor alone, A and B once plus every wave past the first
#   near1       share0, and a near tie (within 1% of the fastest, both under the floor) to the smaller
#               mainloop: a rule instead of the share, judged as well
#   refit       the tree with all thirteen older constants refitted under the share on session 15's fit
#               sweep alone (fit_chooser.py with ONLY naming all thirteen, logs/menu5c1; its output:
#               decode/logs/refit_all_menu5c1.txt)
# Logs: session 15-16's on the H100 (fit, held-out, unseen, feed, K-heavy), 17-19's on the H200.
set -u
OUT=${1:?usage: judge_dram.sh OUT}
HERE=$(dirname "$0")
X=$HERE/..
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
H200="132 62914560 4814.3"; H100="132 52428800 3352.0"
VARIANTS="tree share0 share0.25 share0.75 old_dram near1 refit"
for v in $VARIANTS; do
  mkdir -p "$T/$v" && cp step10_autotune/chooser.h "$T/$v/"
  case $v in
    share*) sed -i "s/^#define CHOOSER_DRAM_MMA 0.5 /#define CHOOSER_DRAM_MMA ${v#share} /" "$T/$v/chooser.h" ;;
    old_dram) git show c50bfa9:step10_autotune/chooser.h > "$T/$v/chooser.h" ;;
    refit) python3 - "$T/$v/chooser.h" <<'PY' || exit 1
import re, sys; p = sys.argv[1]; s = open(p).read()
fit = {'T0_US': 6.6777, 'KT_US_64x128': 0.1512, 'KT_US_128x128': 0.3063, 'KT_US_128x192': 0.4505, 'L2_GBS': 14926.9176,
       'SK_SCATTER': 1.0439, 'MISALIGNED': 2.133, 'POWER': 0.2246, 'POWER_GFLOP': 332.5203, 'KT_US_128x256c': 0.5873,
       'EPI_US_COOP': 1.0056, 'KT_US_64x64': 0.0545, 'SM_GBS': 125.315}
for k, v in fit.items():
    s, c = re.subn(r'(#define CHOOSER_%s )[\d.]+' % k, lambda m: m.group(1) + repr(v), s)
    assert c == 1, k
open(p, 'w').write(s)
PY
    ;;
    near1) sed -i "s/^#define CHOOSER_DRAM_MMA 0.5 /#define CHOOSER_DRAM_MMA 0.0 /" "$T/$v/chooser.h"
           python3 - "$T/$v/chooser.h" <<'PY' || exit 1
import sys; p = sys.argv[1]; s = open(p).read()
o = "if (e[i].t_us < e[best].t_us) best = i;"
assert o in s
n = """if (e[i].t_us < e[best].t_us) best = i;
    for (int i = 0; i < n; ++i)   /* near ties under the DRAM floor: the smaller mainloop */
        if (e[i].t_dram_us >= e[i].t_mma_us && e[best].t_dram_us >= e[best].t_mma_us &&
            e[i].t_us <= e[best].t_us * 1.01 && e[i].t_mma_us < e[best].t_mma_us) best = i;"""
open(p, "w").write(s.replace(o, n))
PY
    ;;
  esac
  [ "$v" = tree ] || ! cmp -s step10_autotune/chooser.h "$T/$v/chooser.h" || { echo "variant $v: chooser.h unchanged"; exit 1; }
  nvcc -O2 -Icommon -I"$T/$v" "$X/fixup_writers/fit_more.c" -o "$T/fm_$v" || exit 1
done
judge() {   # DEVICE DIR
  printf '%-44s' "$(echo "$2" | sed "s|^$X/||")"
  for v in $VARIANTS; do
    printf ' %8s' "$(FIXUP_MORE=2 "$T/fm_$v" $1 "$2"/tune_*.log | head -n 1 | sed 's/.*within 3% at \([0-9]*\) of \([0-9]*\).*/\1\/\2/')"
  done
  echo
}
{
  printf '%-44s' "sweep (within 3%: shapes)"; for v in $VARIANTS; do printf ' %8s' "$v"; done; echo
  for d in logs/menu5c1/tune_fit logs/s16/binary_9ed688f/tune_heldout logs/s16/binary_9ed688f/tune_unseen \
           logs/s16/tune_feed_9ed688f logs/s16/tune_kheavy_81e571a; do judge "$H100" "$X/$d"; done
  for d in fixup_writers/logs/final/tune_feed fixup_writers/logs/final/tune_heldout sk_cap/logs/final/tune_cap \
           sk_cap/logs/final/tune_cap_alone sk_cap/logs/final/tune_kheavy_few_tiles sk_cap/logs/final/tune_many_sharers \
           sk_cap/logs/final/tune_small_unseen sk_cap/logs/rule/tune_feed_rule decode/logs/fixed/tune_decode \
           decode/logs/fixed/tune_dram_waves decode/logs/share/tune_decode decode/logs/share/tune_share; do
    judge "$H200" "$X/$d"; done
} > "$OUT"
cat "$OUT"
