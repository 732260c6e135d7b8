#!/bin/sh
# fixed_cost/cold_code.sh BUILD OUT: does the code the epilogue jumps over cost time at 1024^3?
#
# launch_floor.sh and ring_refill.sh (logs/launch_floor/, logs/ring_refill/) put ~0.4 us of the
# 64x128/dp kernel's 6.7 us at 1024^3 in staging D in shared memory (the epilogue without its
# TMA store, against no epilogue), for ~100 instructions a thread.  ncu's source page of that
# launch (cublas_sass.sh; logs/cublas_sass/) samples `no_inst` stalls (instruction fetch) at the
# targets of the jumps between the mainloop's end and the first store: over stream-K's fixup
# (sk_unit_writes, sk_unit_waits) and the masked-store path.  After the harness's L2 flush the
# code is in DRAM, so each line the warps jump to may be a DRAM round trip on the critical
# path.  cuBLAS's kernel there is 1,040 instructions, mostly straight; step 10's is 1,960.
# Builds, the data-parallel plan only (their stream-K plans would be wrong: not run).  The logs
# (logs/cold_code/) came from 21363a0's tree, whose dp launches ran the full kernel:
#   nofixup:    fixup_piece returns 0 at once: no stream-K code in the kernel;
#   tmaonly:    nofixup, and the epilogue's masked-store path gone (every shape here has
#               N % 8 == 0, so the tree takes the TMA path anyway).
# tmaonly's answer became the lean kernel (c477404), which the tree's dp launches now run.  So
# at HEAD the script asks the same question from the other side:
#   full:       the tree with dp launches on the full kernel again (21363a0's "tree");
#   nofixup:    full, with fixup_piece returning 0 at once (21363a0's "nofixup");
# against the tree (21363a0's "tmaonly").  This HEAD form builds here and exits 3 without a GPU;
# it has not run on one yet (session 14 ran out of device time): its logs will go beside the
# first ones.
# Each checked at odd shapes (64x128/dp), then CUPTI's run times at 1024^3 and 512^3 against the
# tree's (cupti_fit.sh's cupti_rounds) and 3 rotated rounds of ratios at four shapes.
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: cold_code.sh BUILD OUT}; OUT=${2:?usage: cold_code.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  for v in full nofixup; do
    variant_patch_py "$BUILD" "$v" "$v" <<'PY'
edit('P->sk.plan.sk_tiles ? p->launch : P->use_tma_store ? p->lean : &whole,',
     'P->sk.plan.sk_tiles ? p->launch : &whole,   /* experiment (cold_code.sh): dp on the full kernel */')
if sys.argv[3] == 'nofixup':
    edit('''    const int unit = stream_k_unit(P);
    if (sk_unit_writes(&P->sk.plan, u)) {''', '''    if (P) return 0;   /* experiment (cold_code.sh): no stream-K code; dp plans only */
    const int unit = stream_k_unit(P);
    if (sk_unit_writes(&P->sk.plan, u)) {''')
PY
  done
fi
variant_need_gpu cold_code "$BUILD/nofixup/step10_autotune"
: > "$OUT/checks.txt"
for v in full nofixup; do
  for sh in 77x200x136 130x64x8 513x4096x200 1000x1000x1000 1100x4096x4168; do
    m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
    exact=""; [ "$k" -le 256 ] && exact=--exact
    out=$(timeout 60 "$BUILD/$v/step10_autotune" --m "$m" --n "$n" --k "$k" --no-cache --config 64x128 --mode dp $exact 2>&1)
    echo "check $v $sh 64x128/dp rc=$? $(echo "$out" | grep -h 'check' | head -1 | sed 's/.*| check/check/')" >> "$OUT/checks.txt"
  done
done
cupti_rounds "$OUT" "$BUILD" "1024x1024x1024 512x512x512" "--no-cache --no-check --config 64x128 --mode dp" \
  step10_autotune full/step10_autotune nofixup/step10_autotune
: > "$OUT/rounds.txt"
variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" "512x512x512 1024x1024x1024 512x4096x4096 2048x2048x2048" \
  "step10_autotune --no-cache --mode dp" "full/step10_autotune --no-cache --mode dp" "nofixup/step10_autotune --no-cache --mode dp"
