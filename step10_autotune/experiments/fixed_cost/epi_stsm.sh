#!/bin/sh
# fixed_cost/epi_stsm.sh BUILD OUT: does staging D with stmatrix, as cuBLAS's kernel does,
# shorten the epilogue?
#
# The 64x128 epilogue at 1024^3 costs ~0.7 us on the critical path, ~0.4 of it staging D in
# shared memory (logs/ring_refill/); half its barriers and fences change nothing
# (logs/epi_group/).  Each thread stages a 64 x 64 sub-tile with 16 st.shared of a bf16 pair,
# each at its own swizzled address (sw128_acc_pair_offset): 32 stores and their address
# arithmetic a tile, straight-line code that is fetched cold once per launch.  cuBLAS's kernel
# stages with STSM (logs/cublas_sass/).  One build, `stsm`: each warp writes its 16 rows of a
# sub-tile with 4 `stmatrix.sync.aligned.m8n8.x4` (four 8 x 8 matrices each: two column
# blocks, both 8-row halves), every lane naming one matrix row's 16-byte chunk in the
# 128-byte swizzle (row r, chunk c at r * 128 + ((c ^ (r % 8)) << 4)); the registers are
# the accumulators' bf16 pairs, which hold exactly the m8n8 fragment.  Everything else as the
# tree.  Checks at odd shapes (bit for bit where K <= 256), every configuration and plan;
# CUPTI means at 1024^3 and 512^3; 3 rotated rounds of the model's picks at six shapes.
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: epi_stsm.sh BUILD OUT}; OUT=${2:?usage: epi_stsm.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  variant_patch_py "$BUILD" stsm <<'PY'
edit('''    unsigned char *buf = cc->sm->d_ptr + b * EPI_SUB_BYTES;
#pragma unroll
    for (int i = 0; i < EPI_REGS; i += 2) {
        const __nv_bfloat162 v = __floats2bfloat162_rn(acc_sub[i], acc_sub[i + 1]);
        *(__nv_bfloat162 *)(buf + sw128_acc_pair_offset(warpgroup_thread(), i)) = v;
    }
''', '''    /* experiment (fixed_cost/epi_stsm.sh): 4 stmatrix.x4 a warp; lane l names row (l % 8) + 8 * bit 3
     * of the warp's 16, chunk 2q + bit 4 of the pair of column blocks q */
    const uint32_t lane = (uint32_t)warpgroup_thread() % 32u;
    const uint32_t row = 16u * ((uint32_t)warpgroup_thread() / 32u) + (lane & 7u) + 8u * ((lane >> 3) & 1u);
    const uint32_t base = cc->sm->d + (uint32_t)b * EPI_SUB_BYTES + row * WGMMA_SW128_ROW_BYTES;
#pragma unroll
    for (int q = 0; q < EPI_REGS / 8; ++q) {
        uint32_t r[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {   /* matrix j: column block 2q + j / 2, rows 8 * (j % 2) .. */
            const int i = (2 * q + j / 2) * 4 + 2 * (j % 2);
            const __nv_bfloat162 v = __floats2bfloat162_rn(acc_sub[i], acc_sub[i + 1]);
            r[j] = *(const uint32_t *)&v;
        }
        const uint32_t chunk = 2u * (uint32_t)q + (lane >> 4);
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                     ::"r"(base + ((chunk ^ (lane & 7u)) << 4)), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
    }
''')
PY
fi
variant_need_gpu epi_stsm "$BUILD/stsm/step10_autotune"
: > "$OUT/checks.txt"
variant_checks "$BUILD/stsm/step10_autotune" "$OUT/checks.txt" 64x128 128x128 128x192 128x256c
cupti_rounds "$OUT" "$BUILD" "1024x1024x1024 512x512x512" "--no-cache --no-check --config 64x128 --mode dp" \
  step10_autotune stsm/step10_autotune
: > "$OUT/rounds.txt"
variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" \
  "512x512x512 1024x1024x1024 512x4096x4096 512x4096x14336 2048x2048x2048 4096x4096x4096" \
  "step10_autotune --no-cache" "stsm/step10_autotune --no-cache"
