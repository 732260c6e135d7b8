#!/bin/sh
# fixed_cost/ring_refill.sh BUILD OUT: is the ring's second pass at 1024^3 waiting for DRAM?
#
# launch_floor.sh cut the tree's 64x128/dp kernel short at 1024^3 (logs/launch_floor/): the
# launch and the start-up barrier take 1.3 us, moving the operands through the ring with no
# wgmma 4.1 us more (loads: 5.38 us), the mainloop's wgmmas add 0.6 us and the epilogue 0.7
# (the whole kernel: 6.71 us; cuBLAS's, with the same 384 threads, 168 registers, 213 KiB and
# clusters of 2: 6.05).  The wgmmas of one k-tile take ~0.12 us and a k-tile arrives every
# ~0.25 us, so they should hide behind the loads but for the last one.  One reading of the
# extra: the ring holds 8 of the 16 k-tiles; k-tile s + 8 is requested only when the consumer
# releases slot s, one k-tile's wgmmas after its data landed, and nobody has asked DRAM for it
# before (every CTA reaches its second pass at about the same time).  So every second-pass
# k-tile waits for a DRAM round trip that starts late.  Builds:
#   l2ahead:    after loading k-tile kt, the producer asks L2 to fetch k-tile kt + stages
#               (cp.async.bulk.prefetch.tensor: DRAM -> L2, nothing into shared memory) so
#               that the refill finds it there; every k-tile, so long K prefetches one ring ahead;
#   l2first:    the same, but only for the first pass (the refills of the ring's first fill);
#   norelwait:  (a probe, results garbage) the consumer releases slot kt - 1 without waiting for
#               its wgmmas: the refill is asked for one k-tile's wgmmas earlier;
#   stage_only: (a probe) the epilogue converts and stages D in shared memory as the tree does
#               but never issues the TMA store: the epilogue's cost without its global write.
# CUPTI's run times (cupti_fit.sh's cupti_rounds) at 1024^3, 512^3 and 1024 x 1024 x 4096 (64
# k-tiles: the prefetch runs one ring ahead all along), then the two prefetching builds against
# the tree, the model's picks, 3 rotated rounds at six shapes (variant_rotated_rounds), and their
# checks at odd shapes.  PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
# logs/ring_refill/ came from 21363a0's tree, before the lean kernel (c477404).
set -u
BUILD=${1:?usage: ring_refill.sh BUILD OUT}; OUT=${2:?usage: ring_refill.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  for v in l2ahead l2first norelwait stage_only; do
    variant_patch_py "$BUILD" "$v" "$v" <<'PY'
v = sys.argv[3]
if v in ('l2ahead', 'l2first'):
    decl = 'template <int SHARED>   /* one box; the shared one'
    edit(decl, '''/* experiment (fixed_cost/ring_refill.sh): one box DRAM -> L2, nothing into shared memory */
static __device__ __forceinline__ void tma_prefetch_l2(const CUtensorMap *map, int k, int row)
{
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" ::"l"((uint64_t)map), "r"(k), "r"(row)
                 : "memory");
}

''' + decl)
    first = ' && kt < u->k_begin + P->stages' if v == 'l2first' else ''
    at = '        CLOCK_SPAN(pc->clk, 1, TP_PRODUCER_LOAD, pc->loads);\n'
    edit(at, at + '''        if (kt + P->stages < u->k_end''' + first + ''') {   /* experiment: the k-tile this slot's refill will load */
            tma_prefetch_l2(&P->map_a, (kt + P->stages) * BK, u->tile_m * BM + (int)ra * A_HALF_ROWS);
            tma_prefetch_l2(&P->map_b, (kt + P->stages) * BK, u->tile_n * BN + (int)rb * B_HALF_ROWS);
        }
''')
elif v == 'norelwait':
    edit('        wgmma_wait_group(1);\n        wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);\n        if (kt > u->k_begin) {',
         '        wgmma_fence_operands(&acc[0][0], WG_M_BLOCKS * ACC_REGS);   /* experiment: no wait (a race) */\n        if (kt > u->k_begin) {')
else:
    edit('    if (cc->leader) {\n        tma_store_2d(&P->map_d,',
         '    if (cc->leader && gridDim.x == 77777u) {   /* experiment: never */\n        tma_store_2d(&P->map_d,')
PY
  done
fi
variant_need_gpu ring_refill "$BUILD/stage_only/step10_autotune"

: > "$OUT/checks.txt"
for v in l2ahead l2first; do
  echo "== $v" >> "$OUT/checks.txt"
  variant_checks "$BUILD/$v/step10_autotune" "$OUT/checks.txt" 64x128 128x128 128x192 128x256c
done
cupti_rounds "$OUT" "$BUILD" "1024x1024x1024 512x512x512 1024x1024x4096" "--no-cache --no-check --config 64x128 --mode dp" \
  step10_autotune l2ahead/step10_autotune l2first/step10_autotune norelwait/step10_autotune stage_only/step10_autotune
: > "$OUT/rounds.txt"
variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" \
  "512x512x512 1024x1024x1024 1024x1024x4096 512x4096x4096 2048x2048x2048 4096x4096x4096" \
  "step10_autotune --no-cache" "l2ahead/step10_autotune --no-cache" "l2first/step10_autotune --no-cache"
