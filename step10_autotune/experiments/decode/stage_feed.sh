#!/bin/sh
# decode/stage_feed.sh DIR: does one SM's feed, counted as the stage the SM receives (a pair's multicast
# delivers A whole: 192 rows a k-tile for 64x128, 160 requested), pick better over every H200 log kept?
# Session 16 tried it on its feed list and the K-heavy list (STAGE_FEED in fit_chooser.py): no better.
# Session 21 asked again after the decode misses (decode/pair_bias.py: the model errs toward 64x128).
# Builds decode/explain.c against a copy of chooser.h with the feed term so changed, at four feeds
# (session 16's 138.3 GB/s, its refit with the stage 163.2, and two above), then judge_logs.py with
# the tree's and the four.  No GPU.  Recorded: the tree 121 of 144, the variants 111-121 (log:
# decode/logs/judge_stage_feed.txt): no better again.
set -u
DIR=${1:?usage: stage_feed.sh DIR}
HERE=$(dirname "$0")
mkdir -p "$DIR"
cp step10_autotune/chooser.h "$DIR/chooser.h"
python3 - "$DIR/chooser.h" <<'PY' || exit 1
import sys
f = sys.argv[1]; s = open(f).read()
at = "    const double feed_kt_us = chooser_box_rows(c, M) * 128.0 / (CHOOSER_SM_GBS * 1e3) *"
if s.count(at) != 1: sys.exit("stage_feed: chooser.h changed; the patch no longer applies")
s = s.replace(at, "    const double stage_rows = (c->tile_wgs == 1 && M <= c->bm / c->cluster ? (M + 7) / 8 * 8 : c->bm) + c->bn;\n"
                  "    const double feed_kt_us = stage_rows * 128.0 / (SF_GBS * 1e3) *   /* experiment: the stage received */")
open(f, 'w').write(s)
PY
nvcc -O2 -Icommon -Istep10_autotune "$HERE/explain.c" -o "$DIR/explain" || exit 1
for g in 138.3 163.2 180 200; do
  nvcc -O2 -I"$DIR" -Icommon -Istep10_autotune -DSF_GBS=$g "$HERE/explain.c" -o "$DIR/explain_stage_feed_$g" || exit 1
done
python3 "$HERE/judge_logs.py" "$DIR/explain" "$DIR"/explain_stage_feed_138.3 "$DIR"/explain_stage_feed_163.2 \
  "$DIR"/explain_stage_feed_180 "$DIR"/explain_stage_feed_200
