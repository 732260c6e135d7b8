#!/bin/bash
# recheck.sh — after the merge with step 09 renumbered the planted remote-release
# bug (5 -> 6): step 08's GPU tests again (the runner's gemm case with only step
# 08 present, as in final.sh), and bug 6 by hand.  Log: $OUT/recheck.log
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
ROOT=$(pwd)
T=/tmp/t08tree; rm -rf $T; mkdir -p $T/step08_cluster_multicast $T/build/debug
cp step08_cluster_multicast/kernel.cu $T/step08_cluster_multicast/
cp build/step08_cluster_multicast $T/build/; cp build/debug/step08_cluster_multicast $T/build/debug/
{
(cd $T && COURSE_BUILD=build CK_RUN_SUITE=gpu CK_RUN_CASE=gemm timeout 300 "$ROOT/build/tests/run_tests")
echo "runner rc=$?"
timeout 30 build/debug/step08_cluster_multicast --m 2048 --n 2048 --k 1024 --plant-bug 6 --iters 2 --warmup 1 2>&1 | grep -v "^HANG"
echo "bug 6 rc=${PIPESTATUS[0]}"
} > "$OUT/recheck.log" 2>&1
cat "$OUT/recheck.log"
