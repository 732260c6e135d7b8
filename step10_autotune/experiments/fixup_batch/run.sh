#!/bin/sh
# fixup_batch/run.sh BUILD OUT: is the stream-K owner's fixup what holds the K-heavy shapes
# with few tiles (session 16: 0.43 of cuBLAS at 128 x 128 x 32768, the best candidate)?
#
# The owner adds its writers' partials one at a time (kernel.cu, fixup_add_partials): per
# writer, one thread spins on its flag (a round trip to L2), a named barrier passes the news
# on, and the warpgroup loads the partial (another round trip) and adds it.  On a tile that 33
# units share, that is 32 times two round trips in a row.  Two variants, both adding the
# partials in the tree's order (the same sums by construction; the checks compare with cuBLAS):
#   flags: the first warp's 32 lanes wait on up to 32 writers' flags at once, one barrier, then
#          the partials one after another as before;
#   pipe:  flags, and the next partial's loads issued before the current one is added (for
#          accumulators of at most 64 floats a thread, 64x64 and 64x128: twice the registers).
# Builds both (BUILD/flags/, BUILD/pipe/) and the tree's step 10; checks every configuration
# with both plans at odd shapes and at 128 x 128 x 32768; then 3 rotated rounds of the tree
# and the two variants at K-heavy shapes with few tiles (the model's pick, and 64x64/sk).
# Both variants spill 8 bytes in one kernel, the traced copy of 128x192 (never timed; -Xptxas -v).
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
# Since session 17 the tree's owner waits in batches of 32 (kernel.cu; experiments/fixup_writers),
# so the patches replace that loop and the reference side is the batched tree; the logs below
# (session 16) were taken against step 09's serial waits, the tree of then.
OLD=$VARIANT_OWNER_LOOP
FLAGS='    const int t = warpgroup_thread();
    /* every writer'"'"'s flag at once: lane t of the first warp acquires writers unit+1+t, unit+33+t, ... */
    if (t < 32)
        for (int v = unit + 1 + t; v <= last; v += 32)
            flag_wait_acquire_gpu(&sk->flags[sk_part_slot(v, (int)cc->rank, CLUSTER_SIZE, cc->part, TILE_WGS)],
                                  sk->epoch, tile, v);
    named_bar_sync(BAR_STORE + cc->c, WG_THREADS, "fixup wait");
'
ADD_SEQ='    for (int v = unit + 1; v <= last; ++v) {
        const int slot = sk_part_slot(v, (int)cc->rank, CLUSTER_SIZE, cc->part, TILE_WGS);
        partial_add_all(&acc[0][0], sk->partials + (size_t)slot * PARTIAL_F4 * WG_THREADS,
                        WG_M_BLOCKS * ACC_REGS, WG_THREADS, t);
    }
'
ADD_PIPE='    constexpr int N = WG_M_BLOCKS * ACC_REGS;
    if constexpr (N <= 64) {
        /* the next partial'"'"'s loads in flight while this one is added, in the same order */
        float4 cur[N / 4], nxt[N / 4];
        const float4 *p = sk->partials + (size_t)sk_part_slot(unit + 1, (int)cc->rank, CLUSTER_SIZE, cc->part, TILE_WGS) * PARTIAL_F4 * WG_THREADS;
#pragma unroll
        for (int i = 0; i < N / 4; ++i) cur[i] = partial_load(p, i, WG_THREADS, t);
        for (int v = unit + 1; v <= last; ++v) {
            if (v < last) {
                const float4 *q = sk->partials + (size_t)sk_part_slot(v + 1, (int)cc->rank, CLUSTER_SIZE, cc->part, TILE_WGS) * PARTIAL_F4 * WG_THREADS;
#pragma unroll
                for (int i = 0; i < N / 4; ++i) nxt[i] = partial_load(q, i, WG_THREADS, t);
            }
            float *a = &acc[0][0];
#pragma unroll
            for (int i = 0; i < N / 4; ++i) {
                a[4 * i] += cur[i].x; a[4 * i + 1] += cur[i].y; a[4 * i + 2] += cur[i].z; a[4 * i + 3] += cur[i].w;
                cur[i] = nxt[i];
            }
        }
    } else {
'"$ADD_SEQ"'    }
'
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  OLD="$OLD" NEW="$FLAGS$ADD_SEQ" variant_patch_py "$BUILD" flags <<'PY'
import os
edit(os.environ["OLD"], os.environ["NEW"])
PY
  OLD="$OLD" NEW="$FLAGS$ADD_PIPE" variant_patch_py "$BUILD" pipe <<'PY'
import os
edit(os.environ["OLD"], os.environ["NEW"])
PY
fi
variant_need_gpu fixup_batch "$BUILD/pipe/step10_autotune"
for v in flags pipe; do
  variant_checks "$BUILD/$v/step10_autotune" "$OUT/checks_$v.txt" 64x64 64x128 128x128 128x192 128x256c
  for c in 64x64 128x128; do
    echo "check 128x128x32768 $c/sk: $("$BUILD/$v/step10_autotune" --m 128 --n 128 --k 32768 --no-cache --config $c --mode sk 2>&1 | grep -o 'check.*' | head -1)" >> "$OUT/checks_$v.txt"
  done
done
: > "$OUT/rounds.txt"
variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" "128x128x32768 256x256x8192 64x512x16384 1024x64x16384 1024x1024x14336 1536x1536x8192" \
  "step10_autotune --no-cache" "flags/step10_autotune --no-cache" "pipe/step10_autotune --no-cache"
variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" "128x128x32768 1024x64x16384" \
  "step10_autotune --no-cache --config 64x64 --mode sk" "flags/step10_autotune --no-cache --config 64x64 --mode sk" \
  "pipe/step10_autotune --no-cache --config 64x64 --mode sk"
grep -c "check ok" "$OUT"/checks_*.txt   # 52 each: 50 at odd shapes, 2 at 128 x 128 x 32768
# the ratios per shape and run, the rounds in order
variant_rounds_summary "$OUT/rounds.txt" "$OUT/summary.txt"
