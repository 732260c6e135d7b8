#!/bin/sh
# decode/feed_variants.sh DIR [stage|ring]: two other forms of one SM's feed (chooser.h's feed_kt_us),
# each dropped into the tree's model with its other constants as fitted, judged by judge_logs.py (beside
# this) over every H200 log kept, beside the tree's.  Builds decode/explain.c against a copy of chooser.h
# per form and setting.  No GPU.
#   stage  the stage an SM receives, not the rows it requests (a pair's multicast delivers A whole: 192
#          rows a k-tile for 64x128, 160 requested), at four feeds: session 16's 138.3 GB/s, its refit
#          with the stage, 163.2, and two above.  Session 16 tried it on its lists (STAGE_FEED in
#          fit_chooser.py): no better.  Recorded: the tree 121 of 144, the variants 111-121 (log:
#          decode/logs/judge_stage_feed.txt): no better again.
#   ring   set by the ring (feed_load.sh: a slot's round trip of ~1.1-1.3 us, up to ~105-113 GB/s at
#          8 slots, H200): the larger of (RT0 + bytes / RT_GBS) / stages and bytes / CAP_GBS, at five
#          settings read off feed_load's table.  Recorded: 108-118 against 121 (log:
#          decode/logs/judge_ring_feed.txt): worse, the other constants having been fitted with the
#          old feed; the term needs a joint refit.
# Without a second argument, both.
set -u
DIR=${1:?usage: feed_variants.sh DIR [stage|ring]}
PART=${2:-all}
HERE=$(dirname "$0")
mkdir -p "$DIR"
# variant NAME REPLACEMENT: DIR/NAME/chooser.h, the tree's with its feed line replaced
variant() {
  mkdir -p "$DIR/$1" && cp step10_autotune/chooser.h "$DIR/$1/chooser.h"
  python3 - "$DIR/$1/chooser.h" "$2" <<'PY' || exit 1
import sys
f = sys.argv[1]; s = open(f).read()
at = "    const double feed_kt_us = chooser_box_rows(c, M) * 128.0 / (CHOOSER_SM_GBS * 1e3) *"
if s.count(at) != 1: sys.exit("feed_variants: chooser.h changed; the patch no longer applies")
open(f, 'w').write(s.replace(at, sys.argv[2]))
PY
}
nvcc -O2 -Icommon -Istep10_autotune "$HERE/explain.c" -o "$DIR/explain" || exit 1
if [ "$PART" = stage ] || [ "$PART" = all ]; then
  variant stage "    const double stage_rows = (c->tile_wgs == 1 && M <= c->bm / c->cluster ? (M + 7) / 8 * 8 : c->bm) + c->bn;
    const double feed_kt_us = stage_rows * 128.0 / (SF_GBS * 1e3) *   /* experiment: the stage received */"
  set --
  for g in 138.3 163.2 180 200; do
    nvcc -O2 -I"$DIR/stage" -Icommon -Istep10_autotune -DSF_GBS=$g "$HERE/explain.c" -o "$DIR/explain_stage_feed_$g" || exit 1
    set -- "$@" "$DIR/explain_stage_feed_$g"
  done
  python3 "$HERE/judge_logs.py" "$DIR/explain" "$@" | sed "s#$DIR/##"
fi
if [ "$PART" = ring ] || [ "$PART" = all ]; then
  variant ring "    const double slot_bytes = chooser_box_rows(c, M) * 128.0;   /* experiment: the ring's feed */
    const double rt_us = RT0 + slot_bytes / (RT_GBS * 1e3), by_ring = rt_us / c->stages, by_cap = slot_bytes / (CAP_GBS * 1e3);
    const double feed_kt_us = (by_ring > by_cap ? by_ring : by_cap) *"
  set --
  for v in "0.5 27.3 110" "0.5 27.3 138.3" "0.3 20 110" "0.6 30 120" "0.5 27.3 100"; do
    # shellcheck disable=SC2086  # three words: RT0, RT_GBS, CAP_GBS
    n=$(echo $v | tr ' ' _); set -- "$@" "$DIR/explain_ring_$n"
    # shellcheck disable=SC2086
    (set -- $v; nvcc -O2 -I"$DIR/ring" -Icommon -Istep10_autotune -DRT0="$1" -DRT_GBS="$2" -DCAP_GBS="$3" \
       "$HERE/explain.c" -o "$DIR/explain_ring_$1_$2_$3") || exit 1
  done
  python3 "$HERE/judge_logs.py" "$DIR/explain" "$@" | sed "s#$DIR/##"
fi
