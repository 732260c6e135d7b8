#!/bin/sh
# tile_192/run.sh BUILD OUT [checks|tune|prefill|all]: would a tile of 192 rows close the shapes of model_layers where
# the menu's rows (64, 128) leave M a part-filled last row of tiles and the last wave part-filled?  At
# 571 x 8192 x 28672 (Llama-3 70B's FFN down at 571 tokens) the best candidate read 0.76 of cuBLAS, and
# cuBLAS ran nvjet_sm90_tst_192x192_64x4_2x1 there: 3 rows of 192 hold M = 571 with 1% padding and its
# 129 tiles make one wave (ncu: ../model_layers/logs/ncu.txt).  The menu's rows pad it to 640 (12%), and
# its tiles make 1.6-2.4 waves.
#
# Builds step 10's kernel.cu with one more menu entry, MENU_CONFIG("192x128", 3, 128, 1, 2, ...): a
# pingpong warpgroup holding three m64 blocks of 128 columns, 192 fp32 accumulators a thread as 128x192's
# two blocks of 192 (the same 240 registers), a stage of 40 KB as 128x192's, its pair along N sharing A
# (96 rows each).  cuBLAS's own 192 x 192 is cooperative, its two warpgroups splitting N (192 x 96 each):
# the kernel's cooperative tile splits M in m64 blocks, and 96 rows are not a whole number of them.  The
# model's constant for 192x128 is a placeholder (128x192's: the same MACs a k-tile): only --tune (which
# times every candidate beside cuBLAS, the best two head to head) and --config are read.
#   checks  192x128 forced in dp and sk at odd shapes, checked against cuBLAS (--exact where K <= 256)
#   tune    --tune at the model_layers shapes with M of 400-1600 and at shapes of M near a multiple of 192
#   prefill (not in all) tune_sweep.sh over ../model_layers/shapes_prefill.txt (24 shapes drawn with M of
#           256-4096 after the tune part ran, before this one); compare.py: the menu's best candidate against
#           192x128's, measured in the same process
# Exits 3 without a GPU after building; PREBUILT=1 skips nvcc (../variant.sh).
set -u
HERE=$(dirname "$0")
. "$HERE/../variant.sh"
variant_start "run.sh BUILD OUT [checks|tune|prefill|all]" "$@"
[ "${PREBUILT:-0}" = 1 ] || variant_patch_py "$BUILD" tile192 <<'PY'
edit('''    MENU_CONFIG("128x256c", 1, 256, 2, 2, CHOOSER_KT_US_128x256c),   /* cooperative (its kernel keeps the name pingpong_kernel) */
''', '''    MENU_CONFIG("128x256c", 1, 256, 2, 2, CHOOSER_KT_US_128x256c),   /* cooperative (its kernel keeps the name pingpong_kernel) */
    MENU_CONFIG("192x128", 3, 128, 1, 2, CHOOSER_KT_US_128x192),   /* experiment: three m64 blocks a warpgroup */
''')
PY
BIN=$BUILD/tile192/step10_autotune
variant_need_gpu tile_192 "$BIN"
if [ "$PART" = checks ] || [ "$PART" = all ]; then
  : > "$OUT/checks.txt"
  variant_checks "$BIN" "$OUT/checks.txt" 192x128
  variant_check_grid "$BIN" "$OUT/checks.txt" "571x8192x1024 191x300x512 193x130x4096 1000x1000x8" "dp sk" 192x128
  echo "checks: $(grep -c 'rc=0' "$OUT/checks.txt") of $(grep -c '^check' "$OUT/checks.txt") exit 0"
fi
if [ "$PART" = tune ] || [ "$PART" = all ]; then
  variant_tune "$BIN" "$OUT/tune.txt" 571x8192x28672 407x57344x8192 910x256000x3584 426x3584x14336 \
    429x7168x5120 1191x9216x3072 1555x5120x5120 679x28672x3584 575x4096x4096 1150x4096x14336 \
    380x14336x4096 768x8192x8192 4096x4096x4096
fi
if [ "$PART" = prefill ]; then
  bash "$HERE/../tune_sweep.sh" "$HERE/../model_layers/shapes_prefill.txt" "$OUT/tune_prefill" "$BIN" > "$OUT/tune_prefill_summary.txt"
  python3 "$HERE/compare.py" "$OUT/tune_prefill" > "$OUT/compare_prefill.txt"
  cat "$OUT/compare_prefill.txt"
fi
