#!/bin/bash
# one_slot.sh — why is step 03 at --stages 1 slower than step 02 (the same
# one-slot protocol)?  It printed one_slot.csv at git 306208a; its second
# part then, the ncu cycle counts of steps 06 and 07, is now
# step07_pingpong/experiments/ncu_cycles.sh.
#
#   build (no GPU needed):  step03_staged_pipeline/experiments/one_slot.sh build
#   run (on the GPU):       step03_staged_pipeline/experiments/one_slot.sh run
#
# Step 02, step 03 --stages 1, and step 03 without its test_wait
# peek (a copy with both consumer_test_wait calls replaced by 0, so the
# consumer always blocks in consumer_wait, exactly as step 02 does), in
# alternating processes (A B C A B C A B C), work 64, each interleaved with
# the D2D copy as usual; ms and SM clock of every process in $OUT
# (one_slot.log: each process's result line; one_slot.csv: its row).
set -u
B=build/one_slot
OUT=${OUT:-/tmp/one_slot}
case "${1:-}" in
build)
    make step02 step03 BUILD=$B >/dev/null || exit 1
    sed -e 's/uint32_t ready = consumer_test_wait(full, cs.index, cs.phase);/uint32_t ready = 0;/' \
        -e 's/ready = consumer_test_wait(full, cs.index, cs.phase);   \/\* peek/ready = 0;   \/* no peek/' \
        step03_staged_pipeline/kernel.cu > $B/step03_nopeek.cu
    test "$(grep -c consumer_test_wait $B/step03_nopeek.cu)" -le 4 || exit 1
    grep -q "ready = 0;   /\* no peek" $B/step03_nopeek.cu || exit 1
    nvcc -O3 -std=c++17 -lineinfo -Icommon -Istep03_staged_pipeline -DGIT_REV='"nopeek"' \
         -gencode=arch=compute_90,code=sm_90 $B/step03_nopeek.cu \
         $B/common/args.o $B/common/csv.o $B/common/tma.o -L/usr/local/cuda/lib64 -lcublas -lcudart -ldl \
         -o $B/step03_nopeek || exit 1
    ls -la $B ;;
run)
    mkdir -p "$OUT"
    for r in 1 2 3; do
        for v in "step02_async_pipeline" "step03_staged_pipeline --stages 1" "step03_nopeek --stages 1"; do
            set -- $v
            $B/$1 ${2:-} ${3:-} --work 64 --variant "${1}_r$r" --csv "$OUT/one_slot.csv" 2>&1 | grep ' ms ' |
                sed "s/^/r$r $1: /" | tee -a "$OUT/one_slot.log"
        done
    done ;;
*) echo "usage: $0 build|run" >&2; exit 2 ;;
esac
