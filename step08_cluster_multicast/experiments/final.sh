#!/bin/bash
# final.sh — the last GPU call for step 08 (binaries built on the workstation
# and carried): the GPU tests of step 08 (the runner's gemm case, run where
# only step 08's folder exists, so only its tests register), the four
# sanitizer tools, the bench rows (3 processes per goal shape, step 07
# alternated with it in the same call, step 06 once), ncu's L2 / DRAM
# counters per tile for steps 07 and 08, and the timeline of cluster 0.
# Needs: build/step0{6,7,8}_*, build/debug/step08_cluster_multicast,
#        build/tests/run_tests
# Writes: plots/results/NVIDIA_H100_80GB_HBM3.csv (step 08's rows; copied to
# $OUT/rows08.csv), $OUT/final_tests.log, $OUT/final_sanitize.md (the table
# and each tool's summary lines), $OUT/final_time.log, $OUT/final_other.csv (steps 06/07),
# $OUT/final_ncu.log, $OUT/t08.csv
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
ROOT=$(pwd)
CSV=plots/results/NVIDIA_H100_80GB_HBM3.csv
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader

# ---- 1. tests: the runner's GPU gemm case, with only step 08 present -------------
T=/tmp/t08tree; rm -rf $T; mkdir -p $T/step08_cluster_multicast $T/build/debug
cp step08_cluster_multicast/kernel.cu $T/step08_cluster_multicast/
cp build/step08_cluster_multicast $T/build/; cp build/debug/step08_cluster_multicast $T/build/debug/
(cd $T && COURSE_BUILD=build CK_RUN_SUITE=gpu CK_RUN_CASE=gemm CK_VERBOSITY=verbose \
    timeout 400 "$ROOT/build/tests/run_tests") > "$OUT/final_tests.log" 2>&1
echo "tests rc=$? $(tail -1 "$OUT/final_tests.log")"
grep -c ":P:" "$OUT/final_tests.log"; grep ":F:\|:E:" "$OUT/final_tests.log" | head

# ---- 2. sanitizers (tests/sanitize.sh over a build dir holding step 08 only) -----
S=/tmp/s08build; rm -rf $S /tmp/san; mkdir -p $S /tmp/san; cp build/step08_cluster_multicast $S/
sh tests/sanitize.sh $S /tmp/san/sanitize.md > /tmp/san/run.log 2>&1
echo "sanitize rc=$?"
{ cat /tmp/san/sanitize.md; cat /tmp/san/run.log
  for t in memcheck racecheck synccheck initcheck; do
    echo "--- $t"; grep -i "summary\|not supported\|unsupported\|warning" /tmp/san/sanitize_logs/step08_cluster_multicast_$t.log | head -3
  done; } > "$OUT/final_sanitize.md"
tail -12 "$OUT/final_sanitize.md"

# ---- 3. bench rows: 3 processes per goal shape, steps 07 / 08 alternated -------
GOAL="4096x4096x4096 6144x6144x6144 8192x8192x8192 4096x14336x4096 4096x4096x14336 8192x14336x4096 8192x4096x14336"
flags() { if [ "$1" -gt 1 ]; then echo "--repeat $1 --no-check"; else echo "--repeat $1"; fi; }
for r in 1 2 3; do
  for s in $GOAL; do
    IFS=x read -r m n k <<< "$s"
    o7=$(timeout 120 build/step07_pingpong --m $m --n $n --k $k $(flags $r) --csv "$OUT/final_other.csv" 2>&1 | tail -1)
    o8=$(timeout 120 build/step08_cluster_multicast --m $m --n $n --k $k $(flags $r) --csv $CSV 2>&1 | tail -1)
    echo "r$r $s s07 $(echo "$o7" | grep -o 'ratio [0-9.]*\|check [a-zA-Z]*' | tr '\n' ' ')| s08 $(echo "$o8" | grep -o 'ratio [0-9.]*\|check [a-zA-Z]*' | tr '\n' ' ')" | tee -a "$OUT/final_time.log"
  done
done
for s in $GOAL; do
  IFS=x read -r m n k <<< "$s"
  o6=$(timeout 120 build/step06_persistent --m $m --n $n --k $k --no-check --csv "$OUT/final_other.csv" 2>&1 | tail -1)
  echo "s06 $s $(echo "$o6" | grep -o 'ratio [0-9.]*')" | tee -a "$OUT/final_time.log"
done
grep "^08," $CSV | tail -21 > "$OUT/rows08.csv"

# ---- 4. ncu: L2 requests / sectors and DRAM bytes, steps 07 and 08 -------------
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M="gpu__time_duration.sum,dram__bytes_read.sum,lts__t_requests_srcunit_tex.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sector_hit_rate.pct"
for b in step07_pingpong step08_cluster_multicast; do
  for s in "4096 4096 4096" "8192 8192 8192"; do set -- $s
    echo "--- $b $s" >> "$OUT/final_ncu.log"
    timeout 120 $NCU --metrics $M -k regex:pingpong_kernel --launch-skip 3 --launch-count 1 \
      build/$b --m $1 --n $2 --k $3 --iters 3 --warmup 1 --no-check 2>&1 | grep -E "^\s+(gpu__|dram__|lts__)" >> "$OUT/final_ncu.log"
  done
done
cat "$OUT/final_ncu.log"

# ---- 5. timeline of cluster 0 ----------------------------------------------------
timeout 60 build/step08_cluster_multicast --m 4096 --n 4096 --k 1024 --trace "$OUT/t08.csv" --iters 2 --warmup 1 | tail -1
