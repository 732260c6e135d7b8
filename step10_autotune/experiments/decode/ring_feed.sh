#!/bin/sh
# decode/ring_feed.sh DIR: feed_load.sh found one SM's feed set by its ring: a slot's round trip of
# ~1.1-1.3 us, so slots x a slot's bytes per round trip, up to ~105-113 GB/s at 8 slots (H200).  Does
# that feed, dropped into the tree's model with its other constants as fitted, pick better over every
# H200 log kept?  Builds decode/explain.c against a copy of chooser.h whose feed is the larger of
# (RT0 + bytes / RT_GBS) / stages and bytes / CAP_GBS, at five settings read off feed_load's table
# (RT0 us, RT_GBS and CAP_GBS GB/s), then judge_logs.py with the tree's and the five.  No GPU.
# Recorded: the tree 121 of 144, the variants 108-118 (log: decode/logs/judge_ring_feed.txt): worse,
# the other constants having been fitted with the old feed; the term needs a joint refit.
set -u
DIR=${1:?usage: ring_feed.sh DIR}
HERE=$(dirname "$0")
mkdir -p "$DIR"
cp step10_autotune/chooser.h "$DIR/chooser.h"
python3 - "$DIR/chooser.h" <<'PY' || exit 1
import sys
f = sys.argv[1]; s = open(f).read()
at = "    const double feed_kt_us = chooser_box_rows(c, M) * 128.0 / (CHOOSER_SM_GBS * 1e3) *"
if s.count(at) != 1: sys.exit("ring_feed: chooser.h changed; the patch no longer applies")
s = s.replace(at, "    const double slot_bytes = chooser_box_rows(c, M) * 128.0;   /* experiment: the ring's feed */\n"
                  "    const double rt_us = RT0 + slot_bytes / (RT_GBS * 1e3), by_ring = rt_us / c->stages, by_cap = slot_bytes / (CAP_GBS * 1e3);\n"
                  "    const double feed_kt_us = (by_ring > by_cap ? by_ring : by_cap) *")
open(f, 'w').write(s)
PY
nvcc -O2 -Icommon -Istep10_autotune "$HERE/explain.c" -o "$DIR/explain" || exit 1
set --
for v in "0.5 27.3 110" "0.5 27.3 138.3" "0.3 20 110" "0.6 30 120" "0.5 27.3 100"; do
  # shellcheck disable=SC2086  # three words
  set -- "$@" "$DIR/explain_ring_$(echo $v | tr ' ' _)"
  # shellcheck disable=SC2086
  (set -- $v; nvcc -O2 -I"$DIR" -Icommon -Istep10_autotune -DRT0=$1 -DRT_GBS=$2 -DCAP_GBS=$3 "$HERE/explain.c" \
     -o "$DIR/explain_ring_$1_$2_$3") || exit 1
done
python3 "$HERE/judge_logs.py" "$DIR/explain" "$@" | sed "s#$DIR/##"
