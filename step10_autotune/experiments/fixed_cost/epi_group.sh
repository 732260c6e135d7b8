#!/bin/sh
# fixed_cost/epi_group.sh BUILD OUT: does the epilogue's staging cost less with one fence and
# one barrier per group of D buffers instead of per sub-tile?
#
# ring_refill.sh measured the 64x128 epilogue at 1024^3 at ~0.7 us on the critical path, ~0.4
# of it staging D in shared memory (logs/ring_refill/).  Step 10 stages each 64 x 64 sub-tile
# on its own: the leader waits for the buffer's last store to have read it, a named barrier,
# the st.shared, a `fence.proxy.async` (MEMBAR.ALL.CTA + FENCE.VIEW.ASYNC.S in SASS), a second
# barrier, the store.  cuBLAS's kernel there fences and syncs once per store
# (logs/cublas_sass/).  One build, `group`: the sub-tiles go through the EPI_BUFS buffers in
# groups: one wait and barrier before a group, every sub-tile of it staged, one fence and one
# barrier, then its stores in one bulk group.  For 64x128's lone tile (two sub-tiles, two
# buffers) that is half the barriers and fences; a later group waits for all the earlier
# stores to have read their buffers, where the tree waits for all but the newest.
# Checks at odd shapes, every configuration and plan; CUPTI means at 1024^3 and 512^3; 3
# rotated rounds of the model's picks at six shapes.  PREBUILT=1 skips nvcc.  Exits 3 without
# a GPU.
set -u
BUILD=${1:?usage: epi_group.sh BUILD OUT}; OUT=${2:?usage: epi_group.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  variant_patch_py "$BUILD" group <<'PY'
edit('''#pragma unroll
        for (int mb = 0; mb < WG_M_BLOCKS; ++mb)
#pragma unroll
            for (int j = 0; j < EPI_CHUNKS; ++j)
                epilogue_store_subtile(P, cc, &acc[mb][EPI_REGS * j], m0 + 64 * mb, n0 + EPI_COLS * j);
''', '''        /* experiment (fixed_cost/epi_group.sh): EPI_BUFS sub-tiles a group, one fence and one barrier each */
#pragma unroll
        for (int g = 0; g < WG_M_BLOCKS * EPI_CHUNKS; g += EPI_BUFS) {
            if (cc->leader) tma_store_wait_read(0);   /* every earlier store has read its buffer */
            named_bar_sync(BAR_STORE + cc->c, WG_THREADS, "epilogue");
#pragma unroll
            for (int t = g; t < g + EPI_BUFS && t < WG_M_BLOCKS * EPI_CHUNKS; ++t) {
                unsigned char *buf = cc->sm->d_ptr + (t - g + cc->part * EPI_BUFS) * EPI_SUB_BYTES;
                const float *acc_sub = &acc[t / EPI_CHUNKS][EPI_REGS * (t % EPI_CHUNKS)];
#pragma unroll
                for (int i = 0; i < EPI_REGS; i += 2) {
                    const __nv_bfloat162 v = __floats2bfloat162_rn(acc_sub[i], acc_sub[i + 1]);
                    *(__nv_bfloat162 *)(buf + sw128_acc_pair_offset(warpgroup_thread(), i)) = v;
                }
            }
            fence_proxy_async_smem();
            named_bar_sync(BAR_STORE + cc->c, WG_THREADS, "epilogue");
            if (cc->leader) {
#pragma unroll
                for (int t = g; t < g + EPI_BUFS && t < WG_M_BLOCKS * EPI_CHUNKS; ++t)
                    tma_store_2d(&P->map_d, n0 + EPI_COLS * (t % EPI_CHUNKS), m0 + 64 * (t / EPI_CHUNKS),
                                 cc->sm->d + (t - g + cc->part * EPI_BUFS) * EPI_SUB_BYTES);
                tma_store_commit_group();
            }
        }
''')
PY
fi
variant_need_gpu epi_group "$BUILD/group/step10_autotune"
: > "$OUT/checks.txt"
variant_checks "$BUILD/group/step10_autotune" "$OUT/checks.txt" 64x128 128x128 128x192 128x256c
cupti_rounds "$OUT" "$BUILD" "1024x1024x1024 512x512x512" "--no-cache --no-check --config 64x128 --mode dp" \
  step10_autotune group/step10_autotune
: > "$OUT/rounds.txt"
variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" \
  "512x512x512 1024x1024x1024 512x4096x4096 512x4096x14336 2048x2048x2048 4096x4096x4096" \
  "step10_autotune --no-cache" "group/step10_autotune --no-cache"
