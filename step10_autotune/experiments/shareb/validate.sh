#!/bin/bash
# validate.sh (step10_autotune/experiments/shareb): with shareb.patch applied, does
# 128x256c sharing B run correctly (DEBUG, every GPU test case, four sanitizers), how does
# it compare with the old orientation (A/B, 3 processes per binary, alternated), and what
# does every candidate measure at the fit and held-out shapes (the refit's data)?
#   bash step10_autotune/experiments/shareb/validate.sh B   (from the repository root)
# B holds step10_autotune (patched), debug/step10_autotune, tests/run_tests and
# old/step10_autotune (unpatched).  Writes $OUT (or /tmp/sbv): debug_ab.log, tune.tgz,
# tests_*.log, sanitize.md.  Exit 3 without a GPU.
set -u
export PATH=/usr/local/cuda/bin:$PATH
B=${1:?binary folder}; O=${OUT:-/tmp/sbv}; mkdir -p "$O"; chmod -R +x "$B"
"$B/step10_autotune" --m 64 --n 64 --k 64 --no-cache > /dev/null 2>&1; [ $? -eq 3 ] && { echo "validate.sh: no GPU" >&2; exit 3; }
L=$O/debug_ab.log
# 1. DEBUG: hangs are reported by name; the padding CTA past M (1100), a partial last row (1001)
for a in "--m 1000 --n 1000 --k 1000 --mode dp" "--m 1000 --n 1000 --k 1000 --mode sk" \
         "--m 1100 --n 4096 --k 4168 --mode dp" "--m 1100 --n 4096 --k 4168 --mode sk" \
         "--m 1001 --n 4096 --k 4168 --mode dp" "--m 1001 --n 4096 --k 4168 --mode sk" \
         "--m 1100 --n 4096 --k 4168 --mode sk --stages 2" "--m 4096 --n 4096 --k 128 --mode sk"; do
  timeout 60 "$B/debug/step10_autotune" --config 128x256c $a --no-cache > /tmp/d.tmp 2>&1
  echo "debug [$a] rc=$? $(grep -E 'check|HANG|hang' /tmp/d.tmp | head -2 | tr '\n' ' ')" >> "$L"
done
# 2. A/B, 128x256c/dp forced, old then new, 3 rounds
for r in 1 2 3; do for s in "4096 4096 4168" "4000 3000 4168" "4096 4096 4096" "2048 4096 14336" "8192 8192 8192"; do set -- $s
  for b in old/step10_autotune step10_autotune; do
    echo "r$r ${b%%/*} $s: $(timeout 40 "$B/$b" --m $1 --n $2 --k $3 --config 128x256c --mode dp --no-cache --no-check 2>&1 | grep ratio | sed 's/.*stages=[0-9]*: //')" >> "$L"
  done
done; done
# 3. the tune sweeps (timing: nothing else runs)
T=/tmp/sbv_tune; mkdir -p $T
bash step10_autotune/experiments/tune_sweep.sh step10_autotune/chooser_fit.txt $T/tune_fit "$B/step10_autotune" > $T/tune_fit_summary.txt 2>&1
bash step10_autotune/experiments/tune_sweep.sh step10_autotune/heldout_shapes.txt $T/tune_heldout "$B/step10_autotune" > $T/tune_heldout_summary.txt 2>&1
tar czf "$O/tune.tgz" -C $T .
# 4. correctness in parallel (no timing from here on): every test case of step 10, the sanitizers
for c in autotune_128x256c autotune_64x128 autotune_128x128 autotune_128x192 autotune; do
  CK_RUN_SUITE=gpu CK_RUN_CASE=$c COURSE_BUILD="$B" timeout 400 "$B/tests/run_tests" > "$O/tests_$c.log" 2>&1 &
done
SANITIZE_STEPS=10 SANITIZE_EXTRAS=0 timeout 400 sh tests/sanitize.sh "$B" "$O/sanitize.md" > "$O/sanitize_run.log" 2>&1 &
wait
exit 0
