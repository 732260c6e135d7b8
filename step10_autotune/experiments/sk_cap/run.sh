#!/bin/sh
# sk_cap/run.sh BUILD OUT [PART]: the chooser's fourth plan, sk_cap (session 18): every tile streamed
# over the U' units the model finds fastest, a candidate where fewer cluster tiles than units and A
# and B in half the L2 (chooser.h, chooser_cap_offered).  Session 17 measured such plans by hand
# (fixup_writers' `cap` part: 64x64x16384 0.45 -> 0.81 at U' = 16); does the model pick them where
# they win, and only there?  (The first sweep of cap_shapes.txt ran a binary that offered sk_cap to
# every configuration, logs/first_offer/; 64x128/sk_cap ran over the model, so it went to 64x64 alone.)
#
# Builds the tree's step 10 (BUILD/step10_autotune) and c677d4d's, the tree before sk_cap
# (BUILD/before/step10_autotune; its kernels are the tree's byte for byte, its chooser has three
# plans).  PART (default all):
#   checks  --mode cap, every configuration, at odd shapes and at the shapes of cap_shapes.txt,
#           checked against cuBLAS (bit for bit with --exact where K <= 256)
#   sweeps  tune_sweep.sh over cap_alone_shapes.txt (committed before its rule's binary ran, c55782b),
#           cap_shapes.txt (committed before sk_cap first ran, aedf275), the K-heavy, many-sharers and
#           small unseen lists, then model_vs_sweep.py
#   judge   the same over the feed and held-out lists
#   picks   the model's picks before (c677d4d) and now, 2 rotated rounds, at every shape of those
#           lists whose pick sk_cap moves (picks.c, with what this GPU reports)
#   l2      where sk_cap is NOT offered (A and B over half the L2): forced --mode cap against the
#           model's pick and --mode sk, 3 rotated rounds
#   pairs   64x64/cap against 64x128/cap where the pair's second CTA has no tile (N <= 128) and at
#           the transposed shapes, 2 rounds; timelines of both at 512x64x24576 and 64x512x24576
#           (trace_phases.py sums them)
#   rule    tune_sweep.sh over feed_rule_shapes.txt with BUILD/pp/step10_autotune: the tree's kernel.cu
#           with chooser.h's pp_landed rule (sk_cap offered to every configuration; a pingpong
#           tile's feed counts the bytes that land in its SM); judge_variants.sh judges both rules
#   alone   is it the pair?  64x128/cap in pairs, the same tile alone (BUILD/alone: clusters of one,
#           variant_no_cluster) and 64x64/cap, 2 rotated rounds at K-heavy shapes whose pairs both
#           hold a tile; checks of the alone build at odd shapes
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.  Logs in OUT.
set -u
BUILD=${1:?usage: run.sh BUILD OUT [checks|sweeps|judge|picks|l2|pairs|rule|alone|all]}; OUT=${2:?usage: run.sh BUILD OUT [checks|sweeps|judge|picks|l2|pairs|rule|alone|all]}
PART=${3:-all}
HERE=$(dirname "$0")
LISTS=$HERE/..
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  rm -rf "$BUILD/before_src" && mkdir -p "$BUILD/before_src" "$BUILD/before"
  git archive c677d4d | tar -x -C "$BUILD/before_src" || exit 1
  make -s -C "$BUILD/before_src" step10 BUILD=build > /dev/null || exit 1
  cp "$BUILD/before_src/build/step10_autotune" "$BUILD/before/" && rm -rf "$BUILD/before_src"
  nvcc -O2 -Icommon -Istep10_autotune "$HERE/picks.c" -o "$BUILD/cap_picks" || exit 1
  # pp_landed: kernel.cu beside a chooser.h with the other rule (a quoted include looks there first)
  mkdir -p "$BUILD/pp" && cp step10_autotune/kernel.cu "$BUILD/pp/" && cp step10_autotune/chooser.h "$BUILD/pp/"
  sed -i -e 's/return c->cluster == 1 \&\& e->cluster_tiles/return e->cluster_tiles/' \
         -e 's/const double feed_kt_us = chooser_box_rows(c, M) \* 128.0/const double feed_kt_us = (c->tile_wgs == 1 ? c->bm + c->bn : chooser_box_rows(c, M)) * 128.0/' \
      "$BUILD/pp/chooser.h"
  [ "$(diff step10_autotune/chooser.h "$BUILD/pp/chooser.h" | grep -c '^>')" = 2 ] || { echo "sk_cap: chooser.h changed, the pp_landed edit no longer applies"; exit 1; }
  variant_build pp_landed "$BUILD/pp/kernel.cu" "$BUILD/pp/step10_autotune"
  mkdir -p "$BUILD/alone" && variant_no_cluster sk_cap step10_autotune/kernel.cu "$BUILD/alone/kernel.cu"
  variant_build alone "$BUILD/alone/kernel.cu" "$BUILD/alone/step10_autotune"
fi
variant_need_gpu sk_cap "$BUILD/step10_autotune"
variant_gpu_info "$BUILD" "$OUT"   # gpu.txt; devinfo.txt: picks.c's arguments
shapes_of() { grep -hv '^#' "$@" | awk 'NF >= 3 { printf "%sx%sx%s ", $1, $2, $3 }'; }
if [ "$PART" = checks ] || [ "$PART" = all ]; then
  : > "$OUT/checks.txt"
  for sh in 77x200x136 130x66x8 513x4097x200 1000x1000x1000 1100x4096x4168 $(shapes_of "$LISTS/cap_shapes.txt"); do
    m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
    exact=""; [ "$k" -le 256 ] && exact=--exact
    for c in 64x64 64x128 128x128 128x192 128x256c; do
      out=$(timeout 60 "$BUILD/step10_autotune" --m "$m" --n "$n" --k "$k" --no-cache --config $c --mode cap $exact 2>&1)
      echo "check $sh $c/cap rc=$? $(echo "$out" | grep -o 'streamed ([^)]*)' | head -1) $(echo "$out" | grep -h 'check' | head -1 | sed 's/.*| check/check/')" >> "$OUT/checks.txt"
    done
  done
  echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")"
fi
# sweep LIST...: tune_sweep.sh with the tree's binary over each list, and the binary's picks judged
sweep() {
  for l in "$@"; do
    f=$LISTS/${l}_shapes.txt; [ "$l" = heldout ] && f=$LISTS/../heldout_shapes.txt
    bash "$LISTS/tune_sweep.sh" "$f" "$OUT/tune_$l" "$BUILD/step10_autotune" > "$OUT/tune_${l}_summary.txt"
    python3 "$LISTS/model_vs_sweep.py" "$OUT/tune_$l" > "$OUT/model_vs_sweep_$l.txt"
    echo "$l: $(tail -n 1 "$OUT/model_vs_sweep_$l.txt")"
  done
}
case $PART in sweeps|all) sweep cap_alone cap kheavy_few_tiles many_sharers small_unseen ;; esac
case $PART in judge|all) sweep feed heldout ;; esac
# the model's picks before sk_cap (c677d4d) and now, where they differ on this GPU
if [ "$PART" = picks ] || [ "$PART" = all ]; then
  shapes_of "$LISTS/cap_alone_shapes.txt" "$LISTS/cap_shapes.txt" "$LISTS/kheavy_few_tiles_shapes.txt" "$LISTS/many_sharers_shapes.txt" \
            "$LISTS/small_unseen_shapes.txt" "$LISTS/feed_shapes.txt" | tr ' ' '\n' | tr 'x' ' ' |
    "$BUILD/cap_picks" $(cat "$OUT/devinfo.txt") > "$OUT/picks_model.txt"
  moved=$(awk '/<- moved$/ { printf "%sx%sx%s ", $1, $2, $3 }' "$OUT/picks_model.txt")   # not the count line
  : > "$OUT/picks.txt"
  variant_rotated_rounds "$OUT/picks.txt" 2 "$BUILD" "$moved" "before/step10_autotune --no-cache" "step10_autotune --no-cache"
  awk '/^r[0-9]/ { for (i = 4; i <= NF; i++) if ($i == "ratio") v = $(i + 1); k = $2 " | " $3; r[k] = r[k] " " v }
       END { for (k in r) print k ":" r[k] }' "$OUT/picks.txt" | sort > "$OUT/picks_summary.txt"
  cat "$OUT/picks_summary.txt"
fi
# where sk_cap is not offered: A and B over half the L2 (1024x1024x14336: 58.7 MB; 512x256x32768: 50 MB)
if [ "$PART" = l2 ] || [ "$PART" = all ]; then
  : > "$OUT/l2.txt"
  variant_rotated_rounds "$OUT/l2.txt" 3 "$BUILD" "1024x1024x14336" "step10_autotune --no-cache" \
    "step10_autotune --no-cache --config 128x128 --mode cap" "step10_autotune --no-cache --config 128x128 --mode sk"
  variant_rotated_rounds "$OUT/l2.txt" 3 "$BUILD" "512x256x32768" "step10_autotune --no-cache" \
    "step10_autotune --no-cache --config 64x128 --mode cap" "step10_autotune --no-cache --config 64x64 --mode cap"
  for sh in 1024x1024x14336 512x256x32768; do   # the plans those runs ran
    m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
    for f in "" "--config 128x128 --mode cap" "--config 64x128 --mode cap" "--config 64x64 --mode cap"; do
      # shellcheck disable=SC2086
      echo "plan $sh ${f:-model}: $("$BUILD/step10_autotune" --m $m --n $n --k $k --no-cache --no-check $f 2>&1 | grep -o 'stream-K plan.*\|configuration: .*' | tr '\n' ' ')" >> "$OUT/l2.txt"
    done
  done
  variant_rounds_summary "$OUT/l2.txt" "$OUT/l2_summary.txt"
fi
# 64x128's pair where its second CTA has no tile: is that where the model misses it?
if [ "$PART" = pairs ] || [ "$PART" = all ]; then
  : > "$OUT/oob.txt"
  for r in 1 2; do
    for sh in 512x64x16384 64x512x16384 512x64x24576 1024x128x8192 128x1024x8192; do
      m=${sh%%x*}; rest=${sh#*x}; n=${rest%%x*}; k=${rest#*x}
      for c in 64x64 64x128; do
        echo "r$r $sh $c/cap: $("$BUILD/step10_autotune" --m "$m" --n "$n" --k "$k" --config $c --mode cap --no-cache --no-check 2>&1 | grep -o 'on [0-9]* clusters: [0-9]* streamed ([^)]*)\|ratio [0-9.]*' | tr '\n' ' ')" >> "$OUT/oob.txt"
      done
    done
  done
  for sh in 512x64x24576 64x512x24576; do
    m=${sh%%x*}; rest=${sh#*x}; n=${rest%%x*}; k=${rest#*x}
    for c in 64x64 64x128; do
      "$BUILD/step10_autotune" --m "$m" --n "$n" --k "$k" --config $c --mode cap --no-cache --no-check \
        --trace "$OUT/trace_${sh}_$c.csv" > "$OUT/trace_${sh}_$c.log" 2>&1
    done
  done
  python3 "$HERE/trace_phases.py" "$OUT"/trace_*.csv > "$OUT/trace_phases.txt"
  cat "$OUT/oob.txt"
fi
# the two rules where they disagree: the pp_landed binary measures every candidate either would pick
if [ "$PART" = rule ] || [ "$PART" = all ]; then
  bash "$LISTS/tune_sweep.sh" "$LISTS/feed_rule_shapes.txt" "$OUT/tune_feed_rule" "$BUILD/pp/step10_autotune" > "$OUT/tune_feed_rule_summary.txt"
  python3 "$LISTS/model_vs_sweep.py" "$OUT/tune_feed_rule" > "$OUT/model_vs_sweep_feed_rule.txt"
  echo "feed_rule (pp_landed's picks): $(tail -n 1 "$OUT/model_vs_sweep_feed_rule.txt")"
fi
# the pair or the tile?  64x128 streamed in pairs, alone, and 64x64 alone, where both CTAs of a pair hold a tile
if [ "$PART" = alone ] || [ "$PART" = all ]; then
  : > "$OUT/alone_checks.txt"
  variant_checks "$BUILD/alone/step10_autotune" "$OUT/alone_checks.txt" 64x128
  for sh in 128x1024x8192 64x512x16384 1024x64x16384; do
    m=${sh%%x*}; rest=${sh#*x}; n=${rest%%x*}; k=${rest#*x}
    echo "check $sh 64x128/cap alone: $("$BUILD/alone/step10_autotune" --m "$m" --n "$n" --k "$k" --config 64x128 --mode cap --no-cache 2>&1 | grep -o 'check [a-zA-Z]*' | head -1)" >> "$OUT/alone_checks.txt"
  done
  echo "alone checks ok: $(grep -c 'check ok' "$OUT/alone_checks.txt") of $(grep -c '' "$OUT/alone_checks.txt")"
  : > "$OUT/alone.txt"
  variant_rotated_rounds "$OUT/alone.txt" 2 "$BUILD" "128x1024x8192 64x512x16384 256x512x6144 512x512x8192 256x1024x8192 128x2048x4096" \
    "step10_autotune --no-cache --config 64x128 --mode cap" "alone/step10_autotune --no-cache --config 64x128 --mode cap" \
    "step10_autotune --no-cache --config 64x64 --mode cap"
  variant_rounds_summary "$OUT/alone.txt" "$OUT/alone_summary.txt"
  for sh in 128x1024x8192 512x512x8192; do   # the plans those ran
    m=${sh%%x*}; rest=${sh#*x}; n=${rest%%x*}; k=${rest#*x}
    for b in step10_autotune alone/step10_autotune; do
      echo "plan $sh $b 64x128/cap: $("$BUILD/$b" --m "$m" --n "$n" --k "$k" --config 64x128 --mode cap --no-cache --no-check 2>&1 | grep -o 'stream-K plan.*')" >> "$OUT/alone.txt"
    done
  done
fi
