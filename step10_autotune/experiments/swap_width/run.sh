#!/bin/sh
# swap_width/run.sh BUILD OUT [checks|tune|rounds|all]: would tiles as wide as the tokens close the short prefill shapes?
# cuBLAS's kernels there (../model_layers/logs/ncu_prefill.txt) put the tokens (M) along the tile's N, whose
# width the wgmma instruction takes in steps of 8, and pick a width that M fills to within 3%: 128x208 at
# 829 x 4096 x 14336 (M = 829 in 4 x 208 = 832), 128x112 at 330 x 4608 x 3584 (3 x 112 = 336).  Step 10's
# tiles put M along 64 or 128 rows (829 -> 896: 8% of the MACs padding; 274 -> 384: 29%).  ../model_layers
# (run.sh swap) ran the shapes as N x M x K with the widths step 10 has (64-256 in steps of 64): faster at 4
# of 12, where 192 fits M.  This build adds cooperative tiles of cuBLAS's widths:
#   MENU_CONFIG("128xWc", 1, W, 2, 2, ...) for W = 112, 144, 176, 208: both warpgroups on one tile, 64 rows x
#   W columns each (W / 2 accumulators a thread), the pair along M sharing B (W / 2 rows each: a whole number
#   of 8-row swizzle atoms, which is why W steps by 16 here); their m64nWk16 wrappers from gen_wgmma.py.
# Only the swapped run is measured: N' = M is odd at every shape of the list, so D's rows are not 16-byte
# aligned and the epilogue stores from registers, masked, a path that takes any width.  The TMA store's
# sub-tiles are 64 columns: a W-wide tile would leave its last W % 64 columns unstored, so this build traps
# there (no GPU run here takes that path: N % 8 != 0 at every shape it runs).  The output of a swapped run
# is C^T; a kernel that kept C's layout would transpose in its epilogue (not built).  The new entries'
# k-tile constants are placeholders (128x256c's, scaled by W / 256): only --tune and --config are read,
# and the chooser's candidate array is widened to 48 in a copy of chooser.h.
#   checks  every new tile forced in dp and sk at shapes with odd N, checked against cuBLAS (--exact at K <= 256)
#   tune    tune_sweep.sh over ../model_layers/shapes_swapped.txt, then ../model_layers/swap.py against the
#           shapes' own orientation
#   rounds  (not in all; TREE=BIN, the tree's step10_autotune) the tune part compared processes run minutes
#           apart; here, 3 rounds, the order rotated each round, of the tree's model pick at M x N x K (cuBLAS
#           timed beside it) and the swapped tile tune found best at N x M x K, forced, at seven of the shapes;
#           rounds.py: the medians, the swapped time over cuBLAS's beside the as-is runs
# Exits 3 without a GPU after building; PREBUILT=1 skips nvcc (../variant.sh).
set -u
HERE=$(dirname "$0")
. "$HERE/../variant.sh"
variant_start "run.sh BUILD OUT [checks|tune|rounds|all]" "$@"
WIDTHS="112 144 176 208"
if [ "${PREBUILT:-0}" != 1 ]; then
  mkdir -p "$BUILD/swapw"
  # shellcheck disable=SC2086  # WIDTHS is a list
  python3 "$HERE/gen_wgmma.py" $WIDTHS > "$BUILD/swapw/wgmma_widths.cuh" || exit 1
  sed 's/^#define CHOOSER_MAX_CANDIDATES 24$/#define CHOOSER_MAX_CANDIDATES 48   \/* experiment: nine configurations *\//' \
      step10_autotune/chooser.h > "$BUILD/swapw/chooser.h"
  grep -q 'CHOOSER_MAX_CANDIDATES 48' "$BUILD/swapw/chooser.h" || { echo "swap_width: chooser.h changed; the patch no longer applies"; exit 1; }
  variant_patch_py "$BUILD" swapw <<'PY'
edit('''template <int N_ACC>   /* an m64 block's accumulators, BN / 2, pick the BN-wide wgmma */''',
     '''#include "wgmma_widths.cuh"   /* experiment: m64n112, n144, n176, n208 (gen_wgmma.py) */
template <int N_ACC>   /* an m64 block's accumulators, BN / 2, pick the BN-wide wgmma */''')
edit('''    static_assert(N_ACC == 32 || N_ACC == 64 || N_ACC == 96 || N_ACC == 128, "BN: 64, 128, 192 or 256 (wgmma.cuh)");
    if constexpr (N_ACC == 32)''',
     '''    if constexpr (N_ACC == 56) wgmma_m64n112k16_bf16(acc, da, db, accumulate);   /* experiment */
    else if constexpr (N_ACC == 72) wgmma_m64n144k16_bf16(acc, da, db, accumulate);
    else if constexpr (N_ACC == 88) wgmma_m64n176k16_bf16(acc, da, db, accumulate);
    else if constexpr (N_ACC == 104) wgmma_m64n208k16_bf16(acc, da, db, accumulate);
    else if constexpr (N_ACC == 32)''')
edit('''    static_assert(BN % EPI_COLS == 0, "BN must be a multiple of the 64-column store sub-tile");
''', '''    /* experiment: BN % 64 != 0 allowed; the TMA store path traps (epilogue_store) */
''')
edit('''    if (cc->lean || P->use_tma_store) {
''', '''    if (cc->lean || P->use_tma_store) {
        if (BN % EPI_COLS) __trap();   /* experiment: 64-column sub-tiles would leave BN % 64 columns unstored */
''')
edit('''    MENU_CONFIG("128x256c", 1, 256, 2, 2, CHOOSER_KT_US_128x256c),   /* cooperative (its kernel keeps the name pingpong_kernel) */
''', '''    MENU_CONFIG("128x256c", 1, 256, 2, 2, CHOOSER_KT_US_128x256c),   /* cooperative (its kernel keeps the name pingpong_kernel) */
    MENU_CONFIG("128x112c", 1, 112, 2, 2, CHOOSER_KT_US_128x256c * 112 / 256),   /* experiment: cuBLAS's widths */
    MENU_CONFIG("128x144c", 1, 144, 2, 2, CHOOSER_KT_US_128x256c * 144 / 256),
    MENU_CONFIG("128x176c", 1, 176, 2, 2, CHOOSER_KT_US_128x256c * 176 / 256),
    MENU_CONFIG("128x208c", 1, 208, 2, 2, CHOOSER_KT_US_128x256c * 208 / 256),
''')
PY
fi
BIN=$BUILD/swapw/step10_autotune
variant_need_gpu swap_width "$BIN"
if [ "$PART" = checks ] || [ "$PART" = all ]; then
  : > "$OUT/checks.txt"
  variant_check_grid "$BIN" "$OUT/checks.txt" "77x201x136 130x67x8 513x4097x200 1000x1001x1000 1100x4095x4168 4096x829x14336 8192x571x1024" \
    "dp sk" 128x112c 128x144c 128x176c 128x208c
  echo "checks: $(grep -c 'rc=0' "$OUT/checks.txt") of $(grep -c '^check' "$OUT/checks.txt") exit 0"
fi
if [ "$PART" = tune ] || [ "$PART" = all ]; then
  bash "$HERE/../tune_sweep.sh" "$HERE/../model_layers/shapes_swapped.txt" "$OUT/tune_swapped" "$BIN" > "$OUT/tune_swapped_summary.txt"
  python3 "$HERE/../model_layers/swap.py" "$OUT/tune_swapped" "$HERE/../model_layers/logs/tune" \
    "$HERE/../tile_192/logs/prefill/tune_prefill" > "$OUT/swap.txt"
  cat "$OUT/swap.txt"
fi
if [ "$PART" = rounds ]; then
  TREE=${TREE:?rounds: TREE=BIN, step10_autotune built from the tree}
  : > "$OUT/rounds.txt"
  for r in 1 2 3; do
    order="as_is swapped"; [ $((r % 2)) = 0 ] && order="swapped as_is"   # rotated round by round
    for one in 407x57344x8192:128x208c 426x3584x14336:128x112c 514x27648x5120:128x176c 555x8192x28672:128x144c \
               571x8192x28672:128x144c 274x8192x8192:128x144c 829x4096x14336:128x208c; do
      sh=${one%%:*}; c=${one#*:}; m=${sh%%x*}; rest=${sh#*x}; n=${rest%%x*}; k=${rest#*x}
      for side in $order; do
        if [ "$side" = as_is ]; then line=$("$TREE" --m "$m" --n "$n" --k "$k" --no-cache --no-check 2>&1 | grep '[|] ratio')
        else line=$("$BIN" --m "$n" --n "$m" --k "$k" --config "$c" --mode dp --no-cache --no-check 2>&1 | grep '[|] ratio'); fi
        echo "r$r $sh $side $c: $line" >> "$OUT/rounds.txt"
      done
    done
  done
  python3 "$HERE/rounds.py" "$OUT/rounds.txt" > "$OUT/rounds_summary.txt"
  cat "$OUT/rounds_summary.txt"
fi
