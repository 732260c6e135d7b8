#!/bin/sh
# fixup_writers/run.sh BUILD OUT [PART]: the owner of a stream-K tile now waits on its writers'
# flags 32 at once (kernel.cu, fixup_add_partials, session 17; step 09's owner waits writer by writer,
# two L2 round trips each in a row).  How much does that buy where many units share a tile, what
# does it cost where two do, and what does each writer past the first cost (the chooser's
# SK_FIXUP_MORE_KT, fitted by fit_more.c on the K-heavy list's sweep)?
#
# Builds the tree's step 10 (BUILD/step10_autotune), a copy with step 09's serial waits
# (BUILD/serial/step10_autotune) and that copy with the old fixup term (BUILD/before).  PART (default all):
#   ab      the tree's binary checked against cuBLAS at odd shapes and at shapes with 33-132 writers
#           a tile, every configuration in dp and sk; then 3 rotated rounds of serial and the tree,
#           forced plans with 2 to 33 writers a tile
#   fit     tune_sweep.sh with the tree's binary over the K-heavy list (the fit of SK_FIXUP_MORE_KT)
#           and many_sharers_shapes.txt (judged only)
#   judge   the same over the feed, small unseen and held-out lists (the model's picks elsewhere)
#   sweeps  fit and judge
#   forms   the tree's owner against SERIAL, FIRST and SECOND (below), 2 rotated rounds
#   cap     --mode sk with every tile streamed over U' units (BUILD/cap reads SK_UNITS), 2 rounds:
#           is there a plan between auto's two units a tile and sk's all?
#   picks   the model's picks over both lists, session 16's step 10 (BUILD/before: the serial waits
#           and the old fixup term, -DSK_FIXUP_MORE_KT=10) against the tree's, 2 rotated rounds
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.  Logs in OUT.
set -u
BUILD=${1:?usage: run.sh BUILD OUT [ab|forms|fit|judge|sweeps|cap|picks|all]}; OUT=${2:?usage: run.sh BUILD OUT [ab|forms|fit|judge|sweeps|cap|picks|all]}
PART=${3:-all}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
# The owner's body in the tree (TREE: batches of 32 writers) and the forms it is measured against:
# SERIAL, step 09's (one thread waits writer by writer, a barrier each); FIRST, every flag, then
# every partial (this session's first form: 64 more instructions, 12 bytes spilled in a traced
# copy); SECOND, a batch's flags waited inside the add loop (the barrier in the loop).
TREE='    const int last = sk_tile_last_unit(&sk->plan, tile);
'"$VARIANT_OWNER_LOOP"
ADD='        partial_add_all(&acc[0][0], sk->partials + (size_t)slot * PARTIAL_F4 * WG_THREADS,
                        WG_M_BLOCKS * ACC_REGS, WG_THREADS, warpgroup_thread());
    }
'
SERIAL='    const int last = sk_tile_last_unit(&sk->plan, tile);
    for (int v = unit + 1; v <= last; ++v) {
        const int slot = sk_part_slot(v, (int)cc->rank, CLUSTER_SIZE, cc->part, TILE_WGS);
        if (warpgroup_thread() == 0) flag_wait_acquire_gpu(&sk->flags[slot], sk->epoch, tile, v);
        named_bar_sync(BAR_STORE + cc->c, WG_THREADS, "fixup wait");
'"$ADD"
FIRST='    if (warpgroup_thread() < 32)
        for (int v = unit + 1 + warpgroup_thread(); v <= sk_tile_last_unit(&sk->plan, tile); v += 32)
            flag_wait_acquire_gpu(&sk->flags[sk_part_slot(v, (int)cc->rank, CLUSTER_SIZE, cc->part, TILE_WGS)],
                                  sk->epoch, tile, v);
    named_bar_sync(BAR_STORE + cc->c, WG_THREADS, "fixup wait");
    const int last = sk_tile_last_unit(&sk->plan, tile);
    for (int v = unit + 1; v <= last; ++v) {
        const int slot = sk_part_slot(v, (int)cc->rank, CLUSTER_SIZE, cc->part, TILE_WGS);
'"$ADD"
SECOND='    const int last = sk_tile_last_unit(&sk->plan, tile);
    for (int v = unit + 1; v <= last; ++v) {
        const int slot = sk_part_slot(v, (int)cc->rank, CLUSTER_SIZE, cc->part, TILE_WGS);
        if ((v - unit - 1) % 32 == 0) {
            const int w = v + warpgroup_thread();
            if (warpgroup_thread() < 32 && w <= last)
                flag_wait_acquire_gpu(&sk->flags[sk_part_slot(w, (int)cc->rank, CLUSTER_SIZE, cc->part, TILE_WGS)],
                                      sk->epoch, tile, w);
            named_bar_sync(BAR_STORE + cc->c, WG_THREADS, "fixup wait");
        }
'"$ADD"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  for v in serial first second; do
    case $v in serial) body=$SERIAL ;; first) body=$FIRST ;; second) body=$SECOND ;; esac
    OLD="$TREE" NEW="$body" variant_patch_py "$BUILD" $v <<'PY'
import os
edit(os.environ["OLD"], os.environ["NEW"])
PY
  done
  # cap: --mode sk on SK_UNITS units (the environment's) where every tile streams: the writers a tile capped
  # (session 17; since session 18 the tree's --mode cap makes such a plan with the U' its model picks)
  OLD='    P->sk.plan = e->plan;   /* the chooser'"'"'s, the one --explain printed: it must be this launch'"'"'s */
' NEW='    const char *cap = getenv("SK_UNITS");   /* the experiment: every tile streamed over SK_UNITS units */
    const int T = P->sched.sched.num_tiles, Up = cap && atoi(cap) > 0 && atoi(cap) < units ? atoi(cap) : units;
    P->sk.plan = cap && e->mode == SK_MODE_SK && T < units ? sk_plan_split(T, P->k_tiles, units, T, Up) : e->plan;
' variant_patch_py "$BUILD" cap <<'PY'
import os
edit(os.environ["OLD"], os.environ["NEW"])
PY
  # before: step 09's waits and the plans' old fixup term (10 k-tile times per writer): session 16's step 10
  mkdir -p "$BUILD/before"
  variant_build before "$BUILD/serial/kernel.cu" "$BUILD/before/step10_autotune" -DSK_FIXUP_MORE_KT=10
fi
variant_need_gpu fixup_writers "$BUILD/serial/step10_autotune"
variant_gpu_info "$BUILD" "$OUT"   # gpu.txt; devinfo.txt: fit_more.c's arguments
if [ "$PART" = ab ] || [ "$PART" = all ]; then
  : > "$OUT/checks.txt"
  variant_checks "$BUILD/step10_autotune" "$OUT/checks.txt" 64x64 64x128 128x128 128x192 128x256c
  for sh in 100x70x8200 64x64x16384 128x128x32768; do   # 33-132 writers a tile in sk
    m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
    for c in 64x64 64x128 128x128 128x192 128x256c; do
      echo "check $sh $c/sk: $("$BUILD/step10_autotune" --m "$m" --n "$n" --k "$k" --no-cache --config $c --mode sk 2>&1 | grep -o 'check.*' | head -1)" >> "$OUT/checks.txt"
    done
  done
  echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")"
  : > "$OUT/rounds.txt"
  for run in "64x64 sk 128x128x32768 1024x64x16384 64x512x16384" "64x64 auto 256x256x8192 512x128x14336" \
             "128x128 sk 1536x1536x8192 2560x2560x2560" "128x128 auto 1024x1024x14336" "128x256c sk 1024x1024x14336"; do
    set -- $run; c=$1; mode=$2; shift 2
    variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" "$*" \
      "serial/step10_autotune --no-cache --config $c --mode $mode" "step10_autotune --no-cache --config $c --mode $mode"
  done
  variant_rounds_summary "$OUT/rounds.txt" "$OUT/summary.txt"
fi
# the owner's four forms side by side, 2 rotated rounds, forced plans with 2 to 33 writers a tile
if [ "$PART" = forms ] || [ "$PART" = all ]; then
  : > "$OUT/forms.txt"
  for run in "64x64 sk 128x128x32768 1024x64x16384 64x512x16384" "128x128 sk 1536x1536x8192 2560x2560x2560" \
             "128x128 auto 1024x1024x14336" "128x256c sk 1024x1024x14336"; do
    set -- $run; c=$1; mode=$2; shift 2
    variant_rotated_rounds "$OUT/forms.txt" 2 "$BUILD" "$*" "serial/step10_autotune --no-cache --config $c --mode $mode" \
      "first/step10_autotune --no-cache --config $c --mode $mode" "second/step10_autotune --no-cache --config $c --mode $mode" \
      "step10_autotune --no-cache --config $c --mode $mode"
  done
  variant_rounds_summary "$OUT/forms.txt" "$OUT/forms_summary.txt"
fi
# a plan between auto's (two units a tile) and sk's (all): every tile streamed over U' units, U' = SK_UNITS
if [ "$PART" = cap ] || [ "$PART" = all ]; then
  : > "$OUT/cap.txt"
  for r in 1 2; do
    for run in "64x64 128x128x32768 8 16 32 64 132" "64x64 64x64x16384 2 8 16 32 64 132" \
               "64x64 160x160x40960 18 36 72 132" "64x128 512x256x32768 16 32 48 66"; do
      set -- $run; c=$1; sh=$2; shift 2
      m=${sh%%x*}; rest=${sh#*x}; n=${rest%%x*}; k=${rest#*x}
      for u in "$@"; do
        echo "r$r $sh $c/sk U'=$u: $(SK_UNITS=$u "$BUILD/cap/step10_autotune" --m "$m" --n "$n" --k "$k" --config $c --mode sk --no-cache --no-check 2>&1 | grep -o 'streamed ([^)]*)\|ratio [0-9.]*' | tr '\n' ' ')" >> "$OUT/cap.txt"
      done
    done
  done
  cat "$OUT/cap.txt"
fi
# sweep LIST...: tune_sweep.sh with the tree's binary over each list, and the binary's picks judged
sweep() {
  for l in "$@"; do
    f=$HERE/../${l}_shapes.txt; [ "$l" = heldout ] && f=$HERE/../../heldout_shapes.txt
    bash "$HERE/../tune_sweep.sh" "$f" "$OUT/tune_$l" "$BUILD/step10_autotune" > "$OUT/tune_${l}_summary.txt"
    python3 "$HERE/../model_vs_sweep.py" "$OUT/tune_$l" > "$OUT/model_vs_sweep_$l.txt"
    echo "$l: $(tail -n 1 "$OUT/model_vs_sweep_$l.txt")"
  done
}
case $PART in sweeps|fit|all) sweep kheavy_few_tiles many_sharers ;; esac
# what a user gets: the model's picks of session 16's step 10 (before) and the tree's, 2 rotated rounds
if [ "$PART" = picks ] || [ "$PART" = all ]; then
  : > "$OUT/picks.txt"
  variant_rotated_rounds "$OUT/picks.txt" 2 "$BUILD" \
    "$(grep -hv '^#' "$HERE/../kheavy_few_tiles_shapes.txt" "$HERE/../many_sharers_shapes.txt" | awk 'NF >= 3 { printf "%sx%sx%s ", $1, $2, $3 }')" \
    "before/step10_autotune --no-cache" "step10_autotune --no-cache"
  awk '/^r[0-9]/ { for (i = 4; i <= NF; i++) if ($i == "ratio") v = $(i + 1); k = $2 " | " $3; r[k] = r[k] " " v }
       END { for (k in r) print k ":" r[k] }' "$OUT/picks.txt" | sort > "$OUT/picks_summary.txt"
  cat "$OUT/picks_summary.txt"
fi
case $PART in sweeps|judge|all) sweep feed small_unseen heldout ;; esac
