#!/bin/sh
# fixed_cost/kloop_split.sh BUILD OUT: does cuBLAS's k loop, the wait for the previous
# k-tile's wgmmas placed between two halves of the current one's, shorten the mainloop?
#
# launch_floor.sh put ~0.6 us of the 64x128 kernel's 1024^3 launch in the wgmmas on top of the
# loads (logs/launch_floor/); releasing slots earlier changed nothing (ring_refill.sh's
# norelwait).  In cuBLAS's kernel there (logs/cublas_sass/, sass_1024x1024x1024_nvjet.csv.gz)
# each k-tile issues four wgmmas, then waits for the previous k-tile's group (DEPBAR.LE gsb0,
# 0x0), releases its slot, tests the next slot's full barrier, and issues four more with the
# commit.  Step 10 issues all of a k-tile's wgmmas, commits, then waits for all but that
# group (wait_group 1).  One build, `split`: the k-tile's k16 steps in two halves, each its
# own committed group; after the first, `wgmma.wait_group 1` (the previous k-tile's second
# half done, this first half still queued), the release, then the second half.  A first
# form left the first half uncommitted and waited with `wait_group 0`, as cuBLAS's SASS
# reads; ptxas then closed the half as a group itself and waited for it (DEPBAR.LE gsb0, 0x0
# right after it): a drain per k-tile.  ptxas's notes go to OUT/ptxas.txt when built here.  Checks at odd shapes, every configuration and plan; CUPTI
# means at 1024^3 and 512^3; 3 rotated rounds of the model's picks at six shapes.
# Written in session 14 and built there: in the lean 64x128 kernel's SASS the k loop reads
# TRYWAIT, two HGMMAs (the second with gsb0), WARPGROUP.DEPBAR.LE gsb0 0x1, the release, a
# WARPGROUP.ARRIVE ptxas injects (C7519, one per kernel), two HGMMAs, back; the drain's
# DEPBAR.LE 0x0 after the loop.  Not yet run on a GPU.  PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: kloop_split.sh BUILD OUT}; OUT=${2:?usage: kloop_split.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  variant_patch_py "$BUILD" split <<'PY' 2> "$OUT/ptxas.txt"
# the k16 steps of one half of the slot: half 0 opens with the fences, half 1 commits
edit('''    wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
    wgmma_fence();   /* accumulator writes (zeroing, the last epilogue) come first */''',
'''    if (half == 0) {   /* experiment (kloop_split.sh) */
        wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
        wgmma_fence();   /* accumulator writes (zeroing, the last epilogue) come first */
    }''')
edit('''static __device__ __forceinline__ void consumer_mma_slot(consumer_ctx *cc, float (*acc)[ACC_REGS],
                                                         int accumulate)''',
'''static __device__ __forceinline__ void consumer_mma_slot(consumer_ctx *cc, float (*acc)[ACC_REGS],
                                                         int accumulate, int half)''')
edit('''    for (int kk = 0; kk < KSTEPS; ++kk)''', '''    for (int kk = half * KSTEPS / 2; kk < (half + 1) * KSTEPS / 2; ++kk)''')
edit('''                           wgmma_desc_advance(db, kk * WGMMA_K16_BYTES), accumulate || kk > 0);
        }
    wgmma_commit_group();''', '''                           wgmma_desc_advance(db, kk * WGMMA_K16_BYTES), accumulate || kk > 0);
        }
    wgmma_commit_group();   /* experiment: a group per half */''')
edit('''        consumer_mma_slot<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(cc, acc, kt > u->k_begin);
        CLOCK_SPAN(cc->clk, cc->leader, TP_CONSUMER_COMPUTE, cc->reads);
''', '''        consumer_mma_slot<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(cc, acc, kt > u->k_begin, 0);
        wgmma_wait_group(1);   /* experiment: the previous k-tile's last group done; this half still queued */
        if (kt > u->k_begin) {
            if (cc->leader) consumer_release_cluster(sm->empty, release_state->index, cc->rank ^ 1u, CLUSTER_SIZE == 2);
            pipeline_advance(release_state);
        }
        consumer_mma_slot<WG_M_BLOCKS, BN, TILE_WGS, CLUSTER_SIZE>(cc, acc, 1, 1);
        CLOCK_SPAN(cc->clk, cc->leader, TP_CONSUMER_COMPUTE, cc->reads);
''')
edit('''        wgmma_wait_group(1);
        wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);
        if (kt > u->k_begin) {
#ifdef COURSE_DEBUG''', '''        if (0) {   /* experiment: released above */
#ifdef COURSE_DEBUG''')
PY
fi
variant_need_gpu kloop_split "$BUILD/split/step10_autotune"
: > "$OUT/checks.txt"
variant_checks "$BUILD/split/step10_autotune" "$OUT/checks.txt" 64x128 128x128 128x192 128x256c
cupti_rounds "$OUT" "$BUILD" "1024x1024x1024 512x512x512" "--no-cache --no-check --config 64x128 --mode dp" \
  step10_autotune split/step10_autotune
: > "$OUT/rounds.txt"
variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" \
  "512x512x512 1024x1024x1024 512x4096x4096 512x4096x14336 2048x2048x2048 4096x4096x4096" \
  "step10_autotune --no-cache" "split/step10_autotune --no-cache"
