#!/bin/bash
# correctness.sh — is step 08's kernel correct on the GPU?  Four checks:
#   1. the test runner's GPU `gemm` case in a tree that holds only step 08's
#      folder, so only step 08's cases register (edge shapes, 2 and 4 stages,
#      persistent shapes, planted bugs 3 and 6, the cluster timeline order);
#   2. planted bug 6 (one remote release skipped), DEBUG build: is it
#      diagnosed by name?
#   3. compute-sanitizer's four tools (tests/sanitize.sh over a build folder
#      holding step 08 only): 0 errors, and no "unsupported" message on
#      multicast and distributed shared memory?
#   4. the timeline of cluster 0 at 4096 x 4096 x 1024 (README, "Timeline").
# Parts 1, 3 and 4 were parts 1, 2 and 5 of final.sh (git d0d448e), part 2
# was recheck.sh; README.md says which log each printed.
#
#   make step08 && make DEBUG=1 step08 && make test-runner
#   OUT=/tmp/out bash step08_cluster_multicast/experiments/correctness.sh   (GPU)
#
# Writes $OUT/gpu_tests_step08_only.log, $OUT/remote_release_bug6.log,
# $OUT/sanitizers.md (the table and each tool's summary lines) and
# $OUT/cluster0_timeline.csv.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
ROOT=$(pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader

# ---- 1. the runner's GPU gemm case, with only step 08 present ------------------
mkdir -p $T/tree/step08_cluster_multicast $T/tree/build/debug
cp step08_cluster_multicast/kernel.cu $T/tree/step08_cluster_multicast/
cp build/step08_cluster_multicast $T/tree/build/; cp build/debug/step08_cluster_multicast $T/tree/build/debug/
(cd $T/tree && COURSE_BUILD=build CK_RUN_SUITE=gpu CK_RUN_CASE=gemm \
    timeout 400 "$ROOT/build/tests/run_tests") > "$OUT/gpu_tests_step08_only.log" 2>&1
echo "tests rc=$? $(tail -1 "$OUT/gpu_tests_step08_only.log")"
grep ":F:\|:E:" "$OUT/gpu_tests_step08_only.log" | head

# ---- 2. planted bug 6: a remote release skipped ---------------------------------
{
timeout 30 build/debug/step08_cluster_multicast --m 2048 --n 2048 --k 1024 --plant-bug 6 --iters 2 --warmup 1 2>&1 | grep -v "^HANG"
echo "bug 6 rc=${PIPESTATUS[0]}"
} > "$OUT/remote_release_bug6.log" 2>&1
cat "$OUT/remote_release_bug6.log"

# ---- 3. sanitizers (tests/sanitize.sh over a build folder holding step 08 only) --
mkdir -p $T/bin $T/san; cp build/step08_cluster_multicast $T/bin/
sh tests/sanitize.sh $T/bin $T/san/sanitize.md > $T/san/run.log 2>&1
echo "sanitize rc=$?"
{ cat $T/san/sanitize.md; cat $T/san/run.log
  for t in memcheck racecheck synccheck initcheck; do
    echo "--- $t"; grep -i "summary\|not supported\|unsupported\|warning" $T/san/sanitize_logs/step08_cluster_multicast_$t.log | head -3
  done; } > "$OUT/sanitizers.md"
tail -12 "$OUT/sanitizers.md"

# ---- 4. timeline of cluster 0 ------------------------------------------------------
timeout 60 build/step08_cluster_multicast --m 4096 --n 4096 --k 1024 --trace "$OUT/cluster0_timeline.csv" --iters 2 --warmup 1 | tail -1
